//===- ConvTest.cpp - conv and conv_transpose against direct loops -------===//

#include "tests/unit/kernels/ConvTestUtil.h"

#include <chrono>
#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

std::vector<ConvCase> convCases() {
  return {
      {{2, 3, 11}, {4, 3, 3}, 1, {2}, {1, 2}, {}, "", true},
      {{1, 3, 7, 8}, {5, 3, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 3, 9, 10}, {4, 3, 3, 2}, 1, {2, 2}, {0, 1, 2, 1}, {2, 2}, "", false},
      {{2, 4, 6, 6}, {6, 2, 3, 3}, 2, {}, {1, 0, 1, 0}, {}, "NOTSET", true},
      {{1, 4, 9, 9}, {4, 1, 3, 3}, 4, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      {{2, 3, 8, 7}, {6, 1, 3, 2}, 3, {}, {1, 0, 1, 1}, {2, 1}, "", true},
      {{1, 3, 10}, {3, 1, 3}, 3, {2}, {1, 1}, {}, "", false},
      {{1, 1, 6, 6}, {3, 1, 2, 2}, 1, {}, {}, {}, "", true},
      {{2, 8, 5, 5}, {6, 8, 1, 1}, 1, {}, {}, {}, "", true},
      {{1, 4, 7, 7}, {3, 4, 1, 1}, 1, {2, 2}, {}, {}, "", false},
      {{2, 8, 4, 4}, {6, 4, 1, 1}, 2, {}, {}, {}, "", true},
      {{1, 6, 9}, {4, 6, 1}, 1, {}, {}, {}, "", true},
      {{1, 2, 7, 7}, {3, 2, 3, 3}, 1, {2, 2}, {}, {}, "SAME_UPPER", true},
      {{1, 2, 6, 6}, {3, 2, 4, 4}, 1, {}, {}, {}, "SAME_LOWER", false},
      {{1, 2, 6, 5}, {3, 2, 4, 4}, 1, {}, {}, {}, "SAME_UPPER", false},
      {{1, 2, 7, 9}, {2, 2, 3, 2}, 1, {2, 3}, {}, {}, "VALID", false},
      {{1, 2, 5, 6, 4},
       {3, 2, 3, 2, 2},
       1,
       {1, 2, 1},
       {1, 0, 1, 1, 1, 0},
       {},
       "",
       true},
      {{1, 4, 5, 4, 4},
       {4, 1, 3, 3, 3},
       4,
       {},
       {1, 1, 1, 1, 1, 1},
       {2, 1, 1},
       "",
       false},
      {{1, 64, 24, 24}, {4, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{2, 16, 20, 20},
       {8, 8, 3, 3},
       2,
       {1, 2},
       {2, 1, 0, 1},
       {1, 2},
       "",
       true},
      // Small feature maps: output channels split over work items too.
      {{1, 256, 4, 4}, {64, 256, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 64, 3, 3}, {96, 64, 1, 1}, 1, {}, {}, {}, "", true},
      {{1, 32, 5, 5}, {80, 16, 3, 3}, 2, {2, 2}, {1, 1, 1, 1}, {}, "", false},
      // Packed weights (constant W): rows not a whole number of panels, depth
      // over one chunk, a narrow last column panel; then channel tiles that
      // start mid-matrix.
      {{1, 40, 9, 11}, {50, 40, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 48, 3, 3}, {100, 48, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Small maps with positions as the GEMM's rows (weights packed as
      // W^T): channels not a whole number of 16-wide panels (a last one of
      // at most 8 and of more), positions not a whole number of 6-row
      // panels, 1x1, strided and grouped windows, depth over one chunk.
      {{1, 24, 7, 7}, {40, 24, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 20, 6, 6}, {21, 20, 1, 1}, 1, {}, {}, {}, "", true},
      {{2, 16, 9, 9}, {34, 16, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", false},
      {{1, 8, 6, 5}, {20, 4, 3, 3}, 2, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 64, 5, 5}, {48, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // More channels than positions: host threads split the channels,
      // 16-wide panels and a short last one (1x1 and 3x3).
      {{1, 40, 4, 4}, {100, 40, 1, 1}, 1, {}, {}, {}, "", true},
      {{1, 24, 5, 3}, {70, 24, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // A 1x1 conv on column tiles whose 6 panels (the last of 1 column)
      // split unevenly over 7 threads: they split its 200 channels.
      {{1, 8, 9, 9}, {200, 8, 1, 1}, 1, {}, {}, {}, "", true},
      // And a strided im2col conv's 19 panels its 84 channels.
      {{1, 5, 34, 34}, {84, 5, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      // Depthwise 3x3 (a register per output inside, taps at the edges):
      // stride 1 and 2, asymmetric pads, a depth multiplier, maps narrower
      // than the window.
      {{1, 3, 12, 13}, {3, 1, 3, 3}, 3, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 2, 5, 6}, {4, 1, 3, 3}, 2, {1, 2}, {0, 2, 1, 0}, {}, "", false},
      {{1, 2, 2, 2}, {2, 1, 3, 3}, 2, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 2, 4, 1}, {2, 1, 3, 3}, 2, {}, {1, 1, 1, 1}, {}, "", true},
      // A stride-1 map of at most 64 columns is one sweep over a bordered
      // copy of the plane: asymmetric pads, one wider than the window's.
      {{1, 2, 5, 6}, {2, 1, 3, 3}, 2, {}, {0, 2, 1, 0}, {}, "", true},
      {{1, 3, 9, 64}, {3, 1, 3, 3}, 3, {}, {1, 1, 1, 1}, {}, "", false},
  };
}

TEST(ConvKernel, MatchesDirectLoops) {
  unsigned seed = 1;
  int index = 0;
  for (const ConvCase &c : convCases()) {
    Geo g = convGeometry(c);
    Shape y = {c.x[0], c.w[0]};
    for (size_t i = 0; i + 2 < c.x.size(); ++i)
      y.push_back(g.out[3 - (c.x.size() - 2) + i]);
    om::OpDef op = makeOp("conv", c, y);
    if (index % 2)
      setInts(op, "kernel_shape", Shape(c.w.begin() + 2, c.w.end()));
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> w = random(count(c.w), seed++);
    std::vector<float> b = random(c.w[0], seed++);
    std::vector<float> want = referenceConv(c, g, x, w, b, c.w[0]);
    // 7 blocks on 7 host threads: each host share of a kernel that splits
    // its own work (positions or channels of a positions-as-rows GEMM, whose
    // weights are constant).
    struct Run {
      uint32_t blocks;
      bool threads, constantWeight;
    };
    for (Run r : {Run{1, false, false}, Run{3, false, true},
                  Run{7, true, false}, Run{7, true, true}}) {
      SCOPED_TRACE("case " + std::to_string(index) + " blocks " +
                   std::to_string(r.blocks) + (r.threads ? " threads" : "") +
                   (r.constantWeight ? " constant W" : ""));
      std::vector<float> got(want.size(), 12345.0f);
      rt::Status st = runConv(op, {x.data(), w.data(), b.data()}, got.data(),
                              r.blocks, r.threads, r.constantWeight);
      ASSERT_TRUE(st.isOk()) << st.toString();
      expectNearAbs(got, want);
    }
    ++index;
  }
}

TEST(ConvKernel, PlanSplitsAndCounts) {
  // Dilated: not Winograd's (ConvFastPathTest.cpp checks its count).
  ConvCase c{{1, 64, 56, 56}, {64, 64, 3, 3}, 1,  {},
             {2, 2, 2, 2},    {2, 2},         "", true};
  om::OpDef op = makeOp("conv", c, {1, 64, 56, 56});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAic);
  EXPECT_GT(plan.maxBlocks, 4u);
  double outputs = 64.0 * 56 * 56;
  EXPECT_DOUBLE_EQ(plan.cost.flops, 2.0 * 64 * 9 * outputs + outputs);
  EXPECT_DOUBLE_EQ(plan.cost.bytes,
                   4.0 * (outputs + 64 * 64 * 9 + outputs + 64));
}

/// ONNX's activations, for the fused ops' reference.
float activate(const std::string &name, const std::vector<float> &p, float x) {
  if (name == "relu")
    return std::max(x, 0.0f);
  if (name == "sigmoid")
    return 1.0f / (1.0f + std::exp(-x));
  if (name == "tanh")
    return std::tanh(x);
  if (name == "hard_swish")
    return x * std::min(1.0f, std::max(0.0f, x / 6.0f + 0.5f));
  if (name == "leaky_relu")
    return x < 0 ? x * (p.empty() ? 0.01f : p[0]) : x;
  if (name == "clip")
    return std::min(p[1], std::max(p[0], x));
  if (name == "hard_sigmoid") {
    float a = p.empty() ? 0.2f : p[0], b = p.empty() ? 0.5f : p[1];
    return std::min(1.0f, std::max(0.0f, a * x + b));
  }
  if (name == "gelu")
    return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f)));
  if (name == "swish")
    return x / (1.0f + std::exp(-(p.empty() ? 1.0f : p[0]) * x));
  if (name == "gelu_tanh")
    return 0.5f * x *
           (1.0f + std::tanh(std::sqrt(2.0f / float(M_PI)) *
                             (x + 0.044715f * x * x * x)));
  return x;
}

TEST(FusedConvKernel, AppliesActivation) {
  struct Act {
    std::string name;
    std::vector<float> params;
  };
  std::vector<Act> acts = {{"none", {}},         {"relu", {}},
                           {"sigmoid", {}},      {"tanh", {}},
                           {"hard_swish", {}},   {"leaky_relu", {0.1f}},
                           {"leaky_relu", {}},   {"clip", {-0.2f, 0.3f}},
                           {"hard_sigmoid", {}}, {"hard_sigmoid", {0.3f, 0.4f}},
                           {"gelu", {}},         {"gelu_tanh", {}},
                           {"swish", {}},        {"swish", {1.702f}}};
  std::vector<ConvCase> cases = {
      {{1, 3, 7, 8}, {5, 3, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 4, 9, 9}, {4, 1, 3, 3}, 4, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      {{1, 3, 12, 13}, {3, 1, 3, 3}, 3, {}, {1, 1, 1, 1}, {}, "", true},
      {{2, 8, 5, 5}, {6, 8, 1, 1}, 1, {}, {}, {}, "", false},
      {{1, 64, 3, 3}, {96, 64, 1, 1}, 1, {}, {}, {}, "", true},
  };
  unsigned seed = 900;
  for (const ConvCase &c : cases)
    for (const Act &act : acts) {
      Geo g = convGeometry(c);
      Shape y = {c.x[0], c.w[0]};
      for (size_t i = 0; i + 2 < c.x.size(); ++i)
        y.push_back(g.out[3 - (c.x.size() - 2) + i]);
      om::OpDef op = makeOp("fused_conv", c, y);
      (*op.mutable_attr())["activation"].set_s(act.name);
      if (!act.params.empty())
        for (float v : act.params)
          (*op.mutable_attr())["activation_params"].mutable_list()->add_f(v);
      std::vector<float> x = random(count(c.x), seed++);
      std::vector<float> w = random(count(c.w), seed++);
      std::vector<float> b = random(c.w[0], seed++);
      std::vector<float> want = referenceConv(c, g, x, w, b, c.w[0]);
      for (float &v : want)
        v = activate(act.name, act.params, v);
      for (uint32_t blocks : {1u, 3u}) {
        SCOPED_TRACE(act.name + " blocks " + std::to_string(blocks));
        std::vector<float> got(want.size(), 12345.0f);
        rt::Status st = runConv(op, {x.data(), w.data(), b.data()}, got.data(),
                                blocks, /*threads=*/false,
                                /*constantWeight=*/blocks == 3);
        ASSERT_TRUE(st.isOk()) << st.toString();
        expectNearAbs(got, want);
      }
    }
}

TEST(FusedConvKernel, RejectsUnknownActivation) {
  ConvCase c{{1, 2, 4, 4}, {2, 2, 1, 1}, 1, {}, {}, {}, "", false};
  om::OpDef op = makeOp("fused_conv", c, {1, 2, 4, 4});
  (*op.mutable_attr())["activation"].set_s("mish");
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("activation 'mish'"), std::string::npos);
}

// Y = act(conv(X, W) + B + Z): Z is added before the activation, on the
// im2col, pointwise, positions-as-rows and depthwise paths, with and without
// a bias (an absent B is a placeholder input before Z).
TEST(FusedConvKernel, AddsResidualBeforeActivation) {
  std::vector<ConvCase> cases = {
      {{1, 3, 7, 8}, {5, 3, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      {{1, 4, 9, 9}, {4, 1, 3, 3}, 4, {2, 2}, {1, 1, 1, 1}, {}, "", true},
      {{1, 3, 12, 13}, {3, 1, 3, 3}, 3, {}, {1, 1, 1, 1}, {}, "", true},
      {{2, 8, 5, 5}, {6, 8, 1, 1}, 1, {}, {}, {}, "", false},
      {{1, 64, 3, 3}, {96, 64, 1, 1}, 1, {}, {}, {}, "", true},
      {{1, 24, 7, 7}, {40, 24, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true},
      // Maps large enough for the column tiles (1x1 and strided im2col),
      // whose packed GEMM adds Z in registers.
      {{1, 16, 12, 12}, {24, 16, 1, 1}, 1, {}, {}, {}, "", true},
      {{1, 8, 40, 40}, {12, 8, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", false},
      {{1, 8, 9, 9}, {200, 8, 1, 1}, 1, {}, {}, {}, "", true},
  };
  unsigned seed = 1300;
  for (const ConvCase &c : cases) {
    Geo g = convGeometry(c);
    Shape y = {c.x[0], c.w[0]};
    for (size_t i = 0; i + 2 < c.x.size(); ++i)
      y.push_back(g.out[3 - (c.x.size() - 2) + i]);
    om::OpDef op = makeOp("fused_conv", c, y);
    if (!c.bias)
      op.add_input_desc()->set_dtype(om::DT_UNDEFINED);
    *op.add_input_desc() = desc(y);
    (*op.mutable_attr())["activation"].set_s("relu");
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> w = random(count(c.w), seed++);
    std::vector<float> b = random(c.w[0], seed++);
    std::vector<float> z = random(count(y), seed++);
    std::vector<float> want = referenceConv(c, g, x, w, b, c.w[0]);
    for (size_t i = 0; i < want.size(); ++i)
      want[i] = std::max(0.0f, want[i] + z[i]);
    KernelPlan plan;
    ASSERT_TRUE(planKernel(op, &plan).isOk());
    // The residual is read once more and added once per output.
    op.mutable_input_desc()->RemoveLast();
    if (!c.bias)
      op.mutable_input_desc()->RemoveLast();
    KernelPlan withoutZ;
    ASSERT_TRUE(planKernel(op, &withoutZ).isOk());
    EXPECT_DOUBLE_EQ(plan.cost.bytes - withoutZ.cost.bytes, 4.0 * want.size());
    EXPECT_DOUBLE_EQ(plan.cost.flops - withoutZ.cost.flops,
                     double(want.size()));
    if (!c.bias)
      op.add_input_desc()->set_dtype(om::DT_UNDEFINED);
    *op.add_input_desc() = desc(y);
    for (uint32_t blocks : {1u, 3u, 7u}) {
      SCOPED_TRACE("blocks " + std::to_string(blocks));
      std::vector<float> got(want.size(), 12345.0f);
      // Three and seven blocks: W a constant, so the epilogue runs inside
      // the packed GEMM; seven on as many threads, each with its share.
      rt::Status st = runConv(
          op, {x.data(), w.data(), c.bias ? b.data() : nullptr, z.data()},
          got.data(), blocks, /*threads=*/blocks == 7,
          /*constantWeight=*/blocks > 1);
      ASSERT_TRUE(st.isOk()) << st.toString();
      expectNearAbs(got, want);
    }
  }
}

TEST(FusedConvKernel, RejectsResidualOfAnotherShape) {
  ConvCase c{{1, 2, 4, 4}, {2, 2, 1, 1}, 1, {}, {}, {}, "", true};
  om::OpDef op = makeOp("fused_conv", c, {1, 2, 4, 4});
  *op.add_input_desc() = desc({1, 2, 1, 1});
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("residual Z must have Y's shape"),
            std::string::npos);
}

TEST(ConvKernel, SmallFeatureMapStillSplits) {
  ConvCase c{
      {1, 512, 7, 7}, {512, 512, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true};
  om::OpDef op = makeOp("conv", c, {1, 512, 7, 7});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_GE(plan.maxBlocks, 16u);
}

TEST(ConvKernel, Errors) {
  ConvCase c{{1, 4, 5, 5}, {4, 2, 3, 3}, 3, {}, {}, {}, "", false};
  om::OpDef op = makeOp("conv", c, {1, 4, 3, 3});
  KernelPlan plan;
  rt::Status st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("node 'conv0' (conv)"), std::string::npos);
  EXPECT_NE(st.message().find("group"), std::string::npos);

  c.group = 2;
  op = makeOp("conv", c, {1, 4, 3, 3});
  (*op.mutable_attr())["auto_pad"].set_s("SAME_MIDDLE");
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("auto_pad"), std::string::npos);

  op = makeOp("conv", c, {1, 4, 3, 3});
  op.mutable_input_desc(0)->set_dtype(om::DT_FLOAT16);
  st = planKernel(op, &plan);
  ASSERT_FALSE(st.isOk());
  EXPECT_NE(st.message().find("float16"), std::string::npos);
}

// One ResNet-style conv on one block: prints GFLOP/s for comparison, with W
// known only at run time (nn::gemm) and as a constant (packed at creation).
// It runs Winograd (ConvWinograd.h): the figure counts the direct conv's
// FLOPs, so it compares with the direct path's earlier figures.
TEST(ConvKernel, SpeedOfOne3x3Conv) {
  ConvCase c{
      {1, 64, 56, 56}, {64, 64, 3, 3}, 1, {}, {1, 1, 1, 1}, {}, "", true};
  om::OpDef op = makeOp("conv", c, {1, 64, 56, 56});
  std::vector<float> x = random(count(c.x), 1), w = random(count(c.w), 2),
                     b = random(64, 3), y(64 * 56 * 56);
  TensorView in[3] = {{x.data(), &op.input_desc(0)},
                      {w.data(), &op.input_desc(1)},
                      {b.data(), &op.input_desc(2)}};
  TensorView out{y.data(), &op.output_desc(0)};
  for (bool constantWeight : {false, true}) {
    KernelSpec spec;
    spec.op = &op;
    spec.constantInputs.assign(3, nullptr);
    if (constantWeight)
      spec.constantInputs[1] = w.data();
    std::unique_ptr<Kernel> kernel;
    ASSERT_TRUE(createKernel(spec, &kernel).isOk());
    ASSERT_TRUE(kernel->run(in, &out, 0, 1).isOk()); // warm-up
    // Best of several runs: the host is shared, the minimum is the figure.
    double best = 1e9;
    for (int i = 0; i < 8; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      ASSERT_TRUE(kernel->run(in, &out, 0, 1).isOk());
      best = std::min(best, std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - t0)
                                .count());
    }
    double flops = 2.0 * 64 * 64 * 9 * 56 * 56;
    std::printf("conv 1x64x56x56 3x3 -> 64, one block, W %s: %.2f ms, %.1f "
                "GFLOP/s\n",
                constantWeight ? "constant" : "at run time", 1e3 * best,
                flops / best / 1e9);
  }
}

//===----------------------------------------------------------------------===//
// conv_transpose
//===----------------------------------------------------------------------===//

/// ONNX ConvTranspose output size and begin pads from the operator spec.
Geo convTransposeGeometry(const ConvCase &c, int64_t m) {
  size_t r = c.x.size() - 2;
  Shape st = valueOr(c.strides, r, 1), dl = valueOr(c.dilations, r, 1),
        pd = valueOr(c.pads, 2 * r, 0), op = valueOr(c.outputPadding, r, 0);
  Geo g; // in = X's spatial dims, out = Y's
  for (size_t i = 0; i < r; ++i) {
    size_t j = 3 - r + i;
    g.in[j] = c.x[2 + i];
    g.k[j] = c.w[2 + i];
    g.s[j] = st[i];
    g.d[j] = dl[i];
    int64_t span = (g.k[j] - 1) * g.d[j] + 1;
    if (!c.outputShape.empty() || c.autoPad == "SAME_UPPER" ||
        c.autoPad == "SAME_LOWER") {
      g.out[j] = c.outputShape.empty() ? g.in[j] * g.s[j] : c.outputShape[i];
      int64_t total = std::max<int64_t>(0, g.s[j] * (g.in[j] - 1) + op[i] +
                                               span - g.out[j]);
      g.pb[j] = c.autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
    } else {
      g.pb[j] = pd[i];
      g.out[j] = g.s[j] * (g.in[j] - 1) + op[i] + span - pd[i] - pd[i + r];
    }
  }
  return g;
}

std::vector<float> referenceConvTranspose(const ConvCase &c, const Geo &g,
                                          const std::vector<float> &x,
                                          const std::vector<float> &w,
                                          const std::vector<float> &b,
                                          int64_t m) {
  int64_t n = c.x[0], ch = c.x[1], cg = ch / c.group, mg = m / c.group;
  int64_t inSz = g.in[0] * g.in[1] * g.in[2],
          outSz = g.out[0] * g.out[1] * g.out[2];
  int64_t kSz = g.k[0] * g.k[1] * g.k[2];
  std::vector<double> y(n * m * outSz, 0.0);
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t mi = 0; mi < m; ++mi)
      for (int64_t o = 0; o < outSz; ++o)
        y[(ni * m + mi) * outSz + o] = c.bias ? b[mi] : 0.0;
  for (int64_t ni = 0; ni < n; ++ni)
    for (int64_t ci = 0; ci < ch; ++ci) {
      int64_t grp = ci / cg;
      for (int64_t mj = 0; mj < mg; ++mj)
        for (int64_t i0 = 0; i0 < g.in[0]; ++i0)
          for (int64_t i1 = 0; i1 < g.in[1]; ++i1)
            for (int64_t i2 = 0; i2 < g.in[2]; ++i2)
              for (int64_t k0 = 0; k0 < g.k[0]; ++k0)
                for (int64_t k1 = 0; k1 < g.k[1]; ++k1)
                  for (int64_t k2 = 0; k2 < g.k[2]; ++k2) {
                    int64_t o0 = i0 * g.s[0] - g.pb[0] + k0 * g.d[0];
                    int64_t o1 = i1 * g.s[1] - g.pb[1] + k1 * g.d[1];
                    int64_t o2 = i2 * g.s[2] - g.pb[2] + k2 * g.d[2];
                    if (o0 < 0 || o0 >= g.out[0] || o1 < 0 || o1 >= g.out[1] ||
                        o2 < 0 || o2 >= g.out[2])
                      continue;
                    float xv = x[(ni * ch + ci) * inSz +
                                 (i0 * g.in[1] + i1) * g.in[2] + i2];
                    float wv = w[(ci * mg + mj) * kSz +
                                 (k0 * g.k[1] + k1) * g.k[2] + k2];
                    y[(ni * m + grp * mg + mj) * outSz +
                      (o0 * g.out[1] + o1) * g.out[2] + o2] += double(xv) * wv;
                  }
    }
  return std::vector<float>(y.begin(), y.end());
}

TEST(ConvTransposeKernel, MatchesDirectLoops) {
  std::vector<ConvCase> cases = {
      {{1, 2, 3, 3}, {2, 3, 3, 3}, 1, {}, {}, {}, "", false},
      {{1, 2, 3, 3},
       {2, 3, 3, 3},
       1,
       {2, 2},
       {1, 1, 1, 1},
       {},
       "",
       true,
       {1, 1}},
      {{2, 4, 4, 3}, {4, 3, 3, 3}, 2, {2, 1}, {0, 1, 1, 0}, {1, 2}, "", true},
      {{1, 1, 3, 3}, {1, 2, 3, 3}, 1, {3, 2}, {}, {}, "", false, {}, {10, 8}},
      {{1, 2, 4, 4},
       {2, 2, 3, 3},
       1,
       {2, 2},
       {0, 0, 0, 0},
       {},
       "",
       true,
       {},
       {7, 8}},
      {{1, 2, 5}, {2, 2, 3}, 1, {2}, {0, 1}, {}, "", true},
      {{1, 1, 3, 3}, {1, 2, 3, 3}, 1, {2, 2}, {}, {}, "SAME_UPPER", false},
      {{1, 1, 3, 4}, {1, 2, 2, 3}, 1, {2, 2}, {}, {}, "SAME_LOWER", true},
      {{1, 2, 3, 4, 2},
       {2, 3, 2, 3, 2},
       1,
       {2, 1, 2},
       {1, 0, 0, 0, 1, 1},
       {},
       "",
       true},
      {{2, 6, 5, 5},
       {6, 1, 3, 3},
       6,
       {2, 2},
       {1, 1, 1, 1},
       {},
       "",
       true,
       {1, 1}},
      {{1, 8, 6, 6}, {8, 9, 4, 4}, 1, {2, 2}, {1, 1, 1, 1}, {}, "", true},
  };
  unsigned seed = 50;
  int index = 0;
  for (const ConvCase &c : cases) {
    int64_t m = c.w[1] * c.group;
    Geo g = convTransposeGeometry(c, m);
    Shape y = {c.x[0], m};
    for (size_t i = 0; i + 2 < c.x.size(); ++i)
      y.push_back(g.out[3 - (c.x.size() - 2) + i]);
    om::OpDef op = makeOp("conv_transpose", c, y);
    std::vector<float> x = random(count(c.x), seed++);
    std::vector<float> w = random(count(c.w), seed++);
    std::vector<float> b = random(m, seed++);
    std::vector<float> want = referenceConvTranspose(c, g, x, w, b, m);
    for (uint32_t blocks : {1u, 3u, 7u}) {
      SCOPED_TRACE("case " + std::to_string(index) + " blocks " +
                   std::to_string(blocks));
      std::vector<float> got(want.size(), 12345.0f);
      rt::Status st = runConv(op, {x.data(), w.data(), b.data()}, got.data(),
                              blocks, /*threads=*/blocks == 7);
      ASSERT_TRUE(st.isOk()) << st.toString();
      expectNearAbs(got, want);
    }
    ++index;
  }
}

} // namespace
