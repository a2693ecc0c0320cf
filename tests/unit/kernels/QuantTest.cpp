//===- QuantTest.cpp - the int8 quantization kernels ----------------------===//
//
// quantize_linear / dequantize_linear (per tensor and per axis, int8 and
// uint8, rounding halves to even, saturation), dynamic_quantize_linear, and
// the integer cube ops against direct loops: matmul_integer and
// qlinear_matmul (batch broadcast, per-row / per-column zero points),
// conv_integer and qlinear_conv (padding holds the zero point, groups,
// per-channel weights, bias). The integer GEMM's two bodies agree exactly.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include "executor/kernels/isa/CpuIsa.h"
#include "executor/kernels/quant/IntGemm.h"

#include <array>
#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

template <class T> std::vector<T> randomInts(int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(std::numeric_limits<T>::min(),
                                          std::numeric_limits<T>::max());
  std::vector<T> v(n);
  for (T &x : v)
    x = static_cast<T>(dist(gen));
  return v;
}

/// ONNX's requantization, in the reference's arithmetic.
template <class T> T requantize(double acc, double scale, int zp) {
  double v = std::nearbyint(acc * scale) + zp;
  return static_cast<T>(
      std::min<double>(std::max<double>(v, std::numeric_limits<T>::min()),
                       std::numeric_limits<T>::max()));
}

//===----------------------------------------------------------------------===//
// quantize_linear, dequantize_linear, dynamic_quantize_linear
//===----------------------------------------------------------------------===//

TEST(QuantizeLinear, PerTensorUint8SaturatesAndRoundsHalfToEven) {
  auto x = tensor<float>({8}, {0, 2, 3, 1000, -254, -1000, 5, 7});
  auto s = tensor<float>({}, {2.0f});
  auto z = tensor<uint8_t>({}, {128});
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(x)
                     .input(s)
                     .input(z)
                     .output(om::DT_UINT8, {8})
                     .op();
  // 3/2 = 1.5 -> 2, 5/2 = 2.5 -> 2, 7/2 = 3.5 -> 4 (halves to even).
  EXPECT_EQ(runAll<uint8_t>(op, {x, s, z}),
            (std::vector<uint8_t>{128, 129, 130, 255, 1, 0, 130, 132}));
}

TEST(QuantizeLinear, NoZeroPointIsUint8AtZero) {
  auto x = tensor<float>({4}, {-1.0f, 0.4f, 0.6f, 300.0f});
  auto s = tensor<float>({}, {1.0f});
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(x)
                     .input(s)
                     .output(om::DT_UINT8, {4})
                     .op();
  EXPECT_EQ(runAll<uint8_t>(op, {x, s}), (std::vector<uint8_t>{0, 0, 1, 255}));
}

TEST(QuantizeLinear, PerAxisInt8) {
  // [1, 3, 2]: axis 1 has scales 1, 2, 4 and zero points 0, -10, 100.
  auto x = tensor<float>({1, 3, 2}, {-0.5f, 200.0f, 3.0f, -7.0f, 100.0f, 1e9f});
  auto s = tensor<float>({3}, {1.0f, 2.0f, 4.0f});
  auto z = tensor<int8_t>({3}, {0, -10, 100});
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(x)
                     .input(s)
                     .input(z)
                     .output(om::DT_INT8, {1, 3, 2})
                     .attr("axis", int64_t(1))
                     .op();
  EXPECT_EQ(runAll<int8_t>(op, {x, s, z}),
            (std::vector<int8_t>{0, 127, -8, -14, 125, 127}));
}

TEST(QuantizeLinear, Int32Input) {
  auto x = tensor<int32_t>({3}, {-300, 5, 70000});
  auto s = tensor<float>({}, {2.0f});
  auto z = tensor<int8_t>({}, {1});
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(x)
                     .input(s)
                     .input(z)
                     .output(om::DT_INT8, {3})
                     .op();
  EXPECT_EQ(runAll<int8_t>(op, {x, s, z}), (std::vector<int8_t>{-128, 3, 127}));
}

TEST(DequantizeLinear, PerTensorAndPerAxis) {
  auto x = tensor<uint8_t>({4}, {0, 3, 128, 255});
  auto s = tensor<float>({}, {2.0f});
  auto z = tensor<uint8_t>({}, {128});
  om::OpDef op = OpBuilder("dequantize_linear")
                     .input(x)
                     .input(s)
                     .input(z)
                     .output(om::DT_FLOAT, {4})
                     .op();
  EXPECT_EQ(runAll<float>(op, {x, s, z}),
            (std::vector<float>{-256.0f, -250.0f, 0.0f, 254.0f}));

  auto xa = tensor<int8_t>({2, 2}, {-128, 127, 5, -5});
  auto sa = tensor<float>({2}, {0.5f, 4.0f});
  auto za = tensor<int8_t>({2}, {0, -1});
  om::OpDef axis0 = OpBuilder("dequantize_linear")
                        .input(xa)
                        .input(sa)
                        .input(za)
                        .output(om::DT_FLOAT, {2, 2})
                        .attr("axis", int64_t(0))
                        .op();
  EXPECT_EQ(runAll<float>(axis0, {xa, sa, za}),
            (std::vector<float>{-64.0f, 63.5f, 24.0f, -16.0f}));
}

TEST(DequantizeLinear, Int32BiasWithoutZeroPoint) {
  auto x = tensor<int32_t>({3}, {-70000, 0, 12345});
  auto s = tensor<float>({}, {0.5f});
  om::OpDef op = OpBuilder("dequantize_linear")
                     .input(x)
                     .input(s)
                     .output(om::DT_FLOAT, {3})
                     .op();
  EXPECT_EQ(runAll<float>(op, {x, s}),
            (std::vector<float>{-35000.0f, 0.0f, 6172.5f}));
}

om::OpDef dynamicQuantizeOp(const std::vector<int64_t> &shape) {
  return OpBuilder("dynamic_quantize_linear")
      .input(om::DT_FLOAT, shape)
      .output(om::DT_UINT8, shape)
      .output(om::DT_FLOAT, {})
      .output(om::DT_UINT8, {})
      .op();
}

TEST(DynamicQuantizeLinear, OnnxExample) {
  auto x = tensor<float>({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f});
  om::OpDef op = dynamicQuantizeOp({6});
  EXPECT_EQ(runAll<uint8_t>(op, {x}, 0),
            (std::vector<uint8_t>{153, 255, 0, 26, 221, 179}));
  EXPECT_EQ(runAll<float>(op, {x}, 1), (std::vector<float>{5.0f / 255.0f}));
  EXPECT_EQ(runAll<uint8_t>(op, {x}, 2), (std::vector<uint8_t>{153}));
}

TEST(DynamicQuantizeLinear, AllPositiveAndAllZero) {
  // The range always includes 0: zero point 0 for non-negative data.
  auto x = tensor<float>({3}, {1.0f, 2.55f, 0.5f});
  om::OpDef op = dynamicQuantizeOp({3});
  EXPECT_EQ(runAll<uint8_t>(op, {x}, 2), (std::vector<uint8_t>{0}));
  EXPECT_EQ(runAll<uint8_t>(op, {x}, 0), (std::vector<uint8_t>{100, 255, 50}));
  auto zeros = tensor<float>({2}, {0.0f, 0.0f});
  om::OpDef op2 = dynamicQuantizeOp({2});
  EXPECT_EQ(runAll<uint8_t>(op2, {zeros}, 0), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(runAll<float>(op2, {zeros}, 1), (std::vector<float>{0.0f}));
}

TEST(QuantizeLinear, PlanIsVectorWork) {
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(om::DT_FLOAT, {1 << 16})
                     .input(om::DT_FLOAT, {})
                     .output(om::DT_UINT8, {1 << 16})
                     .op();
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAiv);
  EXPECT_GT(plan.maxBlocks, 1u);
}

TEST(QuantizeLinear, RejectsAFloatResult) {
  om::OpDef op = OpBuilder("quantize_linear")
                     .input(om::DT_FLOAT, {4})
                     .input(om::DT_FLOAT, {})
                     .output(om::DT_FLOAT, {4})
                     .op();
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("float32"), std::string::npos) << st.message();
}

//===----------------------------------------------------------------------===//
// matmul_integer, qlinear_matmul
//===----------------------------------------------------------------------===//

/// acc[b, i, j] of (A - azp[i]) x (B - bzp[j]); A is [batchA, M, K], B is
/// [batchB, K, N] with batchA or batchB 1 (broadcast).
template <class TA, class TB>
std::vector<int32_t>
referenceMatMul(int64_t batch, bool aBatched, bool bBatched, int64_t m,
                int64_t n, int64_t k, const std::vector<TA> &a,
                const std::vector<TB> &b, const std::vector<int> &azp,
                const std::vector<int> &bzp) {
  std::vector<int32_t> y(batch * m * n);
  for (int64_t t = 0; t < batch; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int32_t acc = 0;
        for (int64_t p = 0; p < k; ++p)
          acc += (a[(aBatched ? t : 0) * m * k + i * k + p] -
                  azp[azp.size() == 1 ? 0 : i]) *
                 (b[(bBatched ? t : 0) * k * n + p * n + j] -
                  bzp[bzp.size() == 1 ? 0 : j]);
        y[(t * m + i) * n + j] = acc;
      }
  return y;
}

TEST(MatMulInteger, OnnxExample) {
  auto a = tensor<uint8_t>({4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
  auto b = tensor<uint8_t>({3, 2}, {1, 4, 2, 5, 3, 6});
  auto az = tensor<uint8_t>({1}, {12});
  auto bz = tensor<uint8_t>({1}, {0});
  om::OpDef op = OpBuilder("matmul_integer")
                     .input(a)
                     .input(b)
                     .input(az)
                     .input(bz)
                     .output(om::DT_INT32, {4, 2})
                     .op();
  EXPECT_EQ(runAll<int32_t>(op, {a, b, az, bz}),
            (std::vector<int32_t>{-38, -83, -44, -98, -50, -113, -56, -128}));
}

TEST(MatMulInteger, BatchedWithPerRowAndPerColumnZeroPoints) {
  const int64_t batch = 3, m = 21, n = 37, k = 19;
  auto av = randomInts<int8_t>(batch * m * k, 1);
  auto bv = randomInts<uint8_t>(k * n, 2);
  auto azv = randomInts<int8_t>(m, 3);
  auto bzv = randomInts<uint8_t>(n, 4);
  auto a = tensor<int8_t>({batch, m, k}, av);
  auto b = tensor<uint8_t>({k, n}, bv);
  auto az = tensor<int8_t>({m}, azv);
  auto bz = tensor<uint8_t>({n}, bzv);
  om::OpDef op = OpBuilder("matmul_integer")
                     .input(a)
                     .input(b)
                     .input(az)
                     .input(bz)
                     .output(om::DT_INT32, {batch, m, n})
                     .op();
  std::vector<int> azp(azv.begin(), azv.end()), bzp(bzv.begin(), bzv.end());
  EXPECT_EQ(runAll<int32_t>(op, {a, b, az, bz}),
            referenceMatMul(batch, true, false, m, n, k, av, bv, azp, bzp));
}

TEST(MatMulInteger, OnlyBZeroPointAndBroadcastA) {
  const int64_t batch = 2, m = 5, n = 300, k = 7; // n spans two strips
  auto av = randomInts<uint8_t>(m * k, 5);
  auto bv = randomInts<int8_t>(batch * k * n, 6);
  auto a = tensor<uint8_t>({m, k}, av);
  auto b = tensor<int8_t>({batch, k, n}, bv);
  auto bz = tensor<int8_t>({}, {-3});
  om::OpDef op = OpBuilder("matmul_integer")
                     .input(a)
                     .input(b)
                     .absentInput()
                     .input(bz)
                     .output(om::DT_INT32, {batch, m, n})
                     .op();
  EXPECT_EQ(runAll<int32_t>(op, {a, b, HostTensor(), bz}),
            referenceMatMul(batch, false, true, m, n, k, av, bv, {0}, {-3}));
}

TEST(QLinearMatMul, OnnxExample) {
  auto a = tensor<uint8_t>({2, 4}, {208, 236, 0, 238, 3, 214, 255, 29});
  auto as = tensor<float>({1}, {0.0066f});
  auto az = tensor<uint8_t>({1}, {113});
  auto b = tensor<uint8_t>(
      {4, 3}, {152, 51, 244, 60, 26, 255, 0, 127, 246, 127, 254, 247});
  auto bs = tensor<float>({1}, {0.00705f});
  auto bz = tensor<uint8_t>({1}, {114});
  auto ys = tensor<float>({1}, {0.0107f});
  auto yz = tensor<uint8_t>({1}, {118});
  om::OpDef op = OpBuilder("qlinear_matmul")
                     .input(a)
                     .input(as)
                     .input(az)
                     .input(b)
                     .input(bs)
                     .input(bz)
                     .input(ys)
                     .input(yz)
                     .output(om::DT_UINT8, {2, 3})
                     .op();
  EXPECT_EQ(runAll<uint8_t>(op, {a, as, az, b, bs, bz, ys, yz}),
            (std::vector<uint8_t>{168, 115, 255, 1, 66, 151}));
}

TEST(QLinearMatMul, PerColumnScalesInt8) {
  const int64_t m = 9, n = 6, k = 33;
  auto av = randomInts<int8_t>(m * k, 7);
  auto bv = randomInts<int8_t>(k * n, 8);
  std::vector<float> bsv = {0.01f, 0.02f, 0.005f, 0.03f, 0.001f, 0.015f};
  std::vector<int8_t> bzv = {0, 1, -1, 2, -2, 3};
  auto a = tensor<int8_t>({m, k}, av);
  auto as = tensor<float>({}, {0.05f});
  auto az = tensor<int8_t>({}, {-4});
  auto b = tensor<int8_t>({k, n}, bv);
  auto bs = tensor<float>({n}, bsv);
  auto bz = tensor<int8_t>({n}, bzv);
  auto ys = tensor<float>({}, {0.8f});
  auto yz = tensor<int8_t>({}, {5});
  om::OpDef op = OpBuilder("qlinear_matmul")
                     .input(a)
                     .input(as)
                     .input(az)
                     .input(b)
                     .input(bs)
                     .input(bz)
                     .input(ys)
                     .input(yz)
                     .output(om::DT_INT8, {m, n})
                     .op();
  std::vector<int> bzp(bzv.begin(), bzv.end());
  auto acc = referenceMatMul(1, false, false, m, n, k, av, bv, {-4}, bzp);
  std::vector<int8_t> want(m * n);
  for (int64_t i = 0; i < m * n; ++i)
    want[i] = requantize<int8_t>(
        acc[i], static_cast<float>(0.05f * bsv[i % n]) / 0.8f, 5);
  EXPECT_EQ(runAll<int8_t>(op, {a, as, az, b, bs, bz, ys, yz}), want);
}

TEST(MatMulInteger, PlanIsCubeWork) {
  om::OpDef op = OpBuilder("matmul_integer")
                     .input(om::DT_UINT8, {256, 256})
                     .input(om::DT_INT8, {256, 256})
                     .output(om::DT_INT32, {256, 256})
                     .op();
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAic);
  EXPECT_DOUBLE_EQ(plan.cost.flops, 2.0 * 256 * 256 * 256);
  EXPECT_GT(plan.maxBlocks, 1u);
}

//===----------------------------------------------------------------------===//
// conv_integer, qlinear_conv
//===----------------------------------------------------------------------===//

TEST(ConvInteger, PaddingHoldsTheZeroPoint) {
  auto x = tensor<uint8_t>({1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10});
  auto w = tensor<uint8_t>({1, 1, 2, 2}, {1, 1, 1, 1});
  auto xz = tensor<uint8_t>({}, {1});
  om::OpDef op = OpBuilder("conv_integer")
                     .input(x)
                     .input(w)
                     .input(xz)
                     .output(om::DT_INT32, {1, 1, 4, 4})
                     .attrInts("pads", {1, 1, 1, 1})
                     .op();
  EXPECT_EQ(runAll<int32_t>(op, {x, w, xz}),
            (std::vector<int32_t>{1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7,
                                  15, 17, 9}));
}

/// Direct conv of (x - xz) and (w - wz[m]) for 2-D windows.
struct ConvCase {
  int64_t n = 2, c = 4, h = 9, w = 7, m = 6, group = 2, kh = 3, kw = 2;
  int64_t stride = 2, pad = 1, dilation = 1;
  int64_t oh() const {
    return (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1;
  }
  int64_t ow() const {
    return (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1;
  }

  template <class TX, class TW>
  std::vector<int32_t> reference(const std::vector<TX> &x,
                                 const std::vector<TW> &wt, int xz,
                                 const std::vector<int> &wz) const {
    const int64_t cg = c / group, mg = m / group;
    std::vector<int32_t> y(n * m * oh() * ow());
    for (int64_t b = 0; b < n; ++b)
      for (int64_t o = 0; o < m; ++o)
        for (int64_t i = 0; i < oh(); ++i)
          for (int64_t j = 0; j < ow(); ++j) {
            int32_t acc = 0;
            const int64_t g = o / mg;
            for (int64_t ci = 0; ci < cg; ++ci)
              for (int64_t u = 0; u < kh; ++u)
                for (int64_t v = 0; v < kw; ++v) {
                  int64_t ih = i * stride - pad + u * dilation;
                  int64_t iw = j * stride - pad + v * dilation;
                  if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                    continue;
                  int32_t xv = x[((b * c + g * cg + ci) * h + ih) * w + iw];
                  int32_t wv = wt[((o * cg + ci) * kh + u) * kw + v];
                  acc += (xv - xz) * (wv - wz[wz.size() == 1 ? 0 : o]);
                }
            y[((b * m + o) * oh() + i) * ow() + j] = acc;
          }
    return y;
  }

  OpBuilder attrs(OpBuilder b) const {
    b.attr("group", group)
        .attrInts("strides", {stride, stride})
        .attrInts("pads", {pad, pad, pad, pad})
        .attrInts("dilations", {dilation, dilation});
    return b;
  }
};

TEST(ConvInteger, GroupsStridesPerChannelWeightZeroPoints) {
  ConvCase cc;
  auto xv = randomInts<uint8_t>(cc.n * cc.c * cc.h * cc.w, 11);
  auto wv = randomInts<int8_t>(cc.m * (cc.c / cc.group) * cc.kh * cc.kw, 12);
  std::vector<int8_t> wzv = {0, 1, -1, 3, -5, 7};
  auto x = tensor<uint8_t>({cc.n, cc.c, cc.h, cc.w}, xv);
  auto w = tensor<int8_t>({cc.m, cc.c / cc.group, cc.kh, cc.kw}, wv);
  auto xz = tensor<uint8_t>({}, {130});
  auto wz = tensor<int8_t>({cc.m}, wzv);
  om::OpDef op =
      cc.attrs(OpBuilder("conv_integer")
                   .input(x)
                   .input(w)
                   .input(xz)
                   .input(wz)
                   .output(om::DT_INT32, {cc.n, cc.m, cc.oh(), cc.ow()}))
          .op();
  EXPECT_EQ(
      runAll<int32_t>(op, {x, w, xz, wz}),
      cc.reference(xv, wv, 130, std::vector<int>(wzv.begin(), wzv.end())));
}

TEST(QLinearConv, OnnxExample) {
  auto x = tensor<uint8_t>({1, 1, 7, 7},
                           {255, 174, 162, 25,  203, 168, 58,  15,  59,  237,
                            95,  129, 0,   64,  56,  242, 153, 221, 168, 12,
                            166, 232, 178, 186, 195, 237, 162, 237, 188, 39,
                            124, 77,  80,  102, 43,  127, 230, 21,  83,  41,
                            40,  134, 255, 154, 92,  141, 42,  148, 247});
  auto xs = tensor<float>({}, {0.00369204697f});
  auto xz = tensor<uint8_t>({}, {132});
  auto w = tensor<uint8_t>({1, 1, 1, 1}, {0});
  auto ws = tensor<float>({1}, {0.00172794575f});
  auto wz = tensor<uint8_t>({1}, {255});
  auto ys = tensor<float>({}, {0.00162681262f});
  auto yz = tensor<uint8_t>({}, {123});
  om::OpDef op = OpBuilder("qlinear_conv")
                     .input(x)
                     .input(xs)
                     .input(xz)
                     .input(w)
                     .input(ws)
                     .input(wz)
                     .input(ys)
                     .input(yz)
                     .output(om::DT_UINT8, {1, 1, 7, 7})
                     .op();
  EXPECT_EQ(runAll<uint8_t>(op, {x, xs, xz, w, ws, wz, ys, yz}),
            (std::vector<uint8_t>{
                0,   81,  93,  230, 52,  87,  197, 240, 196, 18,  160, 126, 255,
                191, 199, 13,  102, 34,  87,  243, 89,  23,  77,  69,  60,  18,
                93,  18,  67,  216, 131, 178, 175, 153, 212, 128, 25,  234, 172,
                214, 215, 121, 0,   101, 163, 114, 213, 107, 8}));
}

TEST(QLinearConv, PerChannelScalesAndBiasInt8) {
  ConvCase cc;
  cc.stride = 1;
  cc.dilation = 2;
  auto xv = randomInts<int8_t>(cc.n * cc.c * cc.h * cc.w, 21);
  auto wv = randomInts<int8_t>(cc.m * (cc.c / cc.group) * cc.kh * cc.kw, 22);
  std::vector<float> wsv = {0.002f, 0.001f, 0.004f, 0.003f, 0.0005f, 0.002f};
  std::vector<int32_t> bv = {100, -2000, 0, 50000, -7, 3};
  auto x = tensor<int8_t>({cc.n, cc.c, cc.h, cc.w}, xv);
  auto xs = tensor<float>({}, {0.1f});
  auto xz = tensor<int8_t>({}, {-2});
  auto w = tensor<int8_t>({cc.m, cc.c / cc.group, cc.kh, cc.kw}, wv);
  auto ws = tensor<float>({cc.m}, wsv);
  auto wz = tensor<int8_t>({}, {0});
  auto ys = tensor<float>({}, {0.05f});
  auto yz = tensor<int8_t>({}, {-10});
  auto b = tensor<int32_t>({cc.m}, bv);
  const std::vector<int64_t> yShape = {cc.n, cc.m, cc.oh(), cc.ow()};
  om::OpDef op = cc.attrs(OpBuilder("qlinear_conv")
                              .input(x)
                              .input(xs)
                              .input(xz)
                              .input(w)
                              .input(ws)
                              .input(wz)
                              .input(ys)
                              .input(yz)
                              .input(b)
                              .output(om::DT_INT8, yShape))
                     .op();
  auto acc = cc.reference(xv, wv, -2, {0});
  std::vector<int8_t> want(acc.size());
  const int64_t plane = cc.oh() * cc.ow();
  for (size_t i = 0; i < acc.size(); ++i) {
    int64_t m = (i / plane) % cc.m;
    want[i] = requantize<int8_t>(
        acc[i] + bv[m], static_cast<float>(0.1f * wsv[m]) / 0.05f, -10);
  }
  EXPECT_EQ(runAll<int8_t>(op, {x, xs, xz, w, ws, wz, ys, yz, b}), want);
}

//===----------------------------------------------------------------------===//
// the integer GEMM's bodies
//===----------------------------------------------------------------------===//

/// C = A * B for int16 A [m x k] and B [k x n] by direct loops.
std::vector<int32_t> referenceIntGemm(int64_t m, int64_t n, int64_t k,
                                      const std::vector<int16_t> &a,
                                      const std::vector<int16_t> &b) {
  std::vector<int32_t> c(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

// Every body, on shapes that hit their edges: strips and 16-column blocks
// (64-column blocks for AVX-512) with a remainder, row blocks with a
// remainder, odd K (the AVX2 and AVX-512 bodies take K in pairs), K = 1 and
// K = 0, operands at the int16 range of zero-point differences ([-255,
// 255]); AVX-512 with and without VNNI.
TEST(IntGemm, EveryBodyAgreesWithDirectLoops) {
  const cpu::Isa initial = cpu::activeIsa();
  const std::vector<std::array<int64_t, 3>> shapes = {
      {13, 517, 45}, {1, 3, 1},    {5, 16, 2},    {4, 17, 0},
      {6, 130, 7},   {7, 64, 256}, {12, 300, 33}, {20, 33, 1}};
  struct Body {
    cpu::Isa isa;
    bool vnni;
  };
  const Body bodies[] = {{cpu::Isa::kBaseline, false},
                         {cpu::Isa::kAvx2, false},
                         {cpu::Isa::kAvx512, false},
                         {cpu::Isa::kAvx512, true}};
  for (auto [m, n, k] : shapes) {
    auto av = randomInts<int16_t>(m * k, 31);
    auto bv = randomInts<int16_t>(k * n, 32);
    for (int16_t &v : av)
      v = static_cast<int16_t>(v % 256);
    for (int16_t &v : bv)
      v = static_cast<int16_t>(v % 256);
    if (!av.empty())
      av[0] = -255;
    if (!bv.empty())
      bv[0] = -255;
    const std::vector<int32_t> want = referenceIntGemm(m, n, k, av, bv);
    for (const Body &body : bodies) {
      if (!cpu::setActiveIsa(body.isa))
        continue; // not on this CPU
      qnt::allowVnni(body.vnni);
      std::vector<int32_t> got(m * n, -1);
      qnt::intGemm(m, n, k, av.data(), k, bv.data(), n, got.data(), n);
      EXPECT_EQ(got, want) << cpu::isaName(body.isa)
                           << (body.vnni ? " vnni" : "") << " m=" << m
                           << " n=" << n << " k=" << k;
    }
  }
  qnt::allowVnni(true);
  cpu::setActiveIsa(initial);
}

} // namespace
