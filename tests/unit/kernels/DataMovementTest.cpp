//===- DataMovementTest.cpp - reshape, slice, gather, pad, concat, ...
//-------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

std::vector<float> iota(int64_t n) {
  std::vector<float> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = static_cast<float>(i);
  return v;
}

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

} // namespace

TEST(DataMovementTest, ReshapeLikesCopyBytes) {
  auto x = tensor<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto shape = tensor<int64_t>({2}, {3, 2});
  for (const char *type : {"reshape", "flatten", "squeeze", "unsqueeze"}) {
    om::OpDef op =
        OpBuilder(type).input(x).input(shape).output(om::DT_INT64, {3, 2});
    EXPECT_EQ(runAll<int64_t>(op, {x, shape}),
              (std::vector<int64_t>{1, 2, 3, 4, 5, 6}))
        << type;
  }
}

TEST(DataMovementTest, DropoutCopiesAndMaskIsTrue) {
  auto x = tensor<float>({5}, {1, 2, 3, 4, 5});
  om::OpDef op = OpBuilder("dropout")
                     .input(x)
                     .output(om::DT_FLOAT, {5})
                     .output(om::DT_BOOL, {5});
  for (uint32_t blocks : kBlockDims) {
    auto out = runOp(op, {x}, blocks);
    EXPECT_EQ(out[0].values<float>(), (std::vector<float>{1, 2, 3, 4, 5}));
    EXPECT_EQ(out[1].bytes, (std::vector<uint8_t>{1, 1, 1, 1, 1}));
  }
}

TEST(DataMovementTest, DropoutRefusesTrainingMode) {
  auto x = tensor<float>({2}, {1, 2});
  auto ratio = tensor<float>({}, {0.5f});
  auto training = boolTensor({}, {1});
  om::OpDef op = OpBuilder("dropout", "d")
                     .input(x)
                     .input(ratio)
                     .input(training)
                     .output(om::DT_FLOAT, {2})
                     .output(om::DT_BOOL, {2});
  for (bool constants : {false, true}) {
    rt::Status st;
    runOp(op, {x, ratio, training}, 1, constants, &st);
    ASSERT_FALSE(st.isOk());
    EXPECT_NE(st.message().find("node 'd' (dropout): training_mode"),
              std::string::npos)
        << st.message();
  }
  auto inference = boolTensor({}, {0});
  EXPECT_EQ(runOp(op, {x, ratio, inference}, 3)[0].values<float>(),
            (std::vector<float>{1, 2}));
  // Training with ratio 0 is the identity.
  auto zero = tensor<float>({}, {0.0f});
  for (bool constants : {false, true})
    EXPECT_EQ(runOp(op, {x, zero, training}, 3, constants)[0].values<float>(),
              (std::vector<float>{1, 2}));
}

TEST(DataMovementTest, TransposeDefaultAndExplicitPerm) {
  auto x = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  om::OpDef rev = OpBuilder("transpose").input(x).output(om::DT_FLOAT, {3, 2});
  EXPECT_EQ(runAll<float>(rev, {x}), (std::vector<float>{1, 4, 2, 5, 3, 6}));

  // A larger 3-D case against a direct loop: out[c][a][b] = x[a][b][c].
  const int64_t A = 3, B = 50, C = 70;
  auto big = tensor<float>({A, B, C}, iota(A * B * C));
  om::OpDef op = OpBuilder("transpose")
                     .input(big)
                     .attrInts("perm", {2, 0, 1})
                     .output(om::DT_FLOAT, {C, A, B});
  std::vector<float> expected;
  for (int64_t c = 0; c < C; ++c)
    for (int64_t a = 0; a < A; ++a)
      for (int64_t b = 0; b < B; ++b)
        expected.push_back(static_cast<float>((a * B + b) * C + c));
  EXPECT_EQ(runAll<float>(op, {big}), expected);
}

/// `perm` of a tensor of `shape` holding 0, 1, 2, ... as T, against the
/// element-by-element definition, under each ISA (the tiled 2-D transposes
/// and the gather).
template <class T>
void expectTransposeUnderEachIsa(const std::vector<int64_t> &shape,
                                 const std::vector<int64_t> &perm,
                                 om::DataType dtype) {
  SCOPED_TRACE("perm of rank " + std::to_string(shape.size()) + ", " +
               std::to_string(shape[perm.back()]) + " innermost");
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<T> values(n);
  for (int64_t i = 0; i < n; ++i)
    values[i] = static_cast<T>(i);
  HostTensor x = tensor<T>(shape, values);
  std::vector<int64_t> outShape, strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  for (int64_t p : perm)
    outShape.push_back(shape[p]);
  std::vector<T> expected(n);
  for (int64_t o = 0; o < n; ++o) {
    int64_t rest = o, offset = 0;
    for (int64_t d = rank - 1; d >= 0; --d) {
      offset += rest % outShape[d] * strides[perm[d]];
      rest /= outShape[d];
    }
    expected[o] = values[offset];
  }
  om::OpDef op = OpBuilder("transpose")
                     .input(x)
                     .attrInts("perm", perm)
                     .output(dtype, outShape);
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    EXPECT_EQ(runAll<T>(op, {x}), expected) << scope.name();
  }
}

TEST(DataMovementTest, TransposeTilesMatchTheDefinition) {
  // NCHW -> NHWC and back, channels and positions off the 16- and 8-wide
  // tiles, blocks whose ranges start inside a row.
  expectTransposeUnderEachIsa<float>({1, 96, 15, 17}, {0, 2, 3, 1},
                                     om::DT_FLOAT);
  expectTransposeUnderEachIsa<float>({2, 9, 10, 48}, {0, 3, 1, 2},
                                     om::DT_FLOAT);
  // More input rows than one work item's chunk (kTransposeChunk).
  expectTransposeUnderEachIsa<float>({1, 20, 17, 23}, {0, 3, 1, 2},
                                     om::DT_FLOAT);
  // A unit dim among them; int32 moves as 4-byte elements too.
  expectTransposeUnderEachIsa<float>({2, 3, 1, 37, 49}, {0, 2, 4, 1, 3},
                                     om::DT_FLOAT);
  expectTransposeUnderEachIsa<int32_t>({100, 120}, {1, 0}, om::DT_INT32);
  // Not a 2-D transpose: the gather.
  expectTransposeUnderEachIsa<float>({4, 5, 6, 7}, {3, 1, 2, 0}, om::DT_FLOAT);
  // No elements: nothing written (a 2-D transpose once the empty dim went).
  expectTransposeUnderEachIsa<float>({0, 3, 4}, {0, 2, 1}, om::DT_FLOAT);
}

TEST(DataMovementTest, SliceOnnxExamples) {
  auto x = tensor<float>({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto starts = tensor<int64_t>({2}, {1, 0});
  auto ends = tensor<int64_t>({2}, {2, 3});
  auto axes = tensor<int64_t>({2}, {0, 1});
  auto steps = tensor<int64_t>({2}, {1, 2});
  om::OpDef op = OpBuilder("slice")
                     .input(x)
                     .input(starts)
                     .input(ends)
                     .input(axes)
                     .input(steps)
                     .output(om::DT_FLOAT, {1, 2});
  EXPECT_EQ(runAll<float>(op, {x, starts, ends, axes, steps}),
            (std::vector<float>{5, 7}));

  // Default axes and steps; end clamped.
  auto s2 = tensor<int64_t>({2}, {0, 1});
  auto e2 = tensor<int64_t>({2}, {-1, 1000});
  om::OpDef op2 = OpBuilder("slice").input(x).input(s2).input(e2).output(
      om::DT_FLOAT, {1, 3});
  EXPECT_EQ(runAll<float>(op2, {x, s2, e2}), (std::vector<float>{2, 3, 4}));
}

TEST(DataMovementTest, SliceNegativeStepsAndAxes) {
  auto x = tensor<int32_t>({5}, {1, 2, 3, 4, 5});
  auto s = tensor<int64_t>({1}, {-1});
  auto e = tensor<int64_t>({1}, {kMin});
  auto st = tensor<int64_t>({1}, {-1});
  auto ax = tensor<int64_t>({1}, {-1});
  om::OpDef rev =
      OpBuilder("slice").input(x).input(s).input(e).input(ax).input(st).output(
          om::DT_INT32, {5});
  EXPECT_EQ(runAll<int32_t>(rev, {x, s, e, ax, st}),
            (std::vector<int32_t>{5, 4, 3, 2, 1}));

  // Columns 2 and 0 of a 2x3, by step -2 from kMax (clamped to the last).
  auto m = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto s2 = tensor<int64_t>({1}, {kMax});
  auto e2 = tensor<int64_t>({1}, {-4});
  auto a2 = tensor<int64_t>({1}, {1});
  auto st2 = tensor<int64_t>({1}, {-2});
  om::OpDef op = OpBuilder("slice")
                     .input(m)
                     .input(s2)
                     .input(e2)
                     .input(a2)
                     .input(st2)
                     .output(om::DT_FLOAT, {2, 2});
  EXPECT_EQ(runAll<float>(op, {m, s2, e2, a2, st2}),
            (std::vector<float>{3, 1, 6, 4}));

  // Absent axes with steps present.
  om::OpDef op3 = OpBuilder("slice")
                      .input(x)
                      .input(s)
                      .input(e)
                      .absentInput()
                      .input(st)
                      .output(om::DT_INT32, {5});
  EXPECT_EQ(runAll<int32_t>(op3, {x, s, e, HostTensor(), st}),
            (std::vector<int32_t>{5, 4, 3, 2, 1}));
}

TEST(DataMovementTest, GatherNegativeIndicesAndAxes) {
  auto data = tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  auto idx = tensor<int64_t>({2}, {-1, 0});
  om::OpDef op =
      OpBuilder("gather").input(data).input(idx).output(om::DT_FLOAT, {2, 2});
  EXPECT_EQ(runAll<float>(op, {data, idx}), (std::vector<float>{5, 6, 1, 2}));

  auto d2 = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  auto i2 = tensor<int32_t>({1, 2}, {0, 2});
  om::OpDef op2 = OpBuilder("gather")
                      .input(d2)
                      .input(i2)
                      .attr("axis", -1)
                      .output(om::DT_FLOAT, {2, 1, 2});
  EXPECT_EQ(runAll<float>(op2, {d2, i2}), (std::vector<float>{1, 3, 4, 6}));

  auto bad = tensor<int64_t>({1}, {3});
  rt::Status st;
  om::OpDef op3 = OpBuilder("gather", "g")
                      .input(data)
                      .input(bad)
                      .output(om::DT_FLOAT, {1, 2});
  runOp(op3, {data, bad}, 1, false, &st);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'g' (gather)"), std::string::npos)
      << st.message();
}

TEST(DataMovementTest, PadModes) {
  auto x = tensor<float>({3, 2}, {1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f});
  auto pads = tensor<int64_t>({4}, {0, 2, 0, 0});
  auto run = [&](const char *mode) {
    om::OpDef op = OpBuilder("pad")
                       .input(x)
                       .input(pads)
                       .attr("mode", mode)
                       .output(om::DT_FLOAT, {3, 4});
    return runAll<float>(op, {x, pads});
  };
  EXPECT_EQ(run("constant"), (std::vector<float>{0, 0, 1.0f, 1.2f, 0, 0, 2.3f,
                                                 3.4f, 0, 0, 4.5f, 5.7f}));
  EXPECT_EQ(run("reflect"),
            (std::vector<float>{1.0f, 1.2f, 1.0f, 1.2f, 2.3f, 3.4f, 2.3f, 3.4f,
                                4.5f, 5.7f, 4.5f, 5.7f}));
  EXPECT_EQ(run("edge"),
            (std::vector<float>{1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f,
                                4.5f, 4.5f, 4.5f, 5.7f}));

  auto v = tensor<int64_t>({4}, {1, 2, 3, 4});
  auto p1 = tensor<int64_t>({2}, {3, 3});
  om::OpDef refl = OpBuilder("pad")
                       .input(v)
                       .input(p1)
                       .attr("mode", "reflect")
                       .output(om::DT_INT64, {10});
  EXPECT_EQ(runAll<int64_t>(refl, {v, p1}),
            (std::vector<int64_t>{4, 3, 2, 1, 2, 3, 4, 3, 2, 1}));

  // A constant value, axes, and a negative pad (crop).
  auto cv = tensor<int64_t>({}, {7});
  auto p2 = tensor<int64_t>({2}, {-1, 2});
  auto ax = tensor<int64_t>({1}, {-1});
  om::OpDef withValue =
      OpBuilder("pad").input(v).input(p2).input(cv).input(ax).output(
          om::DT_INT64, {5});
  EXPECT_EQ(runAll<int64_t>(withValue, {v, p2, cv, ax}),
            (std::vector<int64_t>{2, 3, 4, 7, 7}));
}

TEST(DataMovementTest, TileAndExpand) {
  auto x = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto reps = tensor<int64_t>({2}, {2, 2});
  om::OpDef tile =
      OpBuilder("tile").input(x).input(reps).output(om::DT_FLOAT, {4, 4});
  EXPECT_EQ(
      runAll<float>(tile, {x, reps}),
      (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4, 1, 2, 1, 2, 3, 4, 3, 4}));

  auto col = tensor<int32_t>({3, 1}, {1, 2, 3});
  auto shape = tensor<int64_t>({3}, {2, 1, 2});
  om::OpDef expand = OpBuilder("expand").input(col).input(shape).output(
      om::DT_INT32, {2, 3, 2});
  EXPECT_EQ(runAll<int32_t>(expand, {col, shape}),
            (std::vector<int32_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
}

TEST(DataMovementTest, ConcatAndSplit) {
  auto a = tensor<int64_t>({2, 1}, {1, 2});
  auto b = tensor<int64_t>({2, 2}, {3, 4, 5, 6});
  om::OpDef cat = OpBuilder("concat")
                      .input(a)
                      .input(b)
                      .attr("axis", -1)
                      .output(om::DT_INT64, {2, 3});
  EXPECT_EQ(runAll<int64_t>(cat, {a, b}),
            (std::vector<int64_t>{1, 3, 4, 2, 5, 6}));
  om::OpDef cat0 = OpBuilder("concat").input(b).input(b).attr("axis", 0).output(
      om::DT_INT64, {4, 2});
  EXPECT_EQ(runAll<int64_t>(cat0, {b, b}),
            (std::vector<int64_t>{3, 4, 5, 6, 3, 4, 5, 6}));

  auto x = tensor<float>({2, 6}, iota(12));
  auto parts = tensor<int64_t>({3}, {1, 0, 5});
  om::OpDef split = OpBuilder("split")
                        .input(x)
                        .input(parts)
                        .attr("axis", 1)
                        .output(om::DT_FLOAT, {2, 1})
                        .output(om::DT_FLOAT, {2, 0})
                        .output(om::DT_FLOAT, {2, 5});
  EXPECT_EQ(runAll<float>(split, {x, parts}, 0), (std::vector<float>{0, 6}));
  EXPECT_EQ(runAll<float>(split, {x, parts}, 2),
            (std::vector<float>{1, 2, 3, 4, 5, 7, 8, 9, 10, 11}));
  om::OpDef equal = OpBuilder("split")
                        .input(x)
                        .output(om::DT_FLOAT, {1, 6})
                        .output(om::DT_FLOAT, {1, 6});
  EXPECT_EQ(runAll<float>(equal, {x}, 1),
            (std::vector<float>{6, 7, 8, 9, 10, 11}));
}

TEST(DataMovementTest, ShapeConstantOfShapeRange) {
  auto x = tensor<float>({2, 3, 4, 5}, std::vector<float>(120, 0));
  om::OpDef shape = OpBuilder("shape")
                        .input(x)
                        .attr("start", 1)
                        .attr("end", -1)
                        .output(om::DT_INT64, {2});
  EXPECT_EQ(runAll<int64_t>(shape, {x}), (std::vector<int64_t>{3, 4}));
  om::OpDef all = OpBuilder("shape").input(x).output(om::DT_INT64, {4});
  EXPECT_EQ(runAll<int64_t>(all, {x}), (std::vector<int64_t>{2, 3, 4, 5}));

  auto dims = tensor<int64_t>({2}, {2, 3});
  om::OpDef zeros =
      OpBuilder("constant_of_shape").input(dims).output(om::DT_FLOAT, {2, 3});
  EXPECT_EQ(runAll<float>(zeros, {dims}), std::vector<float>(6, 0.0f));
  om::OpDef sevens = OpBuilder("constant_of_shape")
                         .input(dims)
                         .attrTensor("value", tensor<int64_t>({1}, {7}))
                         .output(om::DT_INT64, {2, 3});
  EXPECT_EQ(runAll<int64_t>(sevens, {dims}), std::vector<int64_t>(6, 7));

  auto fs = tensor<float>({}, {1}), fl = tensor<float>({}, {2}),
       fd = tensor<float>({}, {0.25f});
  om::OpDef fr = OpBuilder("range").input(fs).input(fl).input(fd).output(
      om::DT_FLOAT, {4});
  EXPECT_EQ(runAll<float>(fr, {fs, fl, fd}),
            (std::vector<float>{1, 1.25f, 1.5f, 1.75f}));
  auto is = tensor<int32_t>({}, {10}), il = tensor<int32_t>({}, {6}),
       id = tensor<int32_t>({}, {-3});
  om::OpDef ir = OpBuilder("range").input(is).input(il).input(id).output(
      om::DT_INT32, {2});
  EXPECT_EQ(runAll<int32_t>(ir, {is, il, id}), (std::vector<int32_t>{10, 7}));
}
