//===- FusedElementwiseTest.cpp - fused_elementwise and gelu vs loops
//------===//

#include "tests/unit/kernels/IsaTestUtil.h"
#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// fused_elementwise over `inputs` with the program `steps` / `operands`.
om::OpDef program(const std::vector<HostTensor> &inputs, const Shape &out,
                  const std::vector<std::string> &steps,
                  const std::vector<int64_t> &operands,
                  const std::vector<float> &params = {}) {
  OpBuilder b("fused_elementwise", "chain");
  for (const HostTensor &t : inputs)
    b.input(t);
  b.output(om::DT_FLOAT, out).attrInts("step_operands", operands);
  if (!params.empty())
    b.attrFloats("step_params", params);
  om::OpDef op = b.op();
  om::ListValue *names = (*op.mutable_attr())["steps"].mutable_list();
  for (const std::string &s : steps)
    names->add_s(s);
  return op;
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

// Add -> Mul -> Sigmoid -> Mul (a swish of an affine map), over several tiles
// and blocks, with a full input, a row broadcast (gathered) and a scalar.
TEST(FusedElementwiseKernel, SwishChainMatchesLoop) {
  const int64_t rows = 3, cols = 1500;
  std::vector<float> x = random(rows * cols, 1), bias = random(cols, 2);
  float c = 0.75f;
  std::vector<HostTensor> in = {tensor<float>({rows, cols}, x),
                                tensor<float>({cols}, bias),
                                tensor<float>({1}, {c})};
  // values: 0 x, 1 bias, 2 c; steps 3..6
  om::OpDef op = program(in, {rows, cols}, {"add", "mul", "sigmoid", "mul"},
                         {0, 1, 3, 2, 4, -1, 4, 5});
  std::vector<float> want(x.size());
  for (int64_t i = 0; i < rows * cols; ++i) {
    float t = (x[i] + bias[i % cols]) * c;
    want[i] = t * sigmoid(t);
  }
  expectNear(runAll<float>(op, in), want, 1e-5);
}

// A [3, 1] input broadcast along the inner dim (a repeated value per row),
// and the steps' float parameters (leaky_relu alpha, clip bounds).
TEST(FusedElementwiseKernel, ColumnBroadcastAndParams) {
  std::vector<float> x = random(15, 3, -4, 4), col = {0.5f, -1.0f, 2.0f};
  std::vector<HostTensor> in = {tensor<float>({3, 5}, x),
                                tensor<float>({3, 1}, col)};
  om::OpDef op = program(in, {3, 5}, {"sub", "leaky_relu", "clip"},
                         {0, 1, 2, -1, 3, -1}, {0, 0, 0.2f, 0, -0.5f, 1.5f});
  std::vector<float> want(15);
  for (int i = 0; i < 15; ++i) {
    float d = x[i] - col[i / 5];
    float l = d < 0 ? 0.2f * d : d;
    want[i] = std::min(1.5f, std::max(-0.5f, l));
  }
  expectNear(runAll<float>(op, in), want);
}

// A batch norm's programs (x * scale + shift per channel, then relu, clip
// or nothing; operands in either order; a scalar shift), which run as one
// pass per channel's plane, under each ISA: planes of 21 floats (vector
// tails), two images (the channels' runs wrap), several blocks.
TEST(FusedElementwiseKernel, BatchNormProgramsMatchLoop) {
  const int64_t images = 2, channels = 5, plane = 21;
  std::vector<float> x = random(images * channels * plane, 4, -3, 3);
  std::vector<float> scale = random(channels, 5), shift = random(channels, 6);
  const Shape shape = {images, channels, 3, 7};
  struct Case {
    std::vector<std::string> steps;
    std::vector<int64_t> operands;
    std::vector<float> params;
    bool scalarShift;
    float lo, hi;
  };
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const std::vector<Case> cases = {
      {{"mul", "add", "relu"}, {0, 1, 3, 2, 4, -1}, {}, false, 0.0f, kInf},
      {{"mul", "add", "clip"},
       {1, 0, 2, 3, 4, -1},
       {0, 0, 0, 0, -0.5f, 0.75f},
       false,
       -0.5f,
       0.75f},
      {{"mul", "add"}, {0, 1, 3, 2}, {}, true, -kInf, kInf},
  };
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    for (const Case &c : cases) {
      std::vector<HostTensor> in = {
          tensor<float>(shape, x), tensor<float>({1, channels, 1, 1}, scale),
          c.scalarShift ? tensor<float>({1}, {shift[0]})
                        : tensor<float>({1, channels, 1, 1}, shift)};
      om::OpDef op = program(in, shape, c.steps, c.operands, c.params);
      std::vector<float> want(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        const int64_t ch = static_cast<int64_t>(i) / plane % channels;
        const float v = x[i] * scale[ch] + shift[c.scalarShift ? 0 : ch];
        want[i] = std::min(std::max(v, c.lo), c.hi);
      }
      SCOPED_TRACE(std::string(cpu::isaName(isa)) + " " + c.steps.back());
      expectNear(runAll<float>(op, in), want, 1e-6);
    }
  }
}

// Without step_params every step takes ONNX's defaults (clip: no bounds).
TEST(FusedElementwiseKernel, DefaultParams) {
  std::vector<float> x = {-300.0f, -1.0f, 0.0f, 2.0f, 500.0f};
  std::vector<HostTensor> in = {tensor<float>({5}, x)};
  om::OpDef op = program(in, {5}, {"clip", "leaky_relu"}, {0, -1, 1, -1});
  std::vector<float> want;
  for (float v : x)
    want.push_back(v < 0 ? 0.01f * v : v);
  expectNear(runAll<float>(op, in), want);
}

TEST(GeluKernel, ErfAndTanhForms) {
  std::vector<float> x = random(5000, 4, -5, 5);
  std::vector<HostTensor> in = {tensor<float>({5000}, x)};
  for (const char *approximate : {"none", "tanh"}) {
    om::OpDef op = OpBuilder("gelu")
                       .input(in[0])
                       .output(om::DT_FLOAT, {5000})
                       .attr("approximate", approximate)
                       .op();
    std::vector<float> want;
    for (float v : x) {
      double d = v;
      want.push_back(static_cast<float>(
          std::string(approximate) == "none"
              ? 0.5 * d * (1 + std::erf(d / std::sqrt(2.0)))
              : 0.5 * d *
                    (1 + std::tanh(std::sqrt(2 / M_PI) *
                                   (d + 0.044715 * d * d * d)))));
    }
    expectNear(runAll<float>(op, in), want, 1e-5);
  }
}

TEST(SwishKernel, SiluAndScaledGate) {
  // Beyond +-88 exp overflows: the gate must give x and -0, not NaN.
  std::vector<float> x = random(5000, 5, -100, 100);
  x[0] = -1000.0f;
  std::vector<HostTensor> in = {tensor<float>({5000}, x)};
  for (float alpha : {1.0f, 1.702f}) {
    OpBuilder builder("swish");
    builder.input(in[0]).output(om::DT_FLOAT, {5000});
    if (alpha != 1.0f)
      builder.attr("alpha", alpha);
    std::vector<float> want;
    for (float v : x) {
      double d = v;
      want.push_back(static_cast<float>(d / (1 + std::exp(-alpha * d))));
    }
    expectNear(runAll<float>(builder.op(), in), want, 1e-5);
  }
}

TEST(FusedElementwiseKernel, RejectsBadPrograms) {
  std::vector<HostTensor> in = {tensor<float>({4}, {1, 2, 3, 4})};
  struct Case {
    std::vector<std::string> steps;
    std::vector<int64_t> operands;
    std::vector<float> params;
    const char *message;
  } cases[] = {
      {{"frobnicate"}, {0, -1}, {}, "step 0 (\"frobnicate\")"},
      {{"equal"}, {0, 0}, {}, "step 0 (\"equal\")"},
      {{"relu", "add"}, {0, -1, 1, 2}, {}, "step 1 reads a value"},
      {{"relu"}, {0, 0}, {}, "step 0 reads a value"},
      {{"relu"}, {0}, {}, "2 step_operands per step"},
      {{"relu"}, {0, -1}, {1}, "2 step_params per step"},
      {{}, {}, {}, "has no steps"},
  };
  for (const Case &c : cases) {
    om::OpDef op = program(in, {4}, c.steps, c.operands, c.params);
    KernelPlan plan;
    rt::Status st = planKernel(op, &plan);
    ASSERT_FALSE(st.isOk()) << c.message;
    EXPECT_NE(st.message().find("node 'chain' (fused_elementwise)"),
              std::string::npos)
        << st.message();
    EXPECT_NE(st.message().find(c.message), std::string::npos) << st.message();
  }
}

// The plan counts each input once and the output once: what fusion saves.
TEST(FusedElementwiseKernel, PlanReadsInputsOnce) {
  std::vector<HostTensor> in = {tensor<float>({1000}, random(1000, 5)),
                                tensor<float>({1}, {2.0f})};
  om::OpDef op =
      program(in, {1000}, {"mul", "tanh", "add"}, {0, 1, 2, -1, 3, 0});
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.engine, rt::Engine::kAiv);
  EXPECT_DOUBLE_EQ(plan.cost.bytes, 4.0 * (1000 + 1 + 1000));
  EXPECT_GT(plan.cost.flops, 1000 * 10.0);
}

} // namespace
