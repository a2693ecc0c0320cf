//===- ChannelBlockTest.cpp - the NC1HWC0 kernels vs plain loops ----------===//
//
// trans_data both ways, convs in NC1HWC0 (1x1 GEMMs and depthwise sweeps,
// with bias, residual and activation), pools and global_average_pool in
// NC1HWC0 and
// the binary kernels' periodic broadcast (a [N, C1, 1, 1, 16] scale), each
// under every instruction set this machine runs and on 1, 3 and 7 blocks,
// on channel counts that leave the last block part empty.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/kernels/ConvTestUtil.h"
#include "tests/unit/kernels/IsaTestUtil.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

constexpr int64_t kLanes = 16;

Shape blockedShape(const Shape &nchw) {
  return {nchw[0], (nchw[1] + kLanes - 1) / kLanes, nchw[2], nchw[3], kLanes};
}

/// NCHW values in NC1HWC0, the lanes past C zero.
std::vector<float> toBlocked(const std::vector<float> &x, const Shape &nchw) {
  const Shape b = blockedShape(nchw);
  const int64_t hw = nchw[2] * nchw[3];
  std::vector<float> y(count(b), 0.0f);
  for (int64_t n = 0; n < nchw[0]; ++n)
    for (int64_t c = 0; c < nchw[1]; ++c)
      for (int64_t q = 0; q < hw; ++q)
        y[((n * b[1] + c / kLanes) * hw + q) * kLanes + c % kLanes] =
            x[(n * nchw[1] + c) * hw + q];
  return y;
}

om::OpDef transData(const Shape &nchw, bool toBlocked) {
  om::OpDef op;
  op.set_name("trans_data0");
  op.set_type("trans_data");
  *op.add_input_desc() = desc(toBlocked ? nchw : blockedShape(nchw));
  *op.add_output_desc() = desc(toBlocked ? blockedShape(nchw) : nchw);
  (*op.mutable_attr())["src_format"].set_s(toBlocked ? "NCHW" : "NC1HWC0");
  (*op.mutable_attr())["dst_format"].set_s(toBlocked ? "NC1HWC0" : "NCHW");
  return op;
}

/// Runs `op` under each ISA on 1, 3 and 7 blocks (7 on host threads, input
/// 1 a constant on 3 and 7) and compares output 0 with `want`.
void expectUnderEachIsa(const om::OpDef &op,
                        const std::vector<const void *> &inputs,
                        const std::vector<float> &want, rt::Engine engine,
                        double tolerance) {
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    for (uint32_t blocks : kBlockDims) {
      SCOPED_TRACE(scope.name() + " blocks " + std::to_string(blocks));
      std::vector<float> got(want.size(), 12345.0f);
      rt::Status st = runBuffers(
          op, inputs, {got.data()}, blocks,
          {engine, blocks == 7, blocks != 1 && inputs.size() > 1 ? 1 : -1});
      ASSERT_TRUE(st.isOk()) << st.toString();
      expectNearAbs(got, want, tolerance);
    }
  }
}

TEST(TransData, IntoBlocksAndBackWithAPartBlock) {
  const Shape nchw{2, 20, 5, 7};
  std::vector<float> x = random(count(nchw), 1);
  std::vector<float> blocked = toBlocked(x, nchw);
  expectUnderEachIsa(transData(nchw, true), {x.data()}, blocked,
                     rt::Engine::kAiv, 0.0);
  expectUnderEachIsa(transData(nchw, false), {blocked.data()}, x,
                     rt::Engine::kAiv, 0.0);
}

TEST(TransData, RejectsShapesThatAreNotEachOthers) {
  om::OpDef op = transData({1, 20, 5, 7}, true);
  *op.mutable_output_desc(0) = desc({1, 1, 5, 7, 16});
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.toString().find("NC1HWC0"), std::string::npos) << st.toString();
}

struct BlockedConvCase {
  const char *name;
  ConvCase conv;
};

/// fused_conv in NC1HWC0 with bias, a residual and `activation` (hard_swish:
/// after the GEMM; relu: in its registers) against the plain loops, its
/// output and residual blocked by toBlocked.
void expectBlockedConv(const BlockedConvCase &bc, unsigned seed,
                       const std::string &activation) {
  SCOPED_TRACE(std::string(bc.name) + ", " + activation);
  const ConvCase &c = bc.conv;
  const Geo g = convGeometry(c);
  const Shape y{c.x[0], c.w[0], g.out[1], g.out[2]};
  std::vector<float> x = random(count(c.x), seed),
                     w = random(count(c.w), seed + 1),
                     b = random(c.w[0], seed + 2),
                     z = random(count(y), seed + 3);
  std::vector<float> conv = referenceConv(c, g, x, w, b, c.w[0]);
  for (size_t i = 0; i < conv.size(); ++i) {
    const float v = conv[i] + z[i];
    conv[i] = activation == "relu"
                  ? std::max(v, 0.0f)
                  : v * std::min(std::max(v + 3.0f, 0.0f), 6.0f) / 6.0f;
  }
  om::OpDef op = makeOp("fused_conv", c, y);
  *op.mutable_input_desc(0) = desc(blockedShape(c.x));
  *op.mutable_output_desc(0) = desc(blockedShape(y));
  *op.add_input_desc() = desc(blockedShape(y));
  (*op.mutable_attr())["data_format"].set_s("NC1HWC0");
  (*op.mutable_attr())["activation"].set_s(activation);
  const std::vector<float> xb = toBlocked(x, c.x), zb = toBlocked(z, y);
  expectUnderEachIsa(op, {xb.data(), w.data(), b.data(), zb.data()},
                     toBlocked(conv, y), rt::Engine::kAic, 1e-4);
}

TEST(BlockedConv, PointwiseAndDepthwiseMatchThePlainLoops) {
  const BlockedConvCase cases[] = {
      {"1x1 24 -> 40",
       {{2, 24, 7, 9}, {40, 24, 1, 1}, 1, {}, {}, {}, "", true}},
      {"1x1 stride 2, 16 -> 72",
       {{1, 16, 9, 9}, {72, 16, 1, 1}, 1, {2, 2}, {}, {}, "", true}},
      {"1x1 on 2x2, channels outweigh positions",
       {{2, 40, 2, 2}, {96, 40, 1, 1}, 1, {}, {}, {}, "", true}},
      {"3x3 padded, one group (a GEMM on a bordered copy)",
       {{1, 20, 6, 5}, {24, 20, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true}},
      {"depthwise 3x3 stride 1, 40 channels",
       {{2, 40, 9, 11}, {40, 1, 3, 3}, 40, {}, {1, 1, 1, 1}, {}, "", true}},
      {"depthwise 3x3 stride 2, 24 channels",
       {{1, 24, 14, 14},
        {24, 1, 3, 3},
        24,
        {2, 2},
        {1, 1, 1, 1},
        {},
        "",
        true}},
      {"depthwise 5x5 stride 2, 20 channels",
       {{1, 20, 13, 13},
        {20, 1, 5, 5},
        20,
        {2, 2},
        {2, 2, 2, 2},
        {},
        "",
        true}},
  };
  unsigned seed = 10;
  for (const BlockedConvCase &c : cases)
    for (const char *activation : {"hard_swish", "relu"}) {
      expectBlockedConv(c, seed, activation);
      seed += 4;
    }
}

TEST(BlockedConv, RejectsAGroupedConv) {
  ConvCase c{{1, 32, 4, 4}, {32, 8, 1, 1}, 4, {}, {}, {}, "", false};
  om::OpDef op = makeOp("conv", c, {1, 32, 4, 4});
  *op.mutable_input_desc(0) = desc(blockedShape(c.x));
  *op.mutable_output_desc(0) = desc({1, 2, 4, 4, 16});
  (*op.mutable_attr())["data_format"].set_s("NC1HWC0");
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.toString().find("one group or one channel per group"),
            std::string::npos)
      << st.toString();
}

TEST(BlockedGlobalAveragePool, AveragesEachLane) {
  const Shape nchw{2, 20, 5, 3};
  std::vector<float> x = random(count(nchw), 7);
  std::vector<float> mean(2 * 20, 0.0f);
  for (int64_t i = 0; i < 2 * 20; ++i) {
    double sum = 0;
    for (int64_t q = 0; q < 15; ++q)
      sum += x[i * 15 + q];
    mean[i] = static_cast<float>(sum / 15);
  }
  om::OpDef op;
  op.set_name("gap0");
  op.set_type("global_average_pool");
  *op.add_input_desc() = desc(blockedShape(nchw));
  *op.add_output_desc() = desc({2, 2, 1, 1, 16});
  (*op.mutable_attr())["data_format"].set_s("NC1HWC0");
  const std::vector<float> xb = toBlocked(x, nchw);
  expectUnderEachIsa(op, {xb.data()}, toBlocked(mean, {2, 20, 1, 1}),
                     rt::Engine::kAiv, 1e-6);
}

/// A 2-D pool of X (NCHW `nchw`) with a 3x3 window, `stride` and pads of 1.
om::OpDef poolOp(const std::string &type, const Shape &nchw, int64_t stride,
                 const Shape &y) {
  om::OpDef op;
  op.set_name(type + "0");
  op.set_type(type);
  *op.add_input_desc() = desc(nchw);
  *op.add_output_desc() = desc(y);
  setInts(op, "kernel_shape", {3, 3});
  setInts(op, "strides", {stride, stride});
  setInts(op, "pads", {1, 1, 1, 1});
  return op;
}

TEST(BlockedPool, MatchesThePlainKernelLaneByLane) {
  const Shape nchw{2, 20, 9, 11};
  std::vector<float> x = random(count(nchw), 11);
  const std::vector<float> xb = toBlocked(x, nchw);
  for (const char *type : {"max_pool", "average_pool"})
    for (int64_t stride : {1, 2}) {
      SCOPED_TRACE(std::string(type) + " stride " + std::to_string(stride));
      const Shape y{2, 20, (9 - 1) / stride + 1, (11 - 1) / stride + 1};
      om::OpDef plain = poolOp(type, nchw, stride, y);
      std::vector<float> want(count(y));
      ASSERT_TRUE(runBuffers(plain, {x.data()}, {want.data()}, 1,
                             {rt::Engine::kAiv, false})
                      .isOk());
      om::OpDef op = plain;
      *op.mutable_input_desc(0) = desc(blockedShape(nchw));
      *op.mutable_output_desc(0) = desc(blockedShape(y));
      (*op.mutable_attr())["data_format"].set_s("NC1HWC0");
      // The blocks' lanes past C are 0 in and (max or mean of 0s) out.
      expectUnderEachIsa(op, {xb.data()}, toBlocked(want, y), rt::Engine::kAiv,
                         1e-6);
    }
}

/// `type` of a [2, 3, 4, 5, 16] tensor and a per-(image, block) row of 16,
/// in either order, and with the row shared by the images.
TEST(BinaryBroadcast, RepeatsAShortRowOverTheDimBefore) {
  const Shape big{2, 3, 4, 5, 16};
  for (const Shape &row : {Shape{2, 3, 1, 1, 16}, Shape{1, 3, 1, 1, 16}})
    for (bool rowFirst : {false, true}) {
      SCOPED_TRACE(std::string(rowFirst ? "row first, " : "row second, ") +
                   (row[0] == 1 ? "shared" : "per image"));
      std::vector<float> a = random(count(big), 3), r = random(count(row), 4);
      std::vector<float> want(a.size());
      for (int64_t i = 0; i < count(big); ++i) {
        const int64_t lane = i % 16, nb = i / (4 * 5 * 16);
        const int64_t at = (row[0] == 1 ? nb % 3 : nb) * 16 + lane;
        want[i] = a[i] * r[at];
      }
      om::OpDef op;
      op.set_name("mul0");
      op.set_type("mul");
      *op.add_input_desc() = desc(rowFirst ? row : big);
      *op.add_input_desc() = desc(rowFirst ? big : row);
      *op.add_output_desc() = desc(big);
      const std::vector<const void *> in =
          rowFirst ? std::vector<const void *>{r.data(), a.data()}
                   : std::vector<const void *>{a.data(), r.data()};
      for (uint32_t blocks : kBlockDims) {
        std::vector<float> got(want.size(), 12345.0f);
        ASSERT_TRUE(runBuffers(op, in, {got.data()}, blocks,
                               {rt::Engine::kAiv, blocks == 7})
                        .isOk());
        expectNearAbs(got, want, 0.0);
      }
    }
}

} // namespace
