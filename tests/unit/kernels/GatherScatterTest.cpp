//===- GatherScatterTest.cpp - gather/scatter elements and ND, max_unpool ===//

#include "tests/unit/kernels/KernelTestUtil.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

om::OpDef gatherElements(const HostTensor &data, const HostTensor &indices,
                         int64_t axis) {
  return OpBuilder("gather_elements", "ge")
      .input(data)
      .input(indices)
      .output(data.desc.dtype(), indices.shape())
      .attr("axis", axis);
}

om::OpDef scatter(const char *type, const HostTensor &data,
                  const HostTensor &indices, const HostTensor &updates,
                  const char *reduction = "none") {
  return OpBuilder(type, "sc")
      .input(data)
      .input(indices)
      .input(updates)
      .output(data.desc.dtype(), data.shape())
      .attr("reduction", reduction);
}

/// The status of running `op` once on `in`.
rt::Status runStatus(const om::OpDef &op, const std::vector<HostTensor> &in) {
  rt::Status st;
  runOp(op, in, 2, false, &st);
  return st;
}

} // namespace

TEST(GatherScatterTest, GatherElementsAlongEitherAxis) {
  auto data = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto idx = tensor<int64_t>({2, 2}, {0, 0, 1, 0});
  EXPECT_EQ(runAll<float>(gatherElements(data, idx, 1), {data, idx}),
            (std::vector<float>{1, 1, 4, 3}));
  auto data3 = tensor<int32_t>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto idx3 = tensor<int32_t>({2, 3}, {1, 2, 0, 2, 0, 0});
  EXPECT_EQ(runAll<int32_t>(gatherElements(data3, idx3, 0), {data3, idx3}),
            (std::vector<int32_t>{4, 8, 3, 7, 2, 3}));
}

TEST(GatherScatterTest, GatherElementsNegativeIndicesAndSmallerIndexDims) {
  auto data = tensor<float>({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto idx = tensor<int64_t>({2, 3}, {-1, -2, 0, -2, 0, 0});
  EXPECT_EQ(runAll<float>(gatherElements(data, idx, 0), {data, idx}),
            (std::vector<float>{7, 5, 3, 4, 2, 3}));
  // Indices narrower than data along a non-axis dim read its first columns.
  auto narrow = tensor<int64_t>({3, 1}, {2, 0, 1});
  EXPECT_EQ(runAll<float>(gatherElements(data, narrow, -1), {data, narrow}),
            (std::vector<float>{3, 4, 8}));
}

TEST(GatherScatterTest, GatherElementsRejectsAnIndexOutOfRange) {
  auto data = tensor<float>({2, 2}, {1, 2, 3, 4});
  auto idx = tensor<int64_t>({1, 2}, {0, 2});
  rt::Status st = runStatus(gatherElements(data, idx, 0), {data, idx});
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'ge' (gather_elements): index 2 is out "
                              "of range for a dim of size 2"),
            std::string::npos)
      << st.message();
}

TEST(GatherScatterTest, ScatterElementsAssignsAlongAxis0) {
  auto data = tensor<float>({3, 3}, std::vector<float>(9, 0));
  auto idx = tensor<int64_t>({2, 3}, {1, 0, 2, 0, 2, 1});
  auto upd = tensor<float>({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f});
  om::OpDef op = scatter("scatter_elements", data, idx, upd);
  EXPECT_EQ(runAll<float>(op, {data, idx, upd}),
            (std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
}

TEST(GatherScatterTest, ScatterElementsReductions) {
  auto data = tensor<float>({1, 5}, {1, 2, 3, 4, 5});
  auto idx = tensor<int64_t>({1, 3}, {1, -4, 3});
  auto upd = tensor<float>({1, 3}, {1.5f, 2.0f, 10.0f});
  auto build = [&](const char *reduction) {
    om::OpDef op = scatter("scatter_elements", data, idx, upd, reduction);
    (*op.mutable_attr())["axis"].set_i(1);
    return op;
  };
  // Index -4 is 1 again: duplicates combine in index order.
  EXPECT_EQ(runAll<float>(build("add"), {data, idx, upd}),
            (std::vector<float>{1, 5.5f, 3, 14, 5}));
  EXPECT_EQ(runAll<float>(build("mul"), {data, idx, upd}),
            (std::vector<float>{1, 6, 3, 40, 5}));
  EXPECT_EQ(runAll<float>(build("max"), {data, idx, upd}),
            (std::vector<float>{1, 2, 3, 10, 5}));
  EXPECT_EQ(runAll<float>(build("min"), {data, idx, upd}),
            (std::vector<float>{1, 1.5f, 3, 4, 5}));
  // Plain assignment: the last update of a duplicate wins.
  EXPECT_EQ(runAll<float>(build("none"), {data, idx, upd}),
            (std::vector<float>{1, 2, 3, 10, 5}));
}

TEST(GatherScatterTest, ScatterElementsLeavesColumnsOutsideTheIndices) {
  // indices [1, 2] on data [3, 3] along axis 0: only columns 0 and 1 change.
  auto data = tensor<int64_t>({3, 3}, {1, 1, 1, 1, 1, 1, 1, 1, 1});
  auto idx = tensor<int64_t>({1, 2}, {2, 0});
  auto upd = tensor<int64_t>({1, 2}, {7, 8});
  om::OpDef op = scatter("scatter_elements", data, idx, upd, "mul");
  EXPECT_EQ(runAll<int64_t>(op, {data, idx, upd}),
            (std::vector<int64_t>{1, 8, 1, 1, 1, 1, 7, 1, 1}));
}

TEST(GatherScatterTest, GatherNDPicksElementsAndSlices) {
  auto data = tensor<int32_t>({2, 2}, {0, 1, 2, 3});
  auto pairs = tensor<int64_t>({2, 2}, {0, 0, 1, 1});
  om::OpDef op =
      OpBuilder("gather_nd").input(data).input(pairs).output(om::DT_INT32, {2});
  EXPECT_EQ(runAll<int32_t>(op, {data, pairs}), (std::vector<int32_t>{0, 3}));
  auto rows = tensor<int64_t>({2, 1}, {1, -2});
  om::OpDef sliceOp = OpBuilder("gather_nd")
                          .input(data)
                          .input(rows)
                          .output(om::DT_INT32, {2, 2});
  EXPECT_EQ(runAll<int32_t>(sliceOp, {data, rows}),
            (std::vector<int32_t>{2, 3, 0, 1}));
}

TEST(GatherScatterTest, GatherNDWithBatchDims) {
  auto data = tensor<float>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto idx = tensor<int64_t>({2, 1}, {1, 0});
  om::OpDef op = OpBuilder("gather_nd")
                     .input(data)
                     .input(idx)
                     .output(om::DT_FLOAT, {2, 2})
                     .attr("batch_dims", 1);
  EXPECT_EQ(runAll<float>(op, {data, idx}), (std::vector<float>{2, 3, 4, 5}));
}

TEST(GatherScatterTest, ScatterNDAssignsSlices) {
  auto data = tensor<float>({8}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto idx = tensor<int64_t>({4, 1}, {4, 3, 1, 7});
  auto upd = tensor<float>({4}, {9, 10, 11, 12});
  EXPECT_EQ(
      runAll<float>(scatter("scatter_nd", data, idx, upd), {data, idx, upd}),
      (std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));
  auto grid = tensor<int32_t>({2, 3}, {1, 1, 1, 1, 1, 1});
  auto row = tensor<int64_t>({1, 1}, {-1});
  auto rowUpd = tensor<int32_t>({1, 3}, {4, 5, 6});
  EXPECT_EQ(runAll<int32_t>(scatter("scatter_nd", grid, row, rowUpd),
                            {grid, row, rowUpd}),
            (std::vector<int32_t>{1, 1, 1, 4, 5, 6}));
}

TEST(GatherScatterTest, ScatterNDReductionsCombineDuplicates) {
  auto data = tensor<int64_t>({3}, {1, 2, 3});
  auto idx = tensor<int64_t>({3, 1}, {0, 0, 2});
  auto upd = tensor<int64_t>({3}, {10, 20, 30});
  EXPECT_EQ(runAll<int64_t>(scatter("scatter_nd", data, idx, upd, "add"),
                            {data, idx, upd}),
            (std::vector<int64_t>{31, 2, 33}));
  EXPECT_EQ(runAll<int64_t>(scatter("scatter_nd", data, idx, upd, "mul"),
                            {data, idx, upd}),
            (std::vector<int64_t>{200, 2, 90}));
}

TEST(GatherScatterTest, ScatterNDRejectsAnIndexOutOfRange) {
  auto data = tensor<float>({3}, {1, 2, 3});
  auto idx = tensor<int64_t>({1, 1}, {3});
  auto upd = tensor<float>({1}, {0});
  rt::Status st =
      runStatus(scatter("scatter_nd", data, idx, upd), {data, idx, upd});
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("index 3 is out of range"), std::string::npos)
      << st.message();
}

TEST(GatherScatterTest, MaxUnpoolPlacesValuesAtPoolingIndices) {
  auto x = tensor<float>({1, 1, 2, 2}, {5, 6, 7, 8});
  auto idx = tensor<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15});
  om::OpDef op = OpBuilder("max_unpool")
                     .input(x)
                     .input(idx)
                     .output(om::DT_FLOAT, {1, 1, 4, 4})
                     .attrInts("kernel_shape", {2, 2})
                     .attrInts("strides", {2, 2});
  EXPECT_EQ(
      runAll<float>(op, {x, idx}),
      (std::vector<float>{0, 0, 0, 0, 0, 5, 0, 6, 0, 0, 0, 0, 0, 7, 0, 8}));
}

TEST(GatherScatterTest, MaxUnpoolIntoALargerOutputShape) {
  // The indices address the unpooled 4 x 4; output_shape pads it to 5 x 5.
  auto x = tensor<float>({1, 1, 2, 2}, {5, 6, 7, 8});
  auto idx = tensor<int64_t>({1, 1, 2, 2}, {5, 7, 13, 15});
  auto shape = tensor<int64_t>({4}, {1, 1, 5, 5});
  om::OpDef op = OpBuilder("max_unpool")
                     .input(x)
                     .input(idx)
                     .input(shape)
                     .output(om::DT_FLOAT, {1, 1, 5, 5})
                     .attrInts("kernel_shape", {2, 2})
                     .attrInts("strides", {2, 2});
  std::vector<float> want(25, 0);
  want[6] = 5;
  want[8] = 6;
  want[16] = 7;
  want[18] = 8;
  EXPECT_EQ(runAll<float>(op, {x, idx, shape}), want);
}
