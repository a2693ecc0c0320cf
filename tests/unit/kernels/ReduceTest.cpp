//===- ReduceTest.cpp - reductions, softmax, arg_max, top_k
//------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

// The ONNX reduce examples' data: shape [3, 2, 2], values 1..12.
HostTensor example() {
  return tensor<float>({3, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
}

} // namespace

TEST(ReduceTest, ReduceSumAxesOperandKeepdimsAndNegative) {
  auto x = example();
  auto axes = tensor<int64_t>({1}, {1});
  om::OpDef op = OpBuilder("reduce_sum")
                     .input(x)
                     .input(axes)
                     .attr("keepdims", 1)
                     .output(om::DT_FLOAT, {3, 1, 2});
  EXPECT_EQ(runAll<float>(op, {x, axes}),
            (std::vector<float>{4, 6, 12, 14, 20, 22}));
  auto neg = tensor<int64_t>({1}, {-2});
  om::OpDef op2 = OpBuilder("reduce_sum")
                      .input(x)
                      .input(neg)
                      .attr("keepdims", 0)
                      .output(om::DT_FLOAT, {3, 2});
  EXPECT_EQ(runAll<float>(op2, {x, neg}),
            (std::vector<float>{4, 6, 12, 14, 20, 22}));
  // No axes: everything.
  om::OpDef all =
      OpBuilder("reduce_sum").input(x).output(om::DT_FLOAT, {1, 1, 1});
  EXPECT_EQ(runAll<float>(all, {x}), (std::vector<float>{78}));
  // Empty axes with noop_with_empty_axes: the input.
  auto empty = tensor<int64_t>({0}, {});
  om::OpDef noop = OpBuilder("reduce_sum")
                       .input(x)
                       .input(empty)
                       .attr("noop_with_empty_axes", 1)
                       .output(om::DT_FLOAT, {3, 2, 2});
  EXPECT_EQ(runAll<float>(noop, {x, empty}),
            (std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

TEST(ReduceTest, AttributeAxesAndEveryReduction) {
  auto x = example();
  auto run = [&](const char *type, std::vector<int64_t> axes,
                 std::vector<int64_t> out) {
    OpBuilder b(type);
    b.input(x).output(om::DT_FLOAT, out);
    if (!axes.empty())
      b.attrInts("axes", axes);
    return runAll<float>(b.op(), {x});
  };
  EXPECT_EQ(run("reduce_mean", {1}, {3, 1, 2}),
            (std::vector<float>{2, 3, 6, 7, 10, 11}));
  EXPECT_EQ(run("reduce_max", {2}, {3, 2, 1}),
            (std::vector<float>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(run("reduce_min", {-1}, {3, 2, 1}),
            (std::vector<float>{1, 3, 5, 7, 9, 11}));
  EXPECT_EQ(run("reduce_prod", {2}, {3, 2, 1}),
            (std::vector<float>{2, 12, 30, 56, 90, 132}));
  EXPECT_EQ(run("reduce_sum_square", {2}, {3, 2, 1}),
            (std::vector<float>{5, 25, 61, 113, 181, 265}));
  expectNear(run("reduce_l2", {2}, {3, 2, 1}),
             {std::sqrt(5.0f), 5.0f, std::sqrt(61.0f), std::sqrt(113.0f),
              std::sqrt(181.0f), std::sqrt(265.0f)});
  EXPECT_EQ(run("reduce_max", {}, {1, 1, 1}), (std::vector<float>{12}));
  // Non-adjacent axes: sum over dims 0 and 2.
  EXPECT_EQ(run("reduce_mean", {0, 2}, {2}),
            (std::vector<float>{33.0f / 6, 45.0f / 6}));
  EXPECT_EQ(run("reduce_max", {0, 2}, {1, 2, 1}), (std::vector<float>{10, 12}));
}

TEST(ReduceTest, MiddleAxisOfALargeTensorAndIntegers) {
  const int64_t A = 4, B = 30, C = 50;
  std::vector<float> data(A * B * C);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<float>(i % 17);
  auto x = tensor<float>({A, B, C}, data);
  auto axes = tensor<int64_t>({1}, {1});
  om::OpDef withAxes = OpBuilder("reduce_sum")
                           .input(x)
                           .input(axes)
                           .attr("keepdims", 0)
                           .output(om::DT_FLOAT, {A, C});
  std::vector<float> expected(A * C, 0);
  for (int64_t a = 0; a < A; ++a)
    for (int64_t b = 0; b < B; ++b)
      for (int64_t c = 0; c < C; ++c)
        expected[a * C + c] += data[(a * B + b) * C + c];
  EXPECT_EQ(runAll<float>(withAxes, {x, axes}), expected);

  auto xi = tensor<int64_t>({2, 3}, {1, -2, 3, 4, 5, -6});
  om::OpDef isum =
      OpBuilder("reduce_sum").input(xi).output(om::DT_INT64, {1, 1});
  EXPECT_EQ(runAll<int64_t>(isum, {xi}), (std::vector<int64_t>{5}));
  om::OpDef imax = OpBuilder("reduce_max")
                       .input(xi)
                       .attrInts("axes", {0})
                       .attr("keepdims", 0)
                       .output(om::DT_INT64, {3});
  EXPECT_EQ(runAll<int64_t>(imax, {xi}), (std::vector<int64_t>{4, 5, 3}));
}

TEST(ReduceTest, SoftmaxAndLogSoftmaxAlongAnyAxis) {
  auto x = tensor<float>({2, 3}, {1, 2, 3, -1, 0, 1000});
  auto softmaxRow = [](std::vector<double> v) {
    double m = *std::max_element(v.begin(), v.end()), s = 0;
    for (double &e : v)
      s += std::exp(e - m);
    std::vector<float> out;
    for (double e : v)
      out.push_back(static_cast<float>(std::exp(e - m) / s));
    return out;
  };
  std::vector<float> expected = softmaxRow({1, 2, 3});
  for (float v : softmaxRow({-1, 0, 1000}))
    expected.push_back(v);
  om::OpDef sm = OpBuilder("softmax").input(x).output(om::DT_FLOAT, {2, 3});
  expectNear(runAll<float>(sm, {x}), expected, 1e-6);

  // axis 0: columns.
  om::OpDef sm0 = OpBuilder("softmax").input(x).attr("axis", 0).output(
      om::DT_FLOAT, {2, 3});
  auto c0 = softmaxRow({1, -1}), c1 = softmaxRow({2, 0}),
       c2 = softmaxRow({3, 1000});
  expectNear(runAll<float>(sm0, {x}),
             {c0[0], c1[0], c2[0], c0[1], c1[1], c2[1]}, 1e-6);

  om::OpDef lsm = OpBuilder("log_softmax")
                      .input(x)
                      .attr("axis", -1)
                      .output(om::DT_FLOAT, {2, 3});
  double lse = std::log(std::exp(-2.0) + std::exp(-1.0) + 1.0);
  auto got = runAll<float>(lsm, {x});
  expectNear(std::vector<float>(got.begin(), got.begin() + 3),
             {static_cast<float>(-2 - lse), static_cast<float>(-1 - lse),
              static_cast<float>(-lse)});
  EXPECT_FLOAT_EQ(got[5], 0.0f);
  EXPECT_LT(got[3], -1000.0f);
}

TEST(ReduceTest, ArgMaxKeepdimsAndSelectLastIndex) {
  auto x = tensor<float>({2, 2}, {2, 1, 3, 10});
  om::OpDef a0 = OpBuilder("arg_max").input(x).output(om::DT_INT64, {1, 2});
  EXPECT_EQ(runAll<int64_t>(a0, {x}), (std::vector<int64_t>{1, 1}));
  om::OpDef a1 = OpBuilder("arg_max")
                     .input(x)
                     .attr("axis", -1)
                     .attr("keepdims", 0)
                     .output(om::DT_INT64, {2});
  EXPECT_EQ(runAll<int64_t>(a1, {x}), (std::vector<int64_t>{0, 1}));
  auto ties = tensor<float>({2, 2}, {2, 2, 3, 10});
  om::OpDef first = OpBuilder("arg_max").input(ties).attr("axis", 1).output(
      om::DT_INT64, {2, 1});
  EXPECT_EQ(runAll<int64_t>(first, {ties}), (std::vector<int64_t>{0, 1}));
  om::OpDef last = OpBuilder("arg_max")
                       .input(ties)
                       .attr("axis", 1)
                       .attr("select_last_index", 1)
                       .output(om::DT_INT64, {2, 1});
  EXPECT_EQ(runAll<int64_t>(last, {ties}), (std::vector<int64_t>{1, 1}));
}

TEST(ReduceTest, TopKLargestSmallestTiesAndAxis) {
  std::vector<float> v(12);
  for (int i = 0; i < 12; ++i)
    v[i] = static_cast<float>(i);
  auto x = tensor<float>({3, 4}, v);
  auto k = tensor<int64_t>({1}, {3});
  om::OpDef op = OpBuilder("top_k")
                     .input(x)
                     .input(k)
                     .output(om::DT_FLOAT, {3, 3})
                     .output(om::DT_INT64, {3, 3});
  EXPECT_EQ(runAll<float>(op, {x, k}, 0),
            (std::vector<float>{3, 2, 1, 7, 6, 5, 11, 10, 9}));
  EXPECT_EQ(runAll<int64_t>(op, {x, k}, 1),
            (std::vector<int64_t>{3, 2, 1, 3, 2, 1, 3, 2, 1}));

  auto t = tensor<float>({5}, {1, 3, 3, 2, 3});
  om::OpDef largest = OpBuilder("top_k")
                          .input(t)
                          .input(k)
                          .output(om::DT_FLOAT, {3})
                          .output(om::DT_INT64, {3});
  EXPECT_EQ(runAll<float>(largest, {t, k}, 0), (std::vector<float>{3, 3, 3}));
  EXPECT_EQ(runAll<int64_t>(largest, {t, k}, 1),
            (std::vector<int64_t>{1, 2, 4}));
  om::OpDef smallest = OpBuilder("top_k")
                           .input(t)
                           .input(k)
                           .attr("largest", 0)
                           .output(om::DT_FLOAT, {3})
                           .output(om::DT_INT64, {3});
  EXPECT_EQ(runAll<float>(smallest, {t, k}, 0), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ(runAll<int64_t>(smallest, {t, k}, 1),
            (std::vector<int64_t>{0, 3, 1}));

  // Along axis 0 of [3, 4], K = 2.
  auto k2 = tensor<int64_t>({1}, {2});
  om::OpDef col = OpBuilder("top_k")
                      .input(x)
                      .input(k2)
                      .attr("axis", 0)
                      .output(om::DT_FLOAT, {2, 4})
                      .output(om::DT_INT64, {2, 4});
  EXPECT_EQ(runAll<float>(col, {x, k2}, 0),
            (std::vector<float>{8, 9, 10, 11, 4, 5, 6, 7}));
  EXPECT_EQ(runAll<int64_t>(col, {x, k2}, 1),
            (std::vector<int64_t>{2, 2, 2, 2, 1, 1, 1, 1}));
}
