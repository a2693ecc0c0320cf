//===- IndexLayoutTest.cpp - depth/space, reverse_sequence, trilu, eye_like,
// one_hot ---------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

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

om::OpDef trilu(const HostTensor &x, int64_t upper, const HostTensor *k) {
  OpBuilder b("trilu");
  b.input(x);
  if (k)
    b.input(*k);
  return b.output(x.desc.dtype(), x.shape()).attr("upper", upper);
}

} // namespace

TEST(IndexLayoutTest, DepthToSpaceBothModes) {
  auto x = tensor<float>({1, 8, 1, 1}, iota(8));
  om::OpDef dcr = OpBuilder("depth_to_space")
                      .input(x)
                      .output(om::DT_FLOAT, {1, 2, 2, 2})
                      .attr("blocksize", 2);
  EXPECT_EQ(runAll<float>(dcr, {x}),
            (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
  om::OpDef crd = dcr;
  (*crd.mutable_attr())["mode"].set_s("CRD");
  EXPECT_EQ(runAll<float>(crd, {x}),
            (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(IndexLayoutTest, DepthToSpaceDcrInterleavesPixels) {
  // [1, 4, 2, 2] -> [1, 1, 4, 4]: output (h*2 + i, w*2 + j) reads channel
  // i*2 + j at (h, w).
  auto x = tensor<int16_t>({1, 4, 2, 2}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21,
                                          22, 23, 30, 31, 32, 33});
  om::OpDef op = OpBuilder("depth_to_space")
                     .input(x)
                     .output(om::DT_INT16, {1, 1, 4, 4})
                     .attr("blocksize", 2);
  EXPECT_EQ(runAll<int16_t>(op, {x}),
            (std::vector<int16_t>{0, 10, 1, 11, 20, 30, 21, 31, 2, 12, 3, 13,
                                  22, 32, 23, 33}));
}

TEST(IndexLayoutTest, SpaceToDepthInvertsDepthToSpaceDcr) {
  auto x = tensor<float>({2, 8, 2, 3}, iota(96));
  om::OpDef d2s = OpBuilder("depth_to_space")
                      .input(x)
                      .output(om::DT_FLOAT, {2, 2, 4, 6})
                      .attr("blocksize", 2);
  auto space = tensor<float>({2, 2, 4, 6}, runAll<float>(d2s, {x}));
  om::OpDef s2d = OpBuilder("space_to_depth")
                      .input(space)
                      .output(om::DT_FLOAT, {2, 8, 2, 3})
                      .attr("blocksize", 2);
  EXPECT_EQ(runAll<float>(s2d, {space}), iota(96));
  // One 2 x 2 image to four channels.
  auto small = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  om::OpDef one = OpBuilder("space_to_depth")
                      .input(small)
                      .output(om::DT_FLOAT, {1, 4, 1, 1})
                      .attr("blocksize", 2);
  EXPECT_EQ(runAll<float>(one, {small}), (std::vector<float>{1, 2, 3, 4}));
}

TEST(IndexLayoutTest, ReverseSequenceAlongTimeAndBatch) {
  auto x = tensor<float>({4, 4}, iota(16));
  auto lens = tensor<int64_t>({4}, {4, 3, 2, 1});
  om::OpDef time = OpBuilder("reverse_sequence")
                       .input(x)
                       .input(lens)
                       .output(om::DT_FLOAT, {4, 4})
                       .attr("batch_axis", 1)
                       .attr("time_axis", 0);
  EXPECT_EQ(runAll<float>(time, {x, lens}),
            (std::vector<float>{12, 9, 6, 3, 8, 5, 2, 7, 4, 1, 10, 11, 0, 13,
                                14, 15}));
  auto lens2 = tensor<int64_t>({4}, {1, 2, 3, 0});
  om::OpDef batch = OpBuilder("reverse_sequence")
                        .input(x)
                        .input(lens2)
                        .output(om::DT_FLOAT, {4, 4})
                        .attr("batch_axis", 0)
                        .attr("time_axis", 1);
  EXPECT_EQ(runAll<float>(batch, {x, lens2}),
            (std::vector<float>{0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 12, 13,
                                14, 15}));
}

TEST(IndexLayoutTest, ReverseSequenceRejectsALengthBeyondTime) {
  auto x = tensor<float>({2, 2}, iota(4));
  auto lens = tensor<int64_t>({2}, {3, 1});
  om::OpDef op = OpBuilder("reverse_sequence", "rs")
                     .input(x)
                     .input(lens)
                     .output(om::DT_FLOAT, {2, 2});
  rt::Status st;
  runOp(op, {x, lens}, 1, false, &st);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("sequence_lens[0] = 3 is outside [0, 2]"),
            std::string::npos)
      << st.message();
}

TEST(IndexLayoutTest, TriluUpperAndLowerWithK) {
  std::vector<int64_t> v(12);
  for (int i = 0; i < 12; ++i)
    v[i] = i + 1;
  auto x = tensor<int64_t>({3, 4}, v);
  EXPECT_EQ(runAll<int64_t>(trilu(x, 1, nullptr), {x}),
            (std::vector<int64_t>{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12}));
  auto km1 = tensor<int64_t>({}, {-1});
  EXPECT_EQ(runAll<int64_t>(trilu(x, 0, &km1), {x, km1}),
            (std::vector<int64_t>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}));
  auto k2 = tensor<int64_t>({}, {2});
  EXPECT_EQ(runAll<int64_t>(trilu(x, 1, &k2), {x, k2}),
            (std::vector<int64_t>{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0}));
  // k beyond the matrix: everything or nothing.
  auto k9 = tensor<int64_t>({}, {9});
  EXPECT_EQ(runAll<int64_t>(trilu(x, 1, &k9), {x, k9}),
            std::vector<int64_t>(12, 0));
  EXPECT_EQ(runAll<int64_t>(trilu(x, 0, &k9), {x, k9}), v);
}

TEST(IndexLayoutTest, TriluIsBatchedOverLeadingDims) {
  auto x = tensor<float>({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(runAll<float>(trilu(x, 0, nullptr), {x}),
            (std::vector<float>{1, 0, 3, 4, 5, 0, 7, 8}));
  // An empty matrix dim runs nothing.
  auto empty = tensor<float>({3, 0, 5}, {});
  EXPECT_TRUE(runAll<float>(trilu(empty, 1, nullptr), {empty}).empty());
}

TEST(IndexLayoutTest, EyeLikeOnAnyDiagonalAndDtype) {
  auto x = tensor<int32_t>({3, 4}, std::vector<int32_t>(12, 7));
  om::OpDef up =
      OpBuilder("eye_like").input(x).output(om::DT_DOUBLE, {3, 4}).attr("k", 1);
  EXPECT_EQ(runAll<double>(up, {x}),
            (std::vector<double>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
  om::OpDef down =
      OpBuilder("eye_like").input(x).output(om::DT_INT32, {3, 4}).attr("k", -2);
  EXPECT_EQ(runAll<int32_t>(down, {x}),
            (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0}));
  om::OpDef flags = OpBuilder("eye_like").input(x).output(om::DT_BOOL, {3, 4});
  auto out = runOp(flags, {x}, 2);
  EXPECT_EQ(out[0].bytes,
            (std::vector<uint8_t>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
}

TEST(IndexLayoutTest, OneHotLastAxisWithNegativeAndOutOfRangeIndices) {
  auto idx = tensor<float>({4}, {0, -1, 7, 2.7f});
  auto depth = tensor<int64_t>({}, {3});
  auto values = tensor<float>({2}, {-1, 5});
  om::OpDef op =
      OpBuilder("one_hot").input(idx).input(depth).input(values).output(
          om::DT_FLOAT, {4, 3});
  // -1 counts from depth's end; 7 matches nothing; 2.7 truncates to 2.
  EXPECT_EQ(runAll<float>(op, {idx, depth, values}),
            (std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, -1, -1, -1, 5}));
}

TEST(IndexLayoutTest, OneHotInsertsTheDepthDimAtAxis) {
  auto idx = tensor<int32_t>({2, 2}, {1, 0, 2, 1});
  auto depth = tensor<int64_t>({}, {3});
  auto values = tensor<int64_t>({2}, {0, 1});
  om::OpDef op = OpBuilder("one_hot")
                     .input(idx)
                     .input(depth)
                     .input(values)
                     .output(om::DT_INT64, {2, 3, 2})
                     .attr("axis", 1);
  // out[i, d, j] = idx[i, j] == d.
  EXPECT_EQ(runAll<int64_t>(op, {idx, depth, values}),
            (std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0}));
}
