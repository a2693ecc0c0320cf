//===- ShapeFunctionsTest.cpp - ir/ShapeFunctions.h -----------------------===//

#include "ir/ShapeFunctions.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::ge;

namespace {
constexpr int64_t kDyn = kDynamic;

Shape S(std::initializer_list<int64_t> dims) { return Shape(dims); }

TEST(ShapeFunctions, NormalizeAxis) {
  EXPECT_EQ(*normalizeAxis(-1, 4), 3);
  EXPECT_EQ(*normalizeAxis(0, 1), 0);
  std::string why;
  EXPECT_TRUE(failed(normalizeAxis(4, 4, &why)));
  EXPECT_EQ(why, "axis 4 is out of range [-4, 4)");
  EXPECT_TRUE(failed(normalizeAxes({1, -3}, 4, &why)));
  EXPECT_EQ(why, "axis -3 is repeated");
}

TEST(ShapeFunctions, Broadcast) {
  EXPECT_EQ(*broadcastShapes(S({2, 1, 3}), S({4, 1})), S({2, 4, 3}));
  EXPECT_EQ(*broadcastShapes(S({}), S({5})), S({5}));
  EXPECT_EQ(*broadcastShapes(S({kDyn, 3}), S({4, 1})), S({4, 3}));
  EXPECT_EQ(*broadcastShapes(S({kDyn}), S({1})), S({kDyn}));
  EXPECT_EQ(*broadcastShapes(S({kDyn}), S({kDyn})), S({kDyn}));
  std::string why;
  EXPECT_TRUE(failed(broadcastShapes(S({2, 3}), S({4}), &why)));
  EXPECT_EQ(why, "shapes [2, 3] and [4] do not broadcast (3 vs 4)");
}

TEST(ShapeFunctions, PoolFloorAndCeil) {
  int64_t kernel[] = {3, 3}, strides[] = {2, 2}, pads[] = {1, 1, 1, 1};
  WindowParams p{kernel, strides, pads, {}, "NOTSET", false};
  EXPECT_EQ(*poolOutputShape(S({1, 64, 112, 112}), p), S({1, 64, 56, 56}));
  int64_t k2[] = {2, 2}, s2[] = {2, 2};
  WindowParams ceil{k2, s2, {}, {}, "NOTSET", true};
  EXPECT_EQ(*poolOutputShape(S({1, 3, 5, 5}), ceil), S({1, 3, 3, 3}));
  ceil.ceilMode = false;
  EXPECT_EQ(*poolOutputShape(S({1, 3, 5, 5}), ceil), S({1, 3, 2, 2}));
}

TEST(ShapeFunctions, SamePads) {
  int64_t kernel[] = {3}, strides[] = {2};
  WindowParams upper{kernel, strides, {}, {}, "SAME_UPPER", false};
  // in = 6, stride 2: out 3, total pad 1 goes to the end for SAME_UPPER.
  EXPECT_EQ(resolvePads(S({6}), upper), S({0, 1}));
  WindowParams lower = upper;
  lower.autoPad = "SAME_LOWER";
  EXPECT_EQ(resolvePads(S({6}), lower), S({1, 0}));
  EXPECT_EQ(*windowOutputShape(S({6}), upper), S({3}));
  EXPECT_EQ(*windowOutputShape(S({5}), upper), S({3}));
  WindowParams valid{kernel, strides, {}, {}, "VALID", false};
  EXPECT_EQ(*windowOutputShape(S({6}), valid), S({2}));
}

TEST(ShapeFunctions, Conv) {
  int64_t pads[] = {3, 3, 3, 3}, strides[] = {2, 2};
  WindowParams p{{}, strides, pads, {}, "NOTSET", false};
  EXPECT_EQ(*convOutputShape(S({1, 3, 224, 224}), S({64, 3, 7, 7}), 1, p),
            S({1, 64, 112, 112}));
  // Depthwise with dilation 2 and SAME_UPPER keeps the spatial size.
  int64_t dilations[] = {2, 2};
  WindowParams d{{}, {}, {}, dilations, "SAME_UPPER", false};
  EXPECT_EQ(*convOutputShape(S({1, 8, 10, 10}), S({8, 1, 3, 3}), 8, d),
            S({1, 8, 10, 10}));
  // Dynamic batch and spatial dims propagate.
  EXPECT_EQ(*convOutputShape(S({kDyn, 3, kDyn, 16}), S({4, 3, 3, 3}), 1,
                             WindowParams{}),
            S({kDyn, 4, kDyn, 14}));
  std::string why;
  EXPECT_TRUE(failed(
      convOutputShape(S({3, 224}), S({64, 3}), 1, WindowParams{}, &why)));
  EXPECT_EQ(why, "input 'X' has rank 2 but Conv needs rank >= 3");
  EXPECT_TRUE(failed(convOutputShape(S({1, 3, 8, 8}), S({4, 2, 3, 3}), 1,
                                     WindowParams{}, &why)));
  EXPECT_EQ(why, "input 'X' has 3 channels but W[1] * group = 2");
}

TEST(ShapeFunctions, ConvTranspose) {
  int64_t strides[] = {2, 2};
  WindowParams p{{}, strides, {}, {}, "NOTSET", false};
  EXPECT_EQ(
      *convTransposeOutputShape(S({1, 8, 5, 5}), S({8, 4, 3, 3}), 1, p, {}, {}),
      S({1, 4, 11, 11}));
  int64_t outputPadding[] = {1, 1};
  EXPECT_EQ(*convTransposeOutputShape(S({1, 8, 5, 5}), S({8, 4, 3, 3}), 2, p,
                                      outputPadding, {}),
            S({1, 8, 12, 12}));
  int64_t outputShape[] = {10, 9};
  EXPECT_EQ(*convTransposeOutputShape(S({1, 8, 5, 5}), S({8, 4, 3, 3}), 1, p,
                                      {}, outputShape),
            S({1, 4, 10, 9}));
}

TEST(ShapeFunctions, Reduce) {
  EXPECT_EQ(reduceShape(S({2, 3, 4}), {1}, true), S({2, 1, 4}));
  EXPECT_EQ(reduceShape(S({2, 3, 4}), {0, 2}, false), S({3}));
  EXPECT_EQ(reduceShape(S({2, 3, 4}), {}, false), S({}));
  EXPECT_EQ(reduceShape(S({2, 3, 4}), {}, true, /*noopWithEmptyAxes=*/true),
            S({2, 3, 4}));
}

TEST(ShapeFunctions, MatMulAndGemm) {
  EXPECT_EQ(*matmulShape(S({2, 1, 4, 8}), S({3, 8, 5})), S({2, 3, 4, 5}));
  EXPECT_EQ(*matmulShape(S({8}), S({3, 8, 5})), S({3, 5}));
  EXPECT_EQ(*matmulShape(S({4, 8}), S({8})), S({4}));
  EXPECT_EQ(*matmulShape(S({8}), S({8})), S({}));
  EXPECT_TRUE(failed(matmulShape(S({2, 3}), S({4, 5}))));
  EXPECT_EQ(*gemmShape(S({8, 4}), S({16, 8}), true, true), S({4, 16}));
  EXPECT_TRUE(failed(gemmShape(S({8, 4}), S({16, 8}), false, false)));
}

TEST(ShapeFunctions, Reshape) {
  EXPECT_EQ(*reshapeShape(S({2, 3, 4}), S({0, -1}), false), S({2, 12}));
  EXPECT_EQ(*reshapeShape(S({2, 3, 4}), S({-1}), false), S({24}));
  EXPECT_EQ(*reshapeShape(S({0, 3}), S({0, 3}), true), S({0, 3}));
  EXPECT_EQ(*reshapeShape(S({kDyn, 3}), S({-1, 3}), false), S({kDyn, 3}));
  std::string why;
  EXPECT_TRUE(failed(reshapeShape(S({2, 3}), S({4, -1}), false, &why)));
  EXPECT_EQ(why, "cannot reshape [2, 3] (6 elements) into [4, -1]");
  EXPECT_TRUE(failed(reshapeShape(S({2, 3}), S({0, -1}), true, &why)));
  // Found by fuzzing: the target's product overflowed int64 (UB) and could
  // wrap to the input's element count.
  EXPECT_TRUE(failed(reshapeShape(
      S({1, 9, 4, 4}), S({274877906945, 12884901891, 0, 4, 4}), false, &why)));
  EXPECT_EQ(why, "cannot reshape [1, 9, 4, 4] into [274877906945, "
                 "12884901891, 0, 4, 4]: a shape has 2^63 elements or more");
  EXPECT_EQ(numElements(S({int64_t(1) << 40, int64_t(1) << 40})), INT64_MAX);
}

TEST(ShapeFunctions, Slice) {
  EXPECT_EQ(*sliceShape(S({10, 5}), S({1}), S({1000}), S({0}), S({3})),
            S({3, 5}));
  // Reverse the whole dim with INT64 bounds as exporters write them.
  EXPECT_EQ(*sliceShape(S({10}), S({-1}), S({INT64_MIN + 1}), {}, S({-1})),
            S({10}));
  EXPECT_EQ(*sliceShape(S({10}), S({5}), S({2}), {}, {}), S({0}));
  int64_t start, count;
  sliceDim(5, -1, -100, -2, start, count);
  EXPECT_EQ(start, 4);
  EXPECT_EQ(count, 3);
  EXPECT_TRUE(failed(sliceShape(S({10}), S({0}), S({1}), {}, S({0}))));
  // Extreme steps and bounds do not overflow.
  EXPECT_EQ(*sliceShape(S({10}), S({0}), S({INT64_MAX}), {}, S({INT64_MAX})),
            S({1}));
  EXPECT_EQ(
      *sliceShape(S({10}), S({INT64_MAX}), S({INT64_MIN}), {}, S({INT64_MIN})),
      S({1}));
  EXPECT_EQ(*sliceShape(S({0}), S({-1}), S({INT64_MIN}), {}, S({-1})), S({0}));
}

TEST(ShapeFunctions, SqueezeUnsqueezeTranspose) {
  EXPECT_EQ(*squeezeShape(S({1, 3, 1}), {}), S({3}));
  EXPECT_EQ(*squeezeShape(S({1, 3, 1}), S({-1})), S({1, 3}));
  EXPECT_TRUE(failed(squeezeShape(S({1, 3}), S({1}))));
  EXPECT_EQ(*unsqueezeShape(S({3, 4}), S({0, -1})), S({1, 3, 4, 1}));
  EXPECT_EQ(*unsqueezeShape(S({}), S({0})), S({1}));
  EXPECT_EQ(*transposeShape(S({2, 3, 4}), {}), S({4, 3, 2}));
  EXPECT_EQ(*transposeShape(S({2, 3, 4}), S({1, 2, 0})), S({3, 4, 2}));
  EXPECT_TRUE(failed(transposeShape(S({2, 3}), S({1, 1}))));
}

TEST(ShapeFunctions, GatherAndConcat) {
  EXPECT_EQ(gatherShape(S({5, 6, 7}), S({2, 3}), 1), S({5, 2, 3, 7}));
  EXPECT_EQ(gatherShape(S({5}), S({}), 0), S({}));
  Shape a = S({2, 3}), b = S({2, 5}), c = S({kDyn, 1});
  ArrayRef<int64_t> inputs[] = {a, b, c};
  EXPECT_EQ(*concatShape(inputs, 1), S({2, 9}));
  Shape d = S({3, 3});
  ArrayRef<int64_t> bad[] = {a, d};
  EXPECT_TRUE(failed(concatShape(bad, 1)));
  EXPECT_EQ(formatShape(S({2, kDyn})), "[2, ?]");
}
} // namespace
