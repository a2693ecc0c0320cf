//===- ResizeTest.cpp - nearest and linear resize, ONNX examples
//------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

std::vector<float> iota(int n, float start = 1) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = start + static_cast<float>(i);
  return v;
}

/// Resize of x by `scales` (sizes = nullopt) or to `sizes`; every block
/// count, scales/sizes at run time and as constants, must agree.
std::vector<float>
resize(const HostTensor &x, const std::vector<int64_t> &outShape,
       const std::vector<float> &scales,
       std::vector<std::pair<std::string, std::string>> attrs) {
  OpBuilder b("resize");
  b.input(x).absentInput();
  std::vector<HostTensor> in = {x, HostTensor()};
  if (!scales.empty()) {
    auto s = tensor<float>({static_cast<int64_t>(scales.size())}, scales);
    b.input(s);
    in.push_back(s);
  } else {
    auto sz =
        tensor<int64_t>({static_cast<int64_t>(outShape.size())}, outShape);
    b.absentInput().input(sz);
    in.push_back(HostTensor());
    in.push_back(sz);
  }
  for (auto &[k, v] : attrs)
    b.attr(k, v);
  b.output(om::DT_FLOAT, outShape);
  std::vector<float> first;
  bool have = false;
  for (bool constants : {false, true})
    for (uint32_t blocks : kBlockDims) {
      auto out = runOp(b.op(), in, blocks, constants);
      if (out.empty())
        return {};
      auto v = out[0].values<float>();
      if (!have) {
        first = v;
        have = true;
      }
      EXPECT_EQ(v, first) << "blocks " << blocks;
    }
  return first;
}

} // namespace

TEST(ResizeTest, NearestScalesUpAndDown) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(resize(x, {1, 1, 4, 6}, {1, 1, 2, 3}, {{"mode", "nearest"}}),
            (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2,
                                3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}));
  auto y = tensor<float>({1, 1, 2, 4}, iota(8));
  EXPECT_EQ(resize(y, {1, 1, 1, 2}, {1, 1, 0.6f, 0.6f}, {{"mode", "nearest"}}),
            (std::vector<float>{1, 3}));
}

TEST(ResizeTest, NearestSizesWithRoundingModes) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  std::vector<float> expected;
  for (int r = 0; r < 7; ++r)
    for (int c = 0; c < 8; ++c)
      expected.push_back((r < 4 ? 1.0f : 3.0f) + (c < 4 ? 0.0f : 1.0f));
  EXPECT_EQ(resize(x, {1, 1, 7, 8}, {}, {}), expected);

  auto x4 = tensor<float>({1, 1, 4, 4}, iota(16));
  auto firstRow = [](const std::vector<float> &v) {
    return std::vector<float>(v.begin(), v.begin() + 8);
  };
  auto ceil = resize(x4, {1, 1, 8, 8}, {},
                     {{"mode", "nearest"}, {"nearest_mode", "ceil"}});
  EXPECT_EQ(firstRow(ceil), (std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4}));
  auto floorAc = resize(x4, {1, 1, 8, 8}, {},
                        {{"nearest_mode", "floor"},
                         {"coordinate_transformation_mode", "align_corners"}});
  EXPECT_EQ(firstRow(floorAc), (std::vector<float>{1, 1, 1, 2, 2, 3, 3, 4}));
  EXPECT_EQ(std::vector<float>(floorAc.end() - 8, floorAc.end()),
            (std::vector<float>{13, 13, 13, 14, 14, 15, 15, 16}));
  auto ceilAsym = resize(x4, {1, 1, 8, 8}, {},
                         {{"nearest_mode", "round_prefer_ceil"},
                          {"coordinate_transformation_mode", "asymmetric"}});
  EXPECT_EQ(firstRow(ceilAsym), (std::vector<float>{1, 2, 2, 3, 3, 4, 4, 4}));
  EXPECT_EQ(
      resize(x4, {1, 1, 3, 2}, {},
             {{"coordinate_transformation_mode", "tf_half_pixel_for_nn"}}),
      (std::vector<float>{6, 8, 10, 12, 14, 16}));
}

TEST(ResizeTest, LinearHalfPixelAlignCornersPytorch) {
  auto x = tensor<float>({1, 1, 2, 2}, {1, 2, 3, 4});
  expectNear(resize(x, {1, 1, 4, 4}, {1, 1, 2, 2}, {{"mode", "linear"}}),
             {1, 1.25f, 1.75f, 2, 1.5f, 1.75f, 2.25f, 2.5f, 2.5f, 2.75f, 3.25f,
              3.5f, 3, 3.25f, 3.75f, 4});
  const float t = 1.0f / 3;
  expectNear(resize(x, {1, 1, 4, 4}, {1, 1, 2, 2},
                    {{"mode", "linear"},
                     {"coordinate_transformation_mode", "align_corners"}}),
             {1, 1 + t, 1 + 2 * t, 2, 1 + 2 * t, 2, 2 + t, 2 + 2 * t, 2 + t,
              2 + 2 * t, 3, 3 + t, 3, 3 + t, 3 + 2 * t, 4});
  auto y = tensor<float>({1, 1, 2, 4}, iota(8));
  expectNear(resize(y, {1, 1, 1, 2}, {1, 1, 0.6f, 0.6f}, {{"mode", "linear"}}),
             {2.6666665f, 4.3333331f});
  auto x4 = tensor<float>({1, 1, 4, 4}, iota(16));
  expectNear(resize(x4, {1, 1, 3, 1}, {},
                    {{"mode", "linear"},
                     {"coordinate_transformation_mode", "pytorch_half_pixel"}}),
             {1.6666666f, 7.0f, 12.333333f});
}

/// Bilinear half_pixel resize of [n, c, h, w] to [n, c, oh, ow] against a
/// separable reference in double.
void expectBilinearMatchesReference(int64_t N, int64_t C, int64_t H, int64_t W,
                                    int64_t OH, int64_t OW) {
  SCOPED_TRACE(std::to_string(H) + "x" + std::to_string(W) + " -> " +
               std::to_string(OH) + "x" + std::to_string(OW));
  std::vector<float> data(N * C * H * W);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<float>((i * 37) % 101);
  auto x = tensor<float>({N, C, H, W}, data);
  auto coord = [](int64_t j, int64_t in, int64_t out, int64_t *i0, int64_t *i1,
                  double *w) {
    double s = static_cast<double>(out) / in;
    double v =
        std::clamp((j + 0.5) / s - 0.5, 0.0, static_cast<double>(in - 1));
    *i0 = static_cast<int64_t>(std::floor(v));
    *i1 = std::min(*i0 + 1, in - 1);
    *w = v - *i0;
  };
  std::vector<float> expected;
  for (int64_t nc = 0; nc < N * C; ++nc)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        int64_t h0, h1, w0, w1;
        double wh, ww;
        coord(oh, H, OH, &h0, &h1, &wh);
        coord(ow, W, OW, &w0, &w1, &ww);
        auto at = [&](int64_t h, int64_t w) {
          return data[(nc * H + h) * W + w];
        };
        double v = (1 - wh) * ((1 - ww) * at(h0, w0) + ww * at(h0, w1)) +
                   wh * ((1 - ww) * at(h1, w0) + ww * at(h1, w1));
        expected.push_back(static_cast<float>(v));
      }
  expectNear(resize(x, {N, C, OH, OW}, {}, {{"mode", "linear"}}), expected,
             1e-5);
}

TEST(ResizeTest, LinearLargeMatchesSeparableReference) {
  // Up in H and down in W.
  expectBilinearMatchesReference(2, 3, 17, 23, 40, 11);
  // LR-ASPP's 8x upsample, in blocks whose ranges start inside a row.
  expectBilinearMatchesReference(1, 3, 7, 9, 56, 73);
  // Down to 2x2: the planes' last rows are read by none of the outputs.
  expectBilinearMatchesReference(2, 2, 9, 9, 2, 2);
  // Only H resized (W maps onto itself).
  expectBilinearMatchesReference(1, 2, 5, 13, 11, 13);
}

TEST(ResizeTest, CubicOnnxExample) {
  auto x4 = tensor<float>({1, 1, 4, 4}, iota(16));
  auto out = resize(x4, {1, 1, 8, 8}, {1, 1, 2, 2}, {{"mode", "cubic"}});
  ASSERT_EQ(out.size(), 64u);
  // test_resize_upsample_scales_cubic's first row.
  expectNear(std::vector<float>(out.begin(), out.begin() + 8),
             {0.47265625f, 0.76953125f, 1.24609375f, 1.875f, 2.28125f,
              2.91015625f, 3.38671875f, 3.68359375f});
}

TEST(ResizeTest, NearestMovesAnyDtypeAndRejectsUnknownModes) {
  auto x = tensor<uint8_t>({1, 2}, {7, 9});
  auto sizes = tensor<int64_t>({2}, {2, 4});
  om::OpDef op = OpBuilder("resize")
                     .input(x)
                     .absentInput()
                     .absentInput()
                     .input(sizes)
                     .attr("coordinate_transformation_mode", "asymmetric")
                     .output(om::DT_UINT8, {2, 4});
  for (uint32_t blocks : kBlockDims)
    EXPECT_EQ(runOp(op, {x, HostTensor(), HostTensor(), sizes}, blocks)[0]
                  .values<uint8_t>(),
              (std::vector<uint8_t>{7, 7, 9, 9, 7, 7, 9, 9}));

  om::OpDef bad = OpBuilder("resize", "r")
                      .input(om::DT_FLOAT, {1, 4})
                      .attr("mode", "area")
                      .output(om::DT_FLOAT, {1, 8});
  KernelPlan plan;
  rt::Status st = planKernel(bad, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'r' (resize): mode 'area'"),
            std::string::npos)
      << st.message();
}
