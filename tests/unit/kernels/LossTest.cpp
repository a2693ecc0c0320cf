//===- LossTest.cpp - losses, arg_min, hardmax, cum_sum, lrn, mvn, det ----===//
//
// Expected values are worked by hand or with numpy (the comments say how).
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

// Log-probabilities [N=2, C=3, d=2]; targets [2, 2] with one ignored (-1).
HostTensor nllInput() {
  return tensor<float>({2, 3, 2}, {-1.0f, -2.0f, -0.5f, -3.0f, -2.5f, -0.25f,
                                   -0.1f, -1.5f, -4.0f, -0.75f, -2.0f, -1.25f});
}
HostTensor nllTarget() { return tensor<int64_t>({2, 2}, {0, 2, 1, -1}); }
HostTensor nllWeight() { return tensor<float>({3}, {0.5f, 2.0f, 1.0f}); }

om::OpDef nllOp(const char *reduction, std::vector<int64_t> out) {
  return OpBuilder("negative_log_likelihood_loss")
      .input(nllInput())
      .input(nllTarget())
      .input(nllWeight())
      .attr("reduction", reduction)
      .attr("ignore_index", int64_t{-1})
      .output(om::DT_FLOAT, out);
}

} // namespace

TEST(LossTest, NllEveryReductionWithWeightAndIgnoreIndex) {
  std::vector<HostTensor> in = {nllInput(), nllTarget(), nllWeight()};
  // -x[n, t, d] * w[t]: 1 * 0.5, 0.25 * 1, 4 * 2, and 0 where ignored.
  expectNear(runAll<float>(nllOp("none", {2, 2}), in), {0.5f, 0.25f, 8, 0});
  expectNear(runAll<float>(nllOp("sum", {}), in), {8.75f});
  // mean divides by the weights of the counted elements: 0.5 + 1 + 2.
  expectNear(runAll<float>(nllOp("mean", {}), in), {2.5f});
}

TEST(LossTest, NllWithoutWeightCountsTheElementsNotIgnored) {
  auto x = nllInput(), t = nllTarget();
  om::OpDef op = OpBuilder("negative_log_likelihood_loss")
                     .input(x)
                     .input(t)
                     .attr("ignore_index", int64_t{-1})
                     .output(om::DT_FLOAT, {});
  // (1 + 0.25 + 4) / 3.
  expectNear(runAll<float>(op, {x, t}), {5.25f / 3});
}

TEST(LossTest, NllMeanOfOnlyIgnoredElementsIsNaN) {
  auto x = tensor<float>({2, 2}, {-1, -2, -3, -4});
  auto t = tensor<int32_t>({2}, {1, 1});
  om::OpDef op = OpBuilder("negative_log_likelihood_loss")
                     .input(x)
                     .input(t)
                     .attr("ignore_index", int64_t{1})
                     .output(om::DT_FLOAT, {});
  auto out = runOp(op, {x, t}, 1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(std::isnan(out[0].values<float>()[0]));
}

TEST(LossTest, NllClassOutsideTheRangeIsAnError) {
  auto x = tensor<float>({2, 2}, {-1, -2, -3, -4});
  auto t = tensor<int64_t>({2}, {0, 2});
  om::OpDef op = OpBuilder("negative_log_likelihood_loss")
                     .input(x)
                     .input(t)
                     .attr("reduction", "none")
                     .output(om::DT_FLOAT, {2});
  rt::Status st;
  runOp(op, {x, t}, 1, false, &st);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.toString().find("class 2 at position 1 is outside [0, 2)"),
            std::string::npos)
      << st.toString();
}

TEST(LossTest, SoftmaxCrossEntropyWithLogProb) {
  auto s = tensor<double>({2, 3}, {1, 2, 3, 0.5, -1, 2});
  auto l = tensor<int64_t>({2}, {2, 0});
  om::OpDef op = OpBuilder("softmax_cross_entropy_loss")
                     .input(s)
                     .input(l)
                     .output(om::DT_DOUBLE, {})
                     .output(om::DT_DOUBLE, {2, 3});
  // numpy: s - log(sum(exp(s), axis=1)).
  std::vector<double> logProb = {-2.40760596444438,  -1.40760596444438,
                                 -0.40760596444438,  -1.741311296657157,
                                 -3.241311296657157, -0.241311296657157};
  expectNear(runAll<double>(op, {s, l}, 1), logProb, 1e-12);
  expectNear(runAll<double>(op, {s, l}, 0),
             {(0.40760596444438 + 1.741311296657157) / 2}, 1e-12);
}

TEST(LossTest, SoftmaxCrossEntropyNdMatchesNllOfLogSoftmax) {
  // [N=2, C=3, d=2]: the classes are 2 apart; position (1, 1) is ignored.
  auto s = tensor<float>({2, 3, 2}, {1, 0, 2, 0, 3, 0, 0.5f, 1, -1, 1, 2, 1});
  auto l = tensor<int32_t>({2, 2}, {2, 1, 0, 5});
  om::OpDef op = OpBuilder("softmax_cross_entropy_loss")
                     .input(s)
                     .input(l)
                     .attr("reduction", "none")
                     .attr("ignore_index", int64_t{5})
                     .output(om::DT_FLOAT, {2, 2});
  // Column d=0 is the rows of the test above; d=1 is uniform: log(3).
  expectNear(runAll<float>(op, {s, l}),
             {0.40760596f, std::log(3.0f), 1.7413113f, 0});
}

TEST(LossTest, ArgMinFirstAndLastIndex) {
  auto x = tensor<float>({2, 3}, {2, 1, 1, 0, 5, 0});
  om::OpDef first = OpBuilder("arg_min")
                        .input(x)
                        .attr("axis", 1)
                        .attr("keepdims", 0)
                        .output(om::DT_INT64, {2});
  EXPECT_EQ(runAll<int64_t>(first, {x}), (std::vector<int64_t>{1, 0}));
  om::OpDef last = OpBuilder("arg_min")
                       .input(x)
                       .attr("axis", -1)
                       .attr("select_last_index", 1)
                       .output(om::DT_INT64, {2, 1});
  EXPECT_EQ(runAll<int64_t>(last, {x}), (std::vector<int64_t>{2, 2}));
  om::OpDef axis0 = OpBuilder("arg_min").input(x).output(om::DT_INT64, {1, 3});
  EXPECT_EQ(runAll<int64_t>(axis0, {x}), (std::vector<int64_t>{1, 0, 1}));
}

TEST(LossTest, HardmaxIsOneHotOfTheFirstMax) {
  auto x = tensor<float>({2, 3}, {3, 1, 3, -1, 4, 2});
  om::OpDef rows = OpBuilder("hardmax").input(x).output(om::DT_FLOAT, {2, 3});
  EXPECT_EQ(runAll<float>(rows, {x}), (std::vector<float>{1, 0, 0, 0, 1, 0}));
  om::OpDef cols = OpBuilder("hardmax").input(x).attr("axis", 0).output(
      om::DT_FLOAT, {2, 3});
  EXPECT_EQ(runAll<float>(cols, {x}), (std::vector<float>{1, 0, 1, 0, 1, 0}));
}

TEST(LossTest, CumSumExclusiveReverseAndInnerAxis) {
  auto x = tensor<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto run = [&](int64_t axis, int exclusive, int reverse) {
    auto a = tensor<int32_t>({}, {static_cast<int32_t>(axis)});
    om::OpDef op = OpBuilder("cum_sum")
                       .input(x)
                       .input(a)
                       .attr("exclusive", exclusive)
                       .attr("reverse", reverse)
                       .output(om::DT_INT64, {2, 3});
    return runAll<int64_t>(op, {x, a});
  };
  using V = std::vector<int64_t>;
  EXPECT_EQ(run(1, 0, 0), (V{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(run(-1, 1, 0), (V{0, 1, 3, 0, 4, 9}));
  EXPECT_EQ(run(1, 0, 1), (V{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(run(1, 1, 1), (V{5, 3, 0, 11, 6, 0}));
  // Axis 0: the rows are scanned together.
  EXPECT_EQ(run(0, 0, 0), (V{1, 2, 3, 5, 7, 9}));
  EXPECT_EQ(run(0, 1, 1), (V{4, 5, 6, 0, 0, 0}));
}

TEST(LossTest, CumSumSplitsLongAxesOverBlocks) {
  // 3 rows of 5000: more than one block's grain, so blocks share the rows.
  const int64_t n = 5000;
  std::vector<float> v(3 * n, 1.0f);
  auto x = tensor<float>({3, n}, v);
  auto a = tensor<int64_t>({1}, {1});
  om::OpDef op =
      OpBuilder("cum_sum").input(x).input(a).output(om::DT_FLOAT, {3, n});
  auto out = runAll<float>(op, {x, a});
  ASSERT_EQ(out.size(), static_cast<size_t>(3 * n));
  for (int64_t r = 0; r < 3; ++r)
    for (int64_t i : {int64_t{0}, int64_t{1}, n - 1})
      EXPECT_EQ(out[r * n + i], static_cast<float>(i + 1));
}

TEST(LossTest, NewReductions) {
  auto x = tensor<float>({2, 3}, {1, 2, 3, 0.5f, -1, 4});
  auto run = [&](const char *type, std::vector<int64_t> out,
                 std::vector<int64_t> axes) {
    OpBuilder b(type);
    b.input(x).output(om::DT_FLOAT, out);
    if (!axes.empty())
      b.attrInts("axes", axes);
    return runAll<float>(b.op(), {x});
  };
  EXPECT_EQ(run("reduce_l1", {2, 1}, {1}), (std::vector<float>{6, 5.5f}));
  EXPECT_EQ(run("reduce_l1", {1, 1}, {}), (std::vector<float>{11.5f}));
  // log(1.5), log(1), log(7).
  expectNear(run("reduce_log_sum", {1, 3}, {0}),
             {std::log(1.5f), 0, std::log(7.0f)});
  // numpy: log(sum(exp(x), axis=1)).
  expectNear(run("reduce_log_sum_exp", {2, 1}, {-1}), {3.4076059f, 4.0362697f});
}

TEST(LossTest, MeanVarianceNormalizationDefaultAxes) {
  // [2, 2, 1, 2], channel statistics over N, H, W; numpy's values.
  auto x = tensor<float>({2, 2, 1, 2}, {1, 2, 3, 4, 5, 6, 7, 9});
  om::OpDef op = OpBuilder("mean_variance_normalization")
                     .input(x)
                     .output(om::DT_FLOAT, {2, 2, 1, 2});
  expectNear(runAll<float>(op, {x}),
             {-1.2126782f, -0.7276069f, -1.1531132f, -0.7337993f, 0.7276069f,
              1.2126782f, 0.5241424f, 1.3627702f});
  // A constant group: deviation 0, output 0 (epsilon keeps it finite).
  auto c = tensor<float>({1, 3}, {2, 2, 2});
  om::OpDef flat = OpBuilder("mean_variance_normalization")
                       .input(c)
                       .attrInts("axes", {1})
                       .output(om::DT_FLOAT, {1, 3});
  EXPECT_EQ(runAll<float>(flat, {c}), (std::vector<float>{0, 0, 0}));
}

TEST(LossTest, LrnClipsTheWindowAtTheEdges) {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i)
    v[i] = 0.5f * static_cast<float>(i + 1);
  auto x = tensor<float>({2, 4, 1, 2}, v);
  om::OpDef op = OpBuilder("lrn")
                     .input(x)
                     .attr("size", int64_t{3})
                     .attr("alpha", 0.1f)
                     .attr("beta", 0.75f)
                     .attr("bias", 2.0f)
                     .output(om::DT_FLOAT, {2, 4, 1, 2});
  // numpy over the ONNX formula.
  expectNear(runAll<float>(op, {x}),
             {0.28833738f, 0.55995858f, 0.80533701f, 1.01612508f, 1.18966329f,
              1.32714903f, 1.70120525f, 1.83162558f, 1.69251192f, 1.75679815f,
              1.62262321f, 1.63363671f, 1.63621008f, 1.63241017f, 2.15218806f,
              2.14979148f});
}

TEST(LossTest, DetOfABatchAndOfEmptyMatrices) {
  auto x = tensor<double>({3, 2, 2}, {1, 2, 3, 4, 2, 0, 0, 3, 0, 1, 1, 0});
  om::OpDef op = OpBuilder("det").input(x).output(om::DT_DOUBLE, {3});
  expectNear(runAll<double>(op, {x}), {-2, 6, -1}, 1e-12);
  auto m = tensor<float>({3, 3}, {2, 1, 0, 1, 3, 1, 0, 1, 4});
  om::OpDef one = OpBuilder("det").input(m).output(om::DT_FLOAT, {});
  expectNear(runAll<float>(one, {m}), {18});
  auto empty = tensor<float>({2, 0, 0}, {});
  om::OpDef zero = OpBuilder("det").input(empty).output(om::DT_FLOAT, {2});
  EXPECT_EQ(runAll<float>(zero, {empty}), (std::vector<float>{1, 1}));
}

TEST(LossTest, LpNormalizationAlongAnAxis) {
  auto x = tensor<float>({2, 2}, {3, -4, 1, 1});
  om::OpDef l2 =
      OpBuilder("lp_normalization").input(x).output(om::DT_FLOAT, {2, 2});
  expectNear(runAll<float>(l2, {x}),
             {0.6f, -0.8f, 1 / std::sqrt(2.0f), 1 / std::sqrt(2.0f)});
  om::OpDef l1 = OpBuilder("lp_normalization")
                     .input(x)
                     .attr("axis", 0)
                     .attr("p", 1)
                     .output(om::DT_FLOAT, {2, 2});
  expectNear(runAll<float>(l1, {x}), {0.75f, -0.8f, 0.25f, 0.2f});
}

TEST(LossTest, GlobalLpPoolOverTheSpatialDims) {
  auto x = tensor<float>({1, 2, 2, 1}, {3, -4, 1, 2});
  auto run = [&](int p) {
    om::OpDef op = OpBuilder("global_lp_pool")
                       .input(x)
                       .attr("p", p)
                       .output(om::DT_FLOAT, {1, 2, 1, 1});
    return runAll<float>(op, {x});
  };
  expectNear(run(2), {5, std::sqrt(5.0f)});
  expectNear(run(1), {7, 3});
  // (27 + 64)^(1/3), (1 + 8)^(1/3).
  expectNear(run(3), {std::cbrt(91.0f), std::cbrt(9.0f)});
}

TEST(LossTest, LpPoolWindowsIgnoreThePadding) {
  auto x = tensor<float>({1, 1, 3}, {3, -4, 12});
  om::OpDef op = OpBuilder("lp_pool")
                     .input(x)
                     .attrInts("kernel_shape", {2})
                     .attrInts("pads", {1, 0})
                     .output(om::DT_FLOAT, {1, 1, 3});
  // Windows [pad, 3], [3, -4], [-4, 12].
  expectNear(runAll<float>(op, {x}), {3, 5, std::sqrt(160.0f)});
  om::OpDef l1 = OpBuilder("lp_pool")
                     .input(x)
                     .attrInts("kernel_shape", {3})
                     .attr("p", 1)
                     .output(om::DT_FLOAT, {1, 1, 1});
  expectNear(runAll<float>(l1, {x}), {19});
}

TEST(LossTest, ReduceLogSumExpDoesNotOverflow) {
  // exp(1000) overflows float; the max-shifted form gives 1000 + log(2).
  auto x = tensor<float>({2, 2}, {1000, 1000, -1000, -1000});
  for (std::vector<int64_t> axes : {std::vector<int64_t>{1}, {0, 1}}) {
    std::vector<int64_t> out = axes.size() == 1 ? std::vector<int64_t>{2, 1}
                                                : std::vector<int64_t>{1, 1};
    om::OpDef op = OpBuilder("reduce_log_sum_exp")
                       .input(x)
                       .attrInts("axes", axes)
                       .output(om::DT_FLOAT, out);
    auto got = runAll<float>(op, {x});
    if (axes.size() == 1)
      expectNear(got, {1000 + std::log(2.0f), -1000 + std::log(2.0f)});
    else
      expectNear(got, {1000 + std::log(2.0f)});
  }
  // Non-adjacent axes take the walking path.
  auto y = tensor<float>({2, 2, 2}, {500, 0, 1, 1, 500, 0, 1, 1});
  om::OpDef walk = OpBuilder("reduce_log_sum_exp")
                       .input(y)
                       .attrInts("axes", {0, 2})
                       .attr("keepdims", 0)
                       .output(om::DT_FLOAT, {2});
  expectNear(runAll<float>(walk, {y}),
             {500 + std::log(2.0f), 1 + std::log(4.0f)});
}
