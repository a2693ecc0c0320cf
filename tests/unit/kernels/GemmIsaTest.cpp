//===- GemmIsaTest.cpp - nn::gemm's ISA bodies against the baseline -------===//
//
// nn::gemm has a baseline body, an AVX2 + FMA one and an AVX-512 one, picked
// at run time. All must compute the same products (to rounding), and so must
// the kernels built on them (and on the packed GEMM's bodies): conv through
// im2col, a 1x1 conv read directly as the GEMM operand, depthwise convs
// (stride 1 has an AVX2 row body of its own), gemm and matmul.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include "executor/kernels/isa/CpuIsa.h"
#include "executor/kernels/support/NnSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// Restores the ISA nn::gemm had when the test began.
class GemmIsaTest : public ::testing::Test {
protected:
  void TearDown() override { cpu::setActiveIsa(initial_); }

  /// Skips the test on CPUs (or builds) without the AVX2 body.
  void requireAvx2() {
    if (!cpu::setActiveIsa(cpu::Isa::kAvx2))
      GTEST_SKIP() << "no AVX2 + FMA here";
    cpu::setActiveIsa(initial_);
  }

  /// `fn()` under the baseline, then under each better ISA this CPU runs:
  /// {baseline result, {ISA, result} for the others}.
  template <class Fn>
  std::pair<std::vector<float>,
            std::vector<std::pair<cpu::Isa, std::vector<float>>>>
  underEach(Fn fn) {
    EXPECT_TRUE(cpu::setActiveIsa(cpu::Isa::kBaseline));
    std::vector<float> base = fn();
    std::vector<std::pair<cpu::Isa, std::vector<float>>> others;
    for (cpu::Isa isa : {cpu::Isa::kAvx2, cpu::Isa::kAvx512})
      if (cpu::setActiveIsa(isa))
        others.emplace_back(isa, fn());
    return {base, others};
  }

  cpu::Isa initial_ = cpu::activeIsa();
};

/// Direct triple loop in double, the reference for both bodies.
std::vector<float> referenceGemm(bool ta, bool tb, int64_t m, int64_t n,
                                 int64_t k, float alpha,
                                 const std::vector<float> &a,
                                 const std::vector<float> &b, float beta,
                                 const std::vector<float> &c) {
  std::vector<float> y(m * n);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < k; ++p)
        acc += double(ta ? a[p * m + i] : a[i * k + p]) *
               (tb ? b[j * k + p] : b[p * n + j]);
      y[i * n + j] = static_cast<float>(alpha * acc + beta * c[i * n + j]);
    }
  return y;
}

TEST_F(GemmIsaTest, EveryBodyMatchesTheReference) {
  requireAvx2();
  struct Case {
    int64_t m, n, k;
    bool ta, tb;
    float alpha, beta;
  };
  const Case cases[] = {
      {1, 1, 1, false, false, 1, 0},      {7, 13, 5, false, false, 1, 0},
      {64, 100, 576, false, false, 1, 0}, {33, 17, 129, true, false, 0.5f, 1},
      {9, 31, 40, false, true, 2, 0.25f}, {16, 8, 3, true, true, -1, 1},
      {128, 64, 128, false, false, 1, 0}, {197, 40, 768, false, true, 1, 0},
      {13, 257, 17, true, false, 1, 0.5f}};
  unsigned seed = 7;
  for (const Case &c : cases) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" +
                 std::to_string(c.k));
    std::vector<float> a = random(c.m * c.k, seed++),
                       b = random(c.k * c.n, seed++),
                       y0 = random(c.m * c.n, seed++);
    std::vector<float> want =
        referenceGemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, a, b, c.beta, y0);
    auto [base, others] = underEach([&] {
      std::vector<float> y = y0;
      nn::gemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, a.data(), c.ta ? c.m : c.k,
               b.data(), c.tb ? c.k : c.n, c.beta, y.data(), c.n);
      return y;
    });
    expectNearAbs(base, want);
    for (const auto &[isa, got] : others) {
      SCOPED_TRACE(cpu::isaName(isa));
      expectNearAbs(got, want);
    }
  }
}

/// Runs `op` on `inputs` over 3 blocks on threads; its only output's floats.
std::vector<float> runFloat(const om::OpDef &op,
                            const std::vector<std::vector<float>> &inputs) {
  std::vector<const float *> in;
  for (const auto &v : inputs)
    in.push_back(v.data());
  std::vector<float> out(numElements(op.output_desc(0)));
  rt::Status st = runBuffers(op, {in.begin(), in.end()}, {out.data()}, 3,
                             {rt::Engine::kAic, true, -1});
  EXPECT_TRUE(st.isOk()) << st.toString();
  return out;
}

TEST_F(GemmIsaTest, KernelsAgreeAcrossBodies) {
  requireAvx2();
  struct Case {
    const char *what;
    om::OpDef op;
  };
  auto conv = [](Shape x, Shape w, Shape y, int64_t group, Shape strides,
                 Shape pads) {
    OpBuilder b("conv");
    b.input(om::DT_FLOAT, x)
        .input(om::DT_FLOAT, w)
        .input(om::DT_FLOAT, {y[1]})
        .output(om::DT_FLOAT, y);
    om::OpDef op = b.op();
    (*op.mutable_attr())["group"].set_i(group);
    setInts(op, "strides", strides);
    setInts(op, "pads", pads);
    return op;
  };
  std::vector<Case> cases = {
      {"3x3 im2col", conv({1, 16, 20, 20}, {32, 16, 3, 3}, {1, 32, 20, 20}, 1,
                          {1, 1}, {1, 1, 1, 1})},
      {"1x1 pointwise", conv({1, 24, 14, 14}, {40, 24, 1, 1}, {1, 40, 14, 14},
                             1, {1, 1}, {0, 0, 0, 0})},
      {"1x1 stride 2", conv({1, 24, 14, 14}, {40, 24, 1, 1}, {1, 40, 7, 7}, 1,
                            {2, 2}, {0, 0, 0, 0})},
      {"depthwise", conv({1, 32, 15, 15}, {32, 1, 3, 3}, {1, 32, 8, 8}, 32,
                         {2, 2}, {1, 1, 1, 1})},
      {"depthwise stride 1", conv({1, 8, 21, 19}, {8, 1, 3, 3}, {1, 8, 21, 19},
                                  8, {1, 1}, {1, 1, 1, 1})},
      {"3x3 small map", conv({1, 40, 7, 7}, {50, 40, 3, 3}, {1, 50, 7, 7}, 1,
                             {1, 1}, {1, 1, 1, 1})},
      {"3x3 wide map", conv({1, 20, 30, 33}, {70, 20, 3, 3}, {1, 70, 30, 33}, 1,
                            {1, 1}, {1, 1, 1, 1})},
      {"1x1 deep", conv({1, 300, 9, 20}, {13, 300, 1, 1}, {1, 13, 9, 20}, 1,
                        {1, 1}, {0, 0, 0, 0})},
      {"gemm", OpBuilder("gemm")
                   .input(om::DT_FLOAT, {5, 300})
                   .input(om::DT_FLOAT, {300, 70})
                   .input(om::DT_FLOAT, {70})
                   .output(om::DT_FLOAT, {5, 70})
                   .op()},
      {"matmul", OpBuilder("matmul")
                     .input(om::DT_FLOAT, {2, 16, 64})
                     .input(om::DT_FLOAT, {2, 64, 16})
                     .output(om::DT_FLOAT, {2, 16, 16})
                     .op()},
  };
  unsigned seed = 100;
  for (const Case &c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<std::vector<float>> inputs;
    for (const om::TensorDescriptor &d : c.op.input_desc())
      inputs.push_back(random(numElements(d), seed++));
    auto [base, others] = underEach([&] { return runFloat(c.op, inputs); });
    for (const auto &[isa, got] : others) {
      SCOPED_TRACE(cpu::isaName(isa));
      expectNearAbs(got, base);
    }
  }
}

TEST_F(GemmIsaTest, BaselineIsAlwaysThere) {
  EXPECT_TRUE(cpu::setActiveIsa(cpu::Isa::kBaseline));
  EXPECT_EQ(cpu::activeIsa(), cpu::Isa::kBaseline);
  EXPECT_STREQ(cpu::isaName(cpu::Isa::kBaseline), "baseline");
  EXPECT_FALSE(cpu::setActiveIsa(static_cast<cpu::Isa>(99)));
}

} // namespace
