//===- SignalTest.cpp - windows, DFT, STFT, MelWeightMatrix ---------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

std::vector<float> runWindow(const std::string &type, int64_t size,
                             int64_t periodic, uint32_t blocks = 3) {
  auto n = tensor<int64_t>({}, {size});
  om::OpDef op = OpBuilder(type)
                     .attr("periodic", periodic)
                     .input(n)
                     .output(om::DT_FLOAT, {size});
  return runOp(op, {n}, blocks)[0].values<float>();
}

/// Interleaved (re, im) pairs.
std::vector<float>
complexPairs(const std::vector<std::pair<float, float>> &values) {
  std::vector<float> out;
  for (auto [re, im] : values) {
    out.push_back(re);
    out.push_back(im);
  }
  return out;
}

} // namespace

TEST(SignalTest, WindowsPeriodicAndSymmetric) {
  // Hann, periodic N = 4: 0.5 - 0.5 cos(2 pi n / 4).
  expectNear(runWindow("hann_window", 4, 1), {0.0f, 0.5f, 1.0f, 0.5f}, 1e-6);
  // Symmetric N = 5 divides by 4: the same samples plus the closing 0.
  expectNear(runWindow("hann_window", 5, 0), {0.0f, 0.5f, 1.0f, 0.5f, 0.0f},
             1e-6);
  // Hamming: 25/46 - 21/46 cos(...): 4/46 at the ends, 1 in the middle.
  expectNear(runWindow("hamming_window", 3, 0), {4.0f / 46, 1.0f, 4.0f / 46},
             1e-6);
  // Blackman, symmetric N = 3: 0, 1, 0.
  expectNear(runWindow("blackman_window", 3, 0), {0.0f, 1.0f, 0.0f}, 1e-6);
  // A symmetric window of one sample is 1 (no division by N - 1 = 0).
  expectNear(runWindow("hann_window", 1, 0), {1.0f}, 0);
}

TEST(SignalTest, LargeWindowMatchesTheFormulaInEveryBlock) {
  const int64_t n = 10000;
  std::vector<float> expected(n);
  for (int64_t i = 0; i < n; ++i)
    expected[i] = static_cast<float>(0.42 - 0.5 * std::cos(2 * M_PI * i / n) +
                                     0.08 * std::cos(4 * M_PI * i / n));
  for (uint32_t blocks : kBlockDims)
    expectNear(runWindow("blackman_window", n, 1, blocks), expected, 1e-6);
}

TEST(SignalTest, WindowInDoubleAndSizeChecked) {
  auto n = tensor<int32_t>({}, {4});
  om::OpDef op = OpBuilder("hann_window")
                     .attr("output_datatype", int64_t(11))
                     .input(n)
                     .output(om::DT_DOUBLE, {4});
  std::vector<double> got = runOp(op, {n}, 1)[0].values<double>();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_NEAR(got[1], 0.5, 1e-15);
  // The run's size must be the one the output was planned for.
  auto wrong = tensor<int32_t>({}, {5});
  rt::Status status;
  runOp(op, {wrong}, 1, false, &status);
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("size is 5"), std::string::npos);
}

TEST(SignalTest, DftOfARealSignal) {
  // [1, 4, 1]: X = 10, -2+2i, -2, -2-2i.
  auto x = tensor<float>({1, 4, 1}, {1, 2, 3, 4});
  om::OpDef full = OpBuilder("dft").input(x).output(om::DT_FLOAT, {1, 4, 2});
  expectNear(runOp(full, {x}, 1)[0].values<float>(),
             complexPairs({{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}), 1e-5);
  om::OpDef half = OpBuilder("dft")
                       .attr("onesided", int64_t(1))
                       .input(x)
                       .output(om::DT_FLOAT, {1, 3, 2});
  expectNear(runOp(half, {x}, 1)[0].values<float>(),
             complexPairs({{10, 0}, {-2, 2}, {-2, 0}}), 1e-5);
}

TEST(SignalTest, DftInverseUndoesTheForward) {
  auto spectrum = tensor<float>(
      {1, 4, 2}, complexPairs({{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}}));
  om::OpDef op = OpBuilder("dft")
                     .attr("inverse", int64_t(1))
                     .input(spectrum)
                     .output(om::DT_FLOAT, {1, 4, 2});
  expectNear(runOp(op, {spectrum}, 1)[0].values<float>(),
             complexPairs({{1, 0}, {2, 0}, {3, 0}, {4, 0}}), 1e-5);
}

TEST(SignalTest, DftAlongAnInnerAxisWithBlocks) {
  // [2, 2, 3, 1] along axis 1: per (batch, column) X0 = a + b, X1 = a - b.
  std::vector<float> values(12);
  for (int i = 0; i < 12; ++i)
    values[i] = static_cast<float>(i * i);
  auto x = tensor<float>({2, 2, 3, 1}, values);
  om::OpDef op = OpBuilder("dft")
                     .attr("axis", int64_t(1))
                     .input(x)
                     .output(om::DT_FLOAT, {2, 2, 3, 2});
  std::vector<float> expected;
  for (int b = 0; b < 2; ++b)
    for (int k = 0; k < 2; ++k)
      for (int c = 0; c < 3; ++c) {
        float a = values[b * 6 + c], d = values[b * 6 + 3 + c];
        expected.push_back(k == 0 ? a + d : a - d);
        expected.push_back(0);
      }
  for (uint32_t blocks : kBlockDims)
    expectNear(runOp(op, {x}, blocks)[0].values<float>(), expected, 1e-4);
}

TEST(SignalTest, DftLengthPadsWithZeros) {
  // [1, 1] padded to 4: X = 2, 1 - i, 0, 1 + i.
  auto x = tensor<float>({1, 2, 1}, {1, 1});
  auto length = tensor<int64_t>({}, {4});
  om::OpDef op =
      OpBuilder("dft").input(x).input(length).output(om::DT_FLOAT, {1, 4, 2});
  for (bool constants : {false, true})
    expectNear(runOp(op, {x, length}, 1, constants)[0].values<float>(),
               complexPairs({{2, 0}, {1, -1}, {0, 0}, {1, 1}}), 1e-6);
  // A length that does not give the planned bins is an error.
  auto wrong = tensor<int64_t>({}, {5});
  for (bool constants : {false, true}) {
    rt::Status status;
    runOp(op, {x, wrong}, 1, constants, &status);
    EXPECT_FALSE(status.isOk());
  }
}

TEST(SignalTest, StftFramesWithAndWithoutWindow) {
  // 0..7, frames of 4 every 2 samples: 3 frames, 3 onesided bins.
  std::vector<float> signal = {0, 1, 2, 3, 4, 5, 6, 7};
  auto s = tensor<float>({1, 8, 1}, signal);
  auto step = tensor<int64_t>({}, {2});
  auto length = tensor<int64_t>({}, {4});
  om::OpDef plain =
      OpBuilder("stft").input(s).input(step).absentInput().input(length).output(
          om::DT_FLOAT, {1, 3, 3, 2});
  // Frame starting at a: X0 = 4a + 6, X1 = -2 + 2i, X2 = -2.
  std::vector<float> expected;
  for (int a : {0, 2, 4}) {
    auto frame = complexPairs({{4.0f * a + 6, 0}, {-2, 2}, {-2, 0}});
    expected.insert(expected.end(), frame.begin(), frame.end());
  }
  for (uint32_t blocks : kBlockDims)
    expectNear(runOp(plain, {s, step, HostTensor(), length}, blocks)[0]
                   .values<float>(),
               expected, 1e-5);
  // Window (1, 0, 1, 0) keeps x_a and x_{a+2}: X0 = X2 = 2a + 2 and
  // X1 = x_a - x_{a+2} = -2.
  auto w = tensor<float>({4}, {1, 0, 1, 0});
  om::OpDef windowed = OpBuilder("stft").input(s).input(step).input(w).output(
      om::DT_FLOAT, {1, 3, 3, 2});
  std::vector<float> expectedWindowed;
  for (float a : {0.0f, 2.0f, 4.0f}) {
    auto frame = complexPairs({{2 * a + 2, 0}, {-2, 0}, {2 * a + 2, 0}});
    expectedWindowed.insert(expectedWindowed.end(), frame.begin(), frame.end());
  }
  expectNear(runOp(windowed, {s, step, w}, 3)[0].values<float>(),
             expectedWindowed, 1e-5);
  // A step that gives another frame count is an error.
  auto badStep = tensor<int64_t>({}, {3});
  rt::Status status;
  runOp(windowed, {s, badStep, w}, 1, false, &status);
  EXPECT_FALSE(status.isOk());
}

TEST(SignalTest, MelWeightMatrixMatchesOnnxReference) {
  // 3 mel bins over a 32-point DFT at 16 kHz, 0 to 8 kHz: band edges at
  // DFT bins 0, 0, 2, 5, 9 (ONNX's reference implementation).
  auto bins = tensor<int32_t>({}, {3});
  auto length = tensor<int32_t>({}, {32});
  auto rate = tensor<int32_t>({}, {16000});
  auto lo = tensor<float>({}, {0.0f});
  auto hi = tensor<float>({}, {8000.0f});
  om::OpDef op = OpBuilder("mel_weight_matrix")
                     .input(bins)
                     .input(length)
                     .input(rate)
                     .input(lo)
                     .input(hi)
                     .output(om::DT_FLOAT, {17, 3});
  std::vector<float> expected(17 * 3, 0.0f);
  auto at = [&](int row, int band) -> float & {
    return expected[row * 3 + band];
  };
  at(0, 0) = 1;
  at(1, 0) = 0.5f;
  at(1, 1) = 0.5f;
  at(2, 1) = 1;
  at(3, 1) = 2.0f / 3;
  at(3, 2) = 1.0f / 3;
  at(4, 1) = 1.0f / 3;
  at(4, 2) = 2.0f / 3;
  at(5, 2) = 1;
  at(6, 2) = 0.75f;
  at(7, 2) = 0.5f;
  at(8, 2) = 0.25f;
  for (bool constants : {false, true})
    expectNear(runOp(op, {bins, length, rate, lo, hi}, 1, constants)[0]
                   .values<float>(),
               expected, 1e-6);
  // An upper edge beyond Nyquist puts band edges past the last bin.
  auto tooHigh = tensor<float>({}, {20000.0f});
  rt::Status status;
  runOp(op, {bins, length, rate, lo, tooHigh}, 1, false, &status);
  EXPECT_FALSE(status.isOk());
}

TEST(SignalTest, DftInDouble) {
  auto x = tensor<double>({1, 4, 1}, {1, 2, 3, 4});
  om::OpDef op = OpBuilder("dft").input(x).output(om::DT_DOUBLE, {1, 4, 2});
  std::vector<double> got = runOp(op, {x}, 1)[0].values<double>();
  std::vector<double> want = {10, 0, -2, 2, -2, 0, -2, -2};
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-12) << "at " << i;
  // An integer signal is not a DFT input.
  auto ints = tensor<int32_t>({1, 4, 1}, {1, 2, 3, 4});
  om::OpDef bad = OpBuilder("dft").input(ints).output(om::DT_INT32, {1, 4, 2});
  KernelPlan plan;
  EXPECT_FALSE(planKernel(bad, &plan).isOk());
}
