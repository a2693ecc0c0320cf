//===- SamplingTest.cpp - grid_sample and roi_align -----------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// grid_sample of `x` ([1, 1, H, W]) at the (x, y) points of `grid`.
std::vector<float> gridSample(const HostTensor &x,
                              const std::vector<float> &points,
                              const char *mode, const char *padding,
                              int64_t alignCorners) {
  int64_t n = static_cast<int64_t>(points.size()) / 2;
  auto grid = tensor<float>({1, 1, n, 2}, points);
  om::OpDef op = OpBuilder("grid_sample")
                     .input(x)
                     .input(grid)
                     .output(om::DT_FLOAT, {1, x.shape()[1], 1, n})
                     .attr("mode", mode)
                     .attr("padding_mode", padding)
                     .attr("align_corners", alignCorners);
  return runAll<float>(op, {x, grid});
}

om::OpDef roiAlign(const HostTensor &x, const HostTensor &rois,
                   const HostTensor &batch, int64_t outH, int64_t outW) {
  return OpBuilder("roi_align")
      .input(x)
      .input(rois)
      .input(batch)
      .output(om::DT_FLOAT, {rois.shape()[0], x.shape()[1], outH, outW})
      .attr("output_height", outH)
      .attr("output_width", outW);
}

} // namespace

TEST(SamplingTest, GridSampleBilinearInsideAndAtTheEdge) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  // (0, 0) is the image centre; (-1, -1) the outer corner of pixel (0, 0).
  EXPECT_EQ(gridSample(x, {0, 0, -1, -1}, "bilinear", "zeros", 0),
            (std::vector<float>{2.5f, 0.25f}));
  EXPECT_EQ(gridSample(x, {0, 0, -1, -1}, "bilinear", "border", 0),
            (std::vector<float>{2.5f, 1}));
  // With align_corners (-1, -1) is pixel (0, 0)'s centre.
  EXPECT_EQ(gridSample(x, {-1, -1, 1, 1}, "bilinear", "zeros", 1),
            (std::vector<float>{1, 4}));
}

TEST(SamplingTest, GridSamplePaddingModesOutsideTheImage) {
  // One row [1, 2, 3]; x = 2 lands at pixel coordinate 4 (align_corners 0).
  auto x = tensor<float>({1, 1, 1, 3}, {1, 2, 3});
  EXPECT_EQ(gridSample(x, {2, 0}, "bilinear", "zeros", 0),
            (std::vector<float>{0}));
  EXPECT_EQ(gridSample(x, {2, 0}, "bilinear", "border", 0),
            (std::vector<float>{3}));
  // Reflected at the border 2.5: 4 -> 1.
  EXPECT_EQ(gridSample(x, {2, 0}, "bilinear", "reflection", 0),
            (std::vector<float>{2}));
  EXPECT_EQ(gridSample(x, {2, 0}, "nearest", "reflection", 0),
            (std::vector<float>{2}));
}

TEST(SamplingTest, GridSampleNearestRoundsHalfToEven) {
  auto x = tensor<float>({1, 1, 1, 4}, {10, 20, 30, 40});
  // align_corners 1: x = -1/3 -> pixel 1.0; x = 0 -> 1.5 (to 2); x = -2/3
  // -> 0.5 (to 0).
  EXPECT_EQ(
      gridSample(x, {-1.0f / 3, 0, 0, 0, -2.0f / 3, 0}, "nearest", "zeros", 1),
      (std::vector<float>{20, 30, 10}));
}

TEST(SamplingTest, GridSampleBicubic) {
  auto x = tensor<float>({1, 1, 1, 4}, {1, 2, 3, 4});
  // At a pixel centre the cubic weights are (0, 1, 0, 0).
  expectNear(gridSample(x, {-1.0f / 3, 0}, "bicubic", "zeros", 1),
             std::vector<float>{2});
  // Between pixels: the cubic reproduces a linear ramp ...
  expectNear(gridSample(x, {0, 0}, "bicubic", "zeros", 1),
             std::vector<float>{2.5f});
  // ... and at x = 0.5 the tap at -1 reads the border pixel (1), not 0:
  // -0.09375 * 1 + 0.59375 * (1 + 2) - 0.09375 * 3.
  expectNear(gridSample(x, {-2.0f / 3, 0}, "bicubic", "border", 1),
             std::vector<float>{1.40625f});
  expectNear(gridSample(x, {-2.0f / 3, 0}, "bicubic", "zeros", 1),
             std::vector<float>{1.5f});
}

TEST(SamplingTest, GridSampleEveryChannelAndBatch) {
  auto x = tensor<double>({2, 2, 1, 2}, {1, 2, 10, 20, 3, 4, 30, 40});
  auto grid = tensor<double>({2, 1, 1, 2}, {-1, 0, 1, 0});
  om::OpDef op = OpBuilder("grid_sample")
                     .input(x)
                     .input(grid)
                     .output(om::DT_DOUBLE, {2, 2, 1, 1})
                     .attr("align_corners", int64_t{1});
  EXPECT_EQ(runAll<double>(op, {x, grid}), (std::vector<double>{1, 10, 4, 40}));
}

TEST(SamplingTest, RoiAlignAverageOfBilinearSamples) {
  // value = 4y + x is linear, so the average of bilinear samples is the
  // value at the bin's centre.
  std::vector<float> ramp(16);
  for (int i = 0; i < 16; ++i)
    ramp[i] = static_cast<float>(i);
  auto x = tensor<float>({1, 1, 4, 4}, ramp);
  auto rois = tensor<float>({1, 4}, {0, 0, 3, 3});
  auto batch = tensor<int64_t>({1}, {0});
  om::OpDef op = roiAlign(x, rois, batch, 1, 1);
  (*op.mutable_attr())["sampling_ratio"].set_i(2);
  (*op.mutable_attr())["coordinate_transformation_mode"].set_s(
      "output_half_pixel");
  expectNear(runAll<float>(op, {x, rois, batch}), std::vector<float>{7.5f});
  // half_pixel shifts the box by half a pixel: centre (1, 1).
  (*op.mutable_attr())["coordinate_transformation_mode"].set_s("half_pixel");
  expectNear(runAll<float>(op, {x, rois, batch}), std::vector<float>{5.0f});
}

TEST(SamplingTest, RoiAlignMaxTakesTheLargestWeightedCorner) {
  std::vector<float> ramp(16);
  for (int i = 0; i < 16; ++i)
    ramp[i] = static_cast<float>(i);
  auto x = tensor<float>({1, 1, 4, 4}, ramp);
  auto rois = tensor<float>({1, 4}, {0, 0, 3, 3});
  auto batch = tensor<int64_t>({1}, {0});
  om::OpDef op = roiAlign(x, rois, batch, 1, 1);
  (*op.mutable_attr())["sampling_ratio"].set_i(2);
  (*op.mutable_attr())["coordinate_transformation_mode"].set_s(
      "output_half_pixel");
  (*op.mutable_attr())["mode"].set_s("max");
  // Sample (2.25, 2.25): 0.5625 * x[2][2] = 5.625 beats the other corners
  // and samples.
  expectNear(runAll<float>(op, {x, rois, batch}), std::vector<float>{5.625f});
}

TEST(SamplingTest, RoiAlignBinsBatchesAndScale) {
  // Two images of constant value 1 and 2; the second roi reads image 1.
  std::vector<float> v(2 * 16);
  for (int i = 0; i < 32; ++i)
    v[i] = i < 16 ? 1.0f : 2.0f;
  auto x = tensor<float>({2, 1, 4, 4}, v);
  auto rois = tensor<float>({2, 4}, {0, 0, 6, 6, 2, 2, 8, 8});
  auto batch = tensor<int32_t>({2}, {0, 1});
  om::OpDef op = roiAlign(x, rois, batch, 2, 2);
  (*op.mutable_attr())["spatial_scale"].set_f(0.5f);
  expectNear(runAll<float>(op, {x, rois, batch}),
             std::vector<float>{1, 1, 1, 1, 2, 2, 2, 2});
  // A batch index beyond N is an error.
  auto bad = tensor<int32_t>({2}, {0, 2});
  rt::Status st;
  runOp(op, {x, rois, bad}, 1, false, &st);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("index 2 is out of range"), std::string::npos)
      << st.message();
}
