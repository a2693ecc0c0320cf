//===- ConvFastPathTest.cpp - the fast conv paths vs direct loops ---------===//
//
// The fast conv paths (ConvWinograd.h; 3-D ConvShifted.h; ConvTaps.h's
// grouped, few-channel and depthwise sweeps) under
// every instruction set this machine runs, on the shapes where they go
// wrong if they do: tiles cut at the map's edges, odd sizes, asymmetric
// padding, channel counts off the GEMM's panels, several blocks.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/ConvTestUtil.h"
#include "tests/unit/kernels/IsaTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

Shape outputShape(const ConvCase &c) {
  Geo g = convGeometry(c);
  Shape y = {c.x[0], c.w[0]};
  for (size_t i = 0; i + 2 < c.x.size(); ++i)
    y.push_back(g.out[3 - (c.x.size() - 2) + i]);
  return y;
}

double maxAbs(const std::vector<float> &v) {
  double top = 0;
  for (float x : v)
    top = std::max(top, std::fabs(double(x)));
  return top;
}

/// max |got - want| / `scale`; the conformance tests' measure with scale
/// max |want|.
double relativeError(const std::vector<float> &got,
                     const std::vector<float> &want, double scale) {
  double err = 0;
  for (size_t i = 0; i < want.size(); ++i)
    err = std::max(err, std::fabs(double(got[i]) - want[i]));
  return err / scale;
}

/// `op` (inputs x, w, b and optionally z) on 1, 3 and 7 blocks (7 on host
/// threads; W constant on 3 and 7), under each ISA, against `want`: the
/// error relative to `scale` (max |want| unless given) within `tolerance`.
void expectUnderEachIsa(const om::OpDef &op,
                        const std::vector<const float *> &inputs,
                        const std::vector<float> &want, double tolerance,
                        double scale = 0) {
  if (scale == 0)
    scale = maxAbs(want);
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    for (uint32_t blocks : {1u, 3u, 7u}) {
      SCOPED_TRACE(std::string(cpu::isaName(isa)) + " blocks " +
                   std::to_string(blocks));
      std::vector<float> got(want.size(), 12345.0f);
      rt::Status st = runConv(op, inputs, got.data(), blocks,
                              /*threads=*/blocks == 7,
                              /*constantWeight=*/blocks != 1);
      ASSERT_TRUE(st.isOk()) << st.toString();
      EXPECT_LE(relativeError(got, want, scale), tolerance);
    }
  }
}

/// fused_conv with EfficientNet's SiLU (swish) over `conv`, the plain conv's
/// result: the activation after the taps.
void expectSiluUnderEachIsa(const ConvCase &c, const Shape &y,
                            const std::vector<const float *> &inputs,
                            const std::vector<float> &conv,
                            double tolerance = 1e-6) {
  om::OpDef op = makeOp("fused_conv", c, y);
  (*op.mutable_attr())["activation"].set_s("swish");
  std::vector<float> want(conv.size());
  for (size_t i = 0; i < want.size(); ++i)
    want[i] = conv[i] / (1.0f + std::exp(-conv[i]));
  expectUnderEachIsa(op, inputs, want, tolerance, maxAbs(conv));
}

/// `c` as a conv with random X, W and B (seeds from `seed` on) under each
/// ISA against the direct loops.
void expectConvUnderEachIsa(const ConvCase &c, unsigned &seed,
                            double tolerance) {
  Shape y = outputShape(c);
  std::vector<float> x = random(count(c.x), seed++);
  std::vector<float> w = random(count(c.w), seed++);
  std::vector<float> b = random(c.w[0], seed++);
  std::vector<float> want = referenceConv(c, convGeometry(c), x, w, b, c.w[0]);
  expectUnderEachIsa(makeOp("conv", c, y), {x.data(), w.data(), b.data()}, want,
                     tolerance);
}

/// `c` as a fused_conv with its bias, a residual Z and relu, on random
/// inputs (seeds from `seed` on): the op, its inputs, the plain conv's
/// result (the error's scale) and the fused one's.
struct FusedRelu {
  om::OpDef op;
  std::vector<float> x, w, b, z, conv, want;
  std::vector<const float *> inputs() const {
    return {x.data(), w.data(), b.data(), z.data()};
  }
};
FusedRelu fusedRelu(const ConvCase &c, unsigned seed) {
  FusedRelu f;
  Shape y = outputShape(c);
  f.x = random(count(c.x), seed);
  f.w = random(count(c.w), seed + 1);
  f.b = random(c.w[0], seed + 2);
  f.z = random(count(y), seed + 3);
  f.conv = referenceConv(c, convGeometry(c), f.x, f.w, f.b, c.w[0]);
  f.op = makeOp("fused_conv", c, y);
  (*f.op.mutable_attr())["activation"].set_s("relu");
  *f.op.add_input_desc() = desc(y);
  for (size_t i = 0; i < f.conv.size(); ++i)
    f.want.push_back(std::max(0.0f, f.conv[i] + f.z[i]));
  return f;
}

/// A 3-D conv case of one group and no dilation.
ConvCase conv3d(Shape x, Shape w, Shape strides, Shape pads, bool bias) {
  return {std::move(x),    std::move(w), 1,  std::move(strides),
          std::move(pads), {},           "", bias};
}

//===----------------------------------------------------------------------===//
// Winograd F(4x4, 3x3)
//===----------------------------------------------------------------------===//

/// Twenty times inside the conformance tolerance (1e-3 of max |Y|); ResNet's
/// shapes measure 1e-5 (ErrorOnResNetShapes).
constexpr double kWinogradTolerance = 5e-5;

std::vector<ConvCase> winogradCases() {
  return {
      // The fewest channels it takes, tiles exact.
      {{1, 16, 12, 12}, {16, 16, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Tiles cut at the right and bottom edges; output channels off the
      // GEMM's 6-row panels; a batch of two.
      {{2, 40, 9, 11}, {50, 40, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Asymmetric and no padding, odd sizes, no bias.
      {{1, 17, 13, 10}, {24, 17, 3, 3}, 1, {}, {0, 1, 2, 1}, {}, "", false},
      {{1, 33, 15, 17}, {19, 33, 3, 3}, 1, {}, {}, {}, "VALID", true},
      // Several blocks of tile rows per image, and output channels split
      // over work items (more than one 48-channel chunk).
      {{1, 64, 30, 30}, {100, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Many input channels: GEMM depth over one chunk.
      {{1, 300, 9, 9}, {32, 300, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Rows of more tiles than one vector has lanes (the gather and the
      // scatter in several chunks, the last one cut), right padding only.
      {{1, 16, 10, 75}, {16, 16, 3, 3}, 1, {}, {1, 0, 0, 2}, {}, "", true},
  };
}

/// The plan counts Winograd's FLOPs: fewer than the direct conv's (a conv
/// of few outputs split over channel tiles transforms its input once per
/// tile, up to a quarter more).
void expectWinogradFlops(const ConvCase &c) {
  Shape y = outputShape(c);
  KernelPlan plan;
  ASSERT_TRUE(planKernel(makeOp("conv", c, y), &plan).isOk());
  const int64_t depthTaps = c.w.size() == 5 ? c.w[2] : 1;
  double direct = 2.0 * c.x[1] * depthTaps * 9 * count(y);
  EXPECT_LT(plan.cost.flops, 0.65 * direct);
}

TEST(ConvWinograd, MatchesDirectLoopsUnderEachIsa) {
  unsigned seed = 3000;
  for (const ConvCase &c : winogradCases()) {
    SCOPED_TRACE("x " + std::to_string(c.x[1]) + "x" + std::to_string(c.x[2]) +
                 "x" + std::to_string(c.x[3]));
    expectWinogradFlops(c);
    expectConvUnderEachIsa(c, seed, kWinogradTolerance);
  }
}

// fused_conv's epilogue on Winograd's tiles: bias, residual Z, then relu;
// and clip without a residual.
// An 8x8 map is 2x2 tiles, GEMMs 4 columns wide: the direct GEMM's plan
// (all of its FLOPs) rather than Winograd's.
TEST(ConvWinograd, NotOnMapsUnderNine) {
  ConvCase c{
      {1, 448, 8, 8}, {384, 448, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true};
  Shape y = outputShape(c);
  KernelPlan plan;
  ASSERT_TRUE(planKernel(makeOp("conv", c, y), &plan).isOk());
  EXPECT_GE(plan.cost.flops, 2.0 * 448 * 9 * count(y));
}

TEST(ConvWinograd, FusedEpilogue) {
  ConvCase c{
      {1, 24, 12, 10}, {30, 24, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true};
  Shape y = outputShape(c);
  const FusedRelu f = fusedRelu(c, 41);
  expectUnderEachIsa(f.op, f.inputs(), f.want, kWinogradTolerance);

  om::OpDef op = makeOp("fused_conv", c, y);
  (*op.mutable_attr())["activation"].set_s("clip");
  for (float v : {-0.5f, 0.25f})
    (*op.mutable_attr())["activation_params"].mutable_list()->add_f(v);
  std::vector<float> want(f.conv.size());
  for (size_t i = 0; i < want.size(); ++i)
    want[i] = std::min(0.25f, std::max(-0.5f, f.conv[i]));
  // The error is the conv's, relative to its own range, not the clip's.
  expectUnderEachIsa(op, {f.x.data(), f.w.data(), f.b.data()}, want,
                     kWinogradTolerance, maxAbs(f.conv));
}

// The error on ResNet-50's 3x3 shapes with random data, printed for the
// record: Winograd's transforms round more than a direct sum does.
TEST(ConvWinograd, ErrorOnResNetShapes) {
  for (int64_t ch : {64, 128, 256, 512}) {
    int64_t map = 56 * 64 / ch;
    ConvCase c{
        {1, ch, map, map}, {ch, ch, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true};
    Shape y = outputShape(c);
    om::OpDef op = makeOp("conv", c, y);
    std::vector<float> x = random(count(c.x), 7), w = random(count(c.w), 8),
                       b = random(ch, 9);
    std::vector<float> want =
        referenceConv(c, convGeometry(c), x, w, b, c.w[0]);
    std::vector<float> got(want.size());
    ASSERT_TRUE(runConv(op, {x.data(), w.data(), b.data()}, got.data(), 1,
                        false, /*constantWeight=*/true)
                    .isOk());
    double err = relativeError(got, want, maxAbs(want));
    std::printf("winograd %lldx%lldx%lld: max |err| / max |y| = %.2e\n",
                static_cast<long long>(ch), static_cast<long long>(map),
                static_cast<long long>(map), err);
    EXPECT_LE(err, kWinogradTolerance);
  }
}

// 3-D convs 3x3 in height and width: Winograd on each input slice, the
// depth taps summed in the GEMMs.
TEST(ConvWinograd, ThreeDimensionalMatchesDirectLoops) {
  std::vector<ConvCase> cases = {
      // r3d_18's 3x3x3 with pad 1: the first and last output slices meet
      // two input slices.
      conv3d({1, 16, 5, 12, 12}, {20, 16, 3, 3, 3}, {}, {1, 1, 1, 1, 1, 1},
             true),
      // Depth stride 2, a depth-2 kernel, asymmetric depth padding, a
      // batch of two, tiles cut at the edges.
      conv3d({2, 17, 6, 10, 10}, {18, 17, 2, 3, 3}, {2, 1, 1},
             {1, 1, 0, 0, 1, 1}, false),
      // Output slices that lie in the depth padding (the bias alone).
      conv3d({1, 16, 2, 9, 9}, {16, 16, 1, 3, 3}, {}, {2, 1, 1, 0, 1, 1}, true),
      // A kernel deeper than the input: taps cut at both faces.
      conv3d({1, 16, 3, 9, 10}, {22, 16, 5, 3, 3}, {}, {2, 1, 1, 2, 1, 1},
             true),
  };
  unsigned seed = 3100;
  for (const ConvCase &c : cases) {
    SCOPED_TRACE("x depth " + std::to_string(c.x[2]) + " kernel depth " +
                 std::to_string(c.w[2]));
    expectWinogradFlops(c);
    expectConvUnderEachIsa(c, seed, kWinogradTolerance);
  }
}

// r3d_18's 3x3x3 on a 28x28 map, fused with a residual and relu: the error
// with 27 taps summed, printed for the record.
TEST(ConvWinograd, ThreeDimensionalFusedOnR3dShape) {
  ConvCase c = conv3d({1, 64, 4, 28, 28}, {64, 64, 3, 3, 3}, {},
                      {1, 1, 1, 1, 1, 1}, true);
  const FusedRelu f = fusedRelu(c, 51);
  std::vector<float> got(f.want.size());
  ASSERT_TRUE(runConv(f.op, f.inputs(), got.data(), 1, false,
                      /*constantWeight=*/true)
                  .isOk());
  double err = relativeError(got, f.want, maxAbs(f.conv));
  std::printf("winograd 3-D 64x4x28x28: max |err| / max |y| = %.2e\n", err);
  EXPECT_LE(err, kWinogradTolerance);
  expectUnderEachIsa(f.op, f.inputs(), f.want, kWinogradTolerance,
                     maxAbs(f.conv));
}

//===----------------------------------------------------------------------===//
// Stride-1 convs over shifted slabs
//===----------------------------------------------------------------------===//

TEST(ConvShifted, MatchesDirectLoopsUnderEachIsa) {
  std::vector<ConvCase> cases = {
      // 2-D, over 324 output positions, and channels enough for channel
      // tiles (folded per host thread, balanced by the tiles' rows): a last
      // tile of fewer rows, a last channel tile of fewer channels.
      {{1, 6, 30, 20}, {70, 6, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 5, 26, 14}, {66, 5, 7, 1}, 1, {}, {3, 0, 3, 0}, {}, "", false},
      // r3d_18's 3x3x3 with pad 1; a kernel deeper than it is tall;
      // asymmetric pads; output rows not a whole number of tiles. Over 256
      // output positions each (fewer take the position-rows GEMM).
      conv3d({1, 5, 4, 10, 9}, {7, 5, 3, 3, 3}, {}, {1, 1, 1, 1, 1, 1}, true),
      conv3d({2, 3, 5, 15, 8}, {4, 3, 3, 2, 3}, {}, {0, 1, 1, 2, 0, 1}, false),
      conv3d({1, 16, 3, 21, 5}, {8, 16, 2, 3, 3}, {}, {1, 1, 1, 0, 1, 1}, true),
  };
  unsigned seed = 7000;
  for (const ConvCase &c : cases)
    expectConvUnderEachIsa(c, seed, 1e-6);
}

//===----------------------------------------------------------------------===//
// Grouped convs, direct over phase planes
//===----------------------------------------------------------------------===//

/// Each case as a conv, as a fused_conv with bias, residual Z and relu, and
/// with SiLU, under each ISA, against the direct loops, within `tolerance`
/// (float sums of a few hundred products differ from the loops' by more
/// than 1e-6).
void expectCasesUnderEachIsa(const std::vector<ConvCase> &cases, unsigned seed,
                             double tolerance = 1e-6) {
  for (const ConvCase &c : cases) {
    Shape y = outputShape(c);
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> w = random(count(c.w), seed++);
    std::vector<float> b = random(c.w[0], seed++);
    std::vector<float> z = random(count(y), seed++);
    std::vector<float> conv =
        referenceConv(c, convGeometry(c), x, w, b, c.w[0]);
    expectUnderEachIsa(makeOp("conv", c, y), {x.data(), w.data(), b.data()},
                       conv, tolerance);
    // The epilogue: bias, residual Z, relu.
    om::OpDef op = makeOp("fused_conv", c, y);
    (*op.mutable_attr())["activation"].set_s("relu");
    if (!c.bias)
      op.add_input_desc()->set_dtype(om::DT_UNDEFINED);
    *op.add_input_desc() = desc(y);
    std::vector<float> want(conv.size());
    for (size_t i = 0; i < want.size(); ++i)
      want[i] = std::max(0.0f, conv[i] + z[i]);
    expectUnderEachIsa(
        op, {x.data(), w.data(), c.bias ? b.data() : nullptr, z.data()}, want,
        tolerance, maxAbs(conv));
    // A clip with no residual: bias and clamp as the sweep stores.
    om::OpDef clip = makeOp("fused_conv", c, y);
    (*clip.mutable_attr())["activation"].set_s("clip");
    for (float v : {0.0f, 0.5f})
      (*clip.mutable_attr())["activation_params"].mutable_list()->add_f(v);
    for (size_t i = 0; i < want.size(); ++i)
      want[i] = std::min(0.5f, std::max(0.0f, conv[i]));
    expectUnderEachIsa(clip, {x.data(), w.data(), b.data()}, want, tolerance,
                       maxAbs(conv));
    expectSiluUnderEachIsa(c, y, {x.data(), w.data(), b.data()}, conv,
                           tolerance);
  }
}

//===----------------------------------------------------------------------===//
// Positions on the GEMM's rows (maps of at most 324 positions)
//===----------------------------------------------------------------------===//

// AVX-512 and AVX2 read the GEMM's rows where they lie in the padded input
// (nn::gemmDirect); the baseline runs im2col columns through nn::gemm.
TEST(ConvPositionRows, MatchesDirectLoopsUnderEachIsa) {
  std::vector<ConvCase> cases = {
      // Inception's 1x7 and 7x1 on 17x17: rows of positions across output
      // rows, channels off the 16-wide column panels.
      {{1, 20, 17, 17}, {40, 20, 1, 7}, 1, {}, {0, 3, 0, 3}, {}, "", true},
      {{1, 20, 17, 17}, {21, 20, 7, 1}, 1, {}, {3, 0, 3, 0}, {}, "", false},
      // Stride 2 and no padding (the input read where it lies), a batch.
      {{2, 24, 15, 13}, {33, 24, 3, 3}, 1, {2, 2}, {}, {}, "VALID", true},
      // Dilation, asymmetric padding, a kernel wider than tall.
      {{1, 8, 12, 12}, {20, 8, 3, 3}, 1, {}, {2, 2, 2, 2}, {2, 2}, "", true},
      {{1, 7, 10, 11}, {17, 7, 3, 5}, 1, {}, {0, 2, 1, 1}, {}, "", true},
      // ViT's patch embedding: stride as wide as the kernel.
      {{1, 3, 32, 32}, {24, 3, 8, 8}, 1, {8, 8}, {}, {}, "", true},
      // Depth over several GEMM chunks; 3-D.
      {{1, 70, 9, 9}, {18, 70, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      conv3d({1, 4, 3, 6, 6}, {10, 4, 2, 3, 3}, {}, {0, 1, 1, 1, 1, 1}, true),
  };
  expectCasesUnderEachIsa(cases, 9000, 1e-5);
}

TEST(ConvGroupedTaps, MatchesDirectLoopsUnderEachIsa) {
  const std::vector<ConvCase> cases = {
      // ResNeXt's 3x3 (4 channels per group, pad 1) at strides 1 and 2;
      // output channels per group not a multiple of four; dilation and
      // asymmetric pads.
      {{2, 8, 9, 11}, {8, 4, 3, 3}, 2, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 12, 10, 9}, {12, 4, 3, 3}, 3, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      {{1, 6, 8, 8}, {14, 3, 3, 3}, 2, {}, {0, 2, 1, 1}, {2, 1}, "", false},
      {{1, 16, 7, 7}, {10, 8, 5, 5}, 2, {}, {2, 2, 2, 2}, {}, "", true},
  };
  expectCasesUnderEachIsa(cases, 8000);
}

//===----------------------------------------------------------------------===//
// An image's first conv: few input channels, eight outputs per sweep
//===----------------------------------------------------------------------===//

TEST(ConvChannelTaps, MatchesDirectLoopsUnderEachIsa) {
  const std::vector<ConvCase> cases = {
      // ResNet's 7x7 and EfficientNet's 3x3 stems at stride 2, on maps whose
      // rows end inside a vector; a batch of two.
      {{2, 3, 23, 21}, {16, 3, 7, 7}, 1, {2, 2}, {3, 3, 3, 3}, {}, "", true},
      {{1, 3, 19, 40}, {32, 3, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      // Rows of 48 and 35: steps of two vectors, then a whole and a partial
      // one of one vector (16 lanes).
      {{1, 3, 6, 96}, {8, 3, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      // Output channels off the block of eight, no bias, asymmetric pads,
      // one input channel, a dilated stride-1 window.
      {{1, 1, 9, 37}, {13, 1, 5, 5}, 1, {}, {2, 1, 0, 2}, {}, "", false},
      {{1, 4, 12, 12}, {9, 4, 3, 3}, 1, {}, {1, 1, 1, 1}, {2, 2}, "", true},
      {{1, 2, 8, 9}, {8, 2, 3, 3}, 1, {2, 1}, {}, {}, "SAME_UPPER", true},
  };
  expectCasesUnderEachIsa(cases, 8100);
}

//===----------------------------------------------------------------------===//
// Depthwise kxk
//===----------------------------------------------------------------------===//

std::vector<ConvCase> depthwiseCases() {
  return {
      // MobileNet's and EfficientNet's 5x5 at strides 1 and 2, ConvNeXt's 7x7
      // with pad 3, over odd maps narrower than a vector.
      {{1, 3, 11, 13}, {3, 1, 5, 5}, 3, {}, {2, 2, 2, 2}, {}, "", true},
      {{2, 4, 14, 15}, {4, 1, 5, 5}, 4, {2, 2}, {2, 2, 2, 2}, {}, "", true},
      {{1, 2, 7, 7}, {2, 1, 7, 7}, 2, {}, {3, 3, 3, 3}, {}, "", false},
      {{1, 2, 30, 33}, {2, 1, 7, 7}, 2, {}, {3, 3, 3, 3}, {}, "", true},
      // 3x3 at stride 2 (the phase planes) with asymmetric pads, SAME_UPPER
      // and a depth multiplier.
      {{1, 3, 9, 10}, {3, 1, 3, 3}, 3, {2, 2}, {0, 1, 1, 0}, {}, "", true},
      {{1, 2, 8, 9}, {4, 1, 3, 3}, 2, {2, 2}, {}, {}, "SAME_UPPER", true},
      // Mixed strides, dilation, a non-square kernel, a map smaller than
      // the window, no padding.
      {{1, 2, 12, 11}, {2, 1, 3, 5}, 2, {2, 1}, {1, 2, 0, 1}, {2, 1}, "", true},
      {{1, 2, 3, 2}, {2, 1, 5, 5}, 2, {}, {2, 2, 2, 2}, {}, "", true},
      {{1, 3, 12, 12}, {3, 1, 4, 4}, 3, {2, 2}, {}, {}, "", false},
      // More channels than a block of 16 (nn::depthwiseChannelBlock), blocks
      // cut by the items and by the image, a dilated one; a 3x3 stride-1 map
      // wider than 14 takes the plane path.
      {{2, 35, 9, 10}, {35, 1, 3, 3}, 35, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 40, 27, 27}, {40, 1, 5, 5}, 40, {2, 2}, {2, 2, 2, 2}, {}, "", false},
      {{1, 17, 14, 14}, {17, 1, 3, 3}, 17, {}, {2, 2, 2, 2}, {2, 2}, "", true},
      {{1, 17, 15, 15}, {17, 1, 3, 3}, 17, {}, {1, 1, 1, 1}, {}, "", true},
      // Channel blocks in several strips of rows: 3x3 at stride 2 with the
      // input's last row unread, 5x5 at stride 1 (rows the strips share
      // carried over), a dilated 3x3; blocks of 16, 8 (AVX2's 8x8
      // transposes) and 1 channel, rows not a multiple of 8 or 16.
      {{1, 17, 61, 60}, {17, 1, 3, 3}, 17, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      {{1, 24, 43, 40}, {24, 1, 5, 5}, 24, {}, {2, 2, 2, 2}, {}, "", true},
      {{1, 9, 50, 37}, {9, 1, 3, 3}, 9, {}, {2, 1, 2, 3}, {2, 2}, "", false},
  };
}

TEST(ConvDepthwise, KxkMatchesDirectLoopsUnderEachIsa) {
  unsigned seed = 5000;
  for (const ConvCase &c : depthwiseCases()) {
    SCOPED_TRACE("x " + std::to_string(c.x[2]) + "x" + std::to_string(c.x[3]) +
                 " w " + std::to_string(c.w[2]) + "x" + std::to_string(c.w[3]));
    Shape y = outputShape(c);
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> w = random(count(c.w), seed++);
    std::vector<float> b = random(c.w[0], seed++);
    std::vector<float> z = random(count(y), seed++);
    std::vector<float> conv =
        referenceConv(c, convGeometry(c), x, w, b, c.w[0]);
    expectUnderEachIsa(makeOp("conv", c, y), {x.data(), w.data(), b.data()},
                       conv, 1e-6);
    // relu clamps inside the loop; with a residual it comes after Z.
    om::OpDef op = makeOp("fused_conv", c, y);
    (*op.mutable_attr())["activation"].set_s("relu");
    std::vector<float> want(conv.size());
    for (size_t i = 0; i < want.size(); ++i)
      want[i] = std::max(0.0f, conv[i]);
    expectUnderEachIsa(op, {x.data(), w.data(), b.data()}, want, 1e-6,
                       maxAbs(conv));
    if (!c.bias)
      op.add_input_desc()->set_dtype(om::DT_UNDEFINED);
    *op.add_input_desc() = desc(y);
    for (size_t i = 0; i < want.size(); ++i)
      want[i] = std::max(0.0f, conv[i] + z[i]);
    expectUnderEachIsa(
        op, {x.data(), w.data(), c.bias ? b.data() : nullptr, z.data()}, want,
        1e-6, maxAbs(conv));
    expectSiluUnderEachIsa(c, y, {x.data(), w.data(), b.data()}, conv);
  }
}

} // namespace
