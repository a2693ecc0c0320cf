//===- ElementwiseMathTest.cpp - trig, celu, shrink, predicates, size -----===//

#include "tests/unit/kernels/KernelTestUtil.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// `type` over float x of shape [n] with the attributes of `b`.
std::vector<float> runFloatUnary(const std::string &type,
                                 const std::vector<float> &x, uint32_t blocks,
                                 OpBuilder b = OpBuilder("")) {
  om::OpDef op = b.op();
  op.set_type(type);
  int64_t n = static_cast<int64_t>(x.size());
  *op.add_input_desc() = makeDesc(om::DT_FLOAT, {n});
  *op.add_output_desc() = makeDesc(om::DT_FLOAT, {n});
  return runOp(op, {tensor<float>({n}, x)}, blocks)[0].values<float>();
}

/// The float predicate `type` over x: 0/1 per element.
std::vector<uint8_t> runPredicate(const std::string &type,
                                  const std::vector<float> &x,
                                  OpBuilder b = OpBuilder("")) {
  om::OpDef op = b.op();
  op.set_type(type);
  int64_t n = static_cast<int64_t>(x.size());
  *op.add_input_desc() = makeDesc(om::DT_FLOAT, {n});
  *op.add_output_desc() = makeDesc(om::DT_BOOL, {n});
  return runOp(op, {tensor<float>({n}, x)}, 3)[0].bytes;
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

} // namespace

TEST(ElementwiseMathTest, TrigAndHyperbolicMatchTheStandardLibrary) {
  // Inside (-1, 1) every inverse is defined; acosh gets x >= 1 below.
  std::vector<float> x = {-0.9f, -0.5f, -0.1f, 0.0f, 0.2f, 0.5f, 0.75f, 0.99f};
  struct Case {
    const char *type;
    double (*ref)(double);
  } cases[] = {
      {"tan", [](double v) { return std::tan(v); }},
      {"asin", [](double v) { return std::asin(v); }},
      {"acos", [](double v) { return std::acos(v); }},
      {"atan", [](double v) { return std::atan(v); }},
      {"sinh", [](double v) { return std::sinh(v); }},
      {"cosh", [](double v) { return std::cosh(v); }},
      {"asinh", [](double v) { return std::asinh(v); }},
      {"atanh", [](double v) { return std::atanh(v); }},
  };
  for (const Case &c : cases) {
    std::vector<float> expected;
    for (float v : x)
      expected.push_back(static_cast<float>(c.ref(v)));
    for (uint32_t blocks : kBlockDims) {
      SCOPED_TRACE(std::string(c.type) + " blocks " + std::to_string(blocks));
      expectNear(runFloatUnary(c.type, x, blocks), expected, 1e-5);
    }
  }
  expectNear(runFloatUnary("acosh", {1.0f, 1.5f, 10.0f}, 3),
             {0.0f, std::acosh(1.5f), std::acosh(10.0f)}, 1e-5);
  // Outside the domain: NaN, and atanh(±1) = ±inf, as the C library has it.
  std::vector<float> edge = runFloatUnary("asin", {2.0f}, 1);
  EXPECT_TRUE(std::isnan(edge[0]));
  EXPECT_EQ(runFloatUnary("atanh", {1.0f, -1.0f}, 1),
            (std::vector<float>{kInf, -kInf}));
}

TEST(ElementwiseMathTest, CeluThresholdedReluAndShrinkTakeOnnxDefaults) {
  std::vector<float> x = {-3.0f, -1.0f, -0.5f, -0.25f, 0.0f, 0.25f, 1.0f, 2.0f};
  std::vector<float> celu, thresholded, shrink;
  for (float v : x) {
    celu.push_back(std::max(0.0f, v) + std::min(0.0f, std::exp(v) - 1));
    thresholded.push_back(v > 1.0f ? v : 0.0f);
    shrink.push_back(v < -0.5f ? v : v > 0.5f ? v : 0.0f);
  }
  for (uint32_t blocks : kBlockDims) {
    expectNear(runFloatUnary("celu", x, blocks), celu, 1e-6);
    EXPECT_EQ(runFloatUnary("thresholded_relu", x, blocks), thresholded);
    EXPECT_EQ(runFloatUnary("shrink", x, blocks), shrink);
  }
}

TEST(ElementwiseMathTest, CeluThresholdedReluAndShrinkAttributes) {
  std::vector<float> x = {-3.0f, -1.0f, 0.0f, 1.0f, 2.0f, 3.0f};
  // celu with alpha 2: 2 * (e^(x/2) - 1) below zero.
  expectNear(runFloatUnary("celu", x, 1, OpBuilder("").attr("alpha", 2.0f)),
             {2 * (std::exp(-1.5f) - 1), 2 * (std::exp(-0.5f) - 1), 0, 1, 2, 3},
             1e-6);
  // The threshold is strict: 2 stays 0.
  EXPECT_EQ(runFloatUnary("thresholded_relu", x, 1,
                          OpBuilder("").attr("alpha", 2.0f)),
            (std::vector<float>{0, 0, 0, 0, 0, 3}));
  // Soft shrink: lambd 1.5, bias 1.5.
  EXPECT_EQ(runFloatUnary("shrink", x, 1,
                          OpBuilder("").attr("lambd", 1.5f).attr("bias", 1.5f)),
            (std::vector<float>{-1.5f, 0, 0, 0, 0.5f, 1.5f}));
}

TEST(ElementwiseMathTest, ShrinkOnIntegers) {
  // uint8: -lambd never wraps, x - bias stays in range above lambd.
  auto u = tensor<uint8_t>({5}, {0, 1, 2, 3, 255});
  om::OpDef op = OpBuilder("shrink")
                     .attr("lambd", 1.5f)
                     .attr("bias", 1.0f)
                     .input(u)
                     .output(om::DT_UINT8, {5});
  EXPECT_EQ(runOp(op, {u}, 3)[0].values<uint8_t>(),
            (std::vector<uint8_t>{0, 0, 1, 2, 254}));
  auto i = tensor<int32_t>({5}, {-5, -2, 0, 2, 5});
  om::OpDef signedOp = OpBuilder("shrink")
                           .attr("lambd", 2.0f)
                           .attr("bias", 1.0f)
                           .input(i)
                           .output(om::DT_INT32, {5});
  EXPECT_EQ(runOp(signedOp, {i}, 1)[0].values<int32_t>(),
            (std::vector<int32_t>{-4, 0, 0, 0, 4}));
}

TEST(ElementwiseMathTest, SignOnUnsignedAndSignedIntegers) {
  auto u = tensor<uint8_t>({3}, {0, 1, 200});
  om::OpDef op = OpBuilder("sign").input(u).output(om::DT_UINT8, {3});
  EXPECT_EQ(runOp(op, {u}, 1)[0].values<uint8_t>(),
            (std::vector<uint8_t>{0, 1, 1}));
  auto i = tensor<int16_t>({3}, {-300, 0, 7});
  om::OpDef signedOp = OpBuilder("sign").input(i).output(om::DT_INT16, {3});
  EXPECT_EQ(runOp(signedOp, {i}, 1)[0].values<int16_t>(),
            (std::vector<int16_t>{-1, 0, 1}));
}

TEST(ElementwiseMathTest, IsInfAndIsNaN) {
  std::vector<float> x = {-kInf, -1.0f, 0.0f, kNaN, 3.5f, kInf};
  EXPECT_EQ(runPredicate("is_inf", x),
            (std::vector<uint8_t>{1, 0, 0, 0, 0, 1}));
  EXPECT_EQ(runPredicate("is_inf", x,
                         OpBuilder("").attr("detect_negative", int64_t(0))),
            (std::vector<uint8_t>{0, 0, 0, 0, 0, 1}));
  EXPECT_EQ(runPredicate("is_inf", x,
                         OpBuilder("").attr("detect_positive", int64_t(0))),
            (std::vector<uint8_t>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(runPredicate("is_nan", x),
            (std::vector<uint8_t>{0, 0, 0, 1, 0, 0}));
  // A predicate writes bool: an output of another dtype is refused.
  om::OpDef wrong =
      OpBuilder("is_nan").input(om::DT_FLOAT, {4}).output(om::DT_FLOAT, {4});
  KernelPlan plan;
  EXPECT_FALSE(planKernel(wrong, &plan).isOk());
  // double input, bool output over several blocks.
  std::vector<double> big(9000, 1.0);
  big[4500] = std::numeric_limits<double>::quiet_NaN();
  auto t = tensor<double>({9000}, big);
  om::OpDef op = OpBuilder("is_nan").input(t).output(om::DT_BOOL, {9000});
  for (uint32_t blocks : kBlockDims) {
    std::vector<uint8_t> got = runOp(op, {t}, blocks)[0].bytes;
    ASSERT_EQ(got.size(), 9000u);
    EXPECT_EQ(std::count(got.begin(), got.end(), 1), 1);
    EXPECT_EQ(got[4500], 1);
  }
}

TEST(ElementwiseMathTest, SizeCountsElementsWithoutReadingThem) {
  auto x = tensor<float>({2, 3, 4}, std::vector<float>(24, 0.0f));
  om::OpDef op = OpBuilder("size").input(x).output(om::DT_INT64, {});
  EXPECT_EQ(runOp(op, {x}, 1)[0].values<int64_t>(), (std::vector<int64_t>{24}));
  auto empty = tensor<float>({3, 0}, {});
  om::OpDef none = OpBuilder("size").input(empty).output(om::DT_INT64, {});
  EXPECT_EQ(runOp(none, {empty}, 1)[0].values<int64_t>(),
            (std::vector<int64_t>{0}));
  KernelPlan plan;
  ASSERT_TRUE(planKernel(op, &plan).isOk());
  EXPECT_EQ(plan.maxBlocks, 1u);
  EXPECT_EQ(plan.cost.bytes, 8.0);
  om::OpDef wrong = OpBuilder("size").input(x).output(om::DT_FLOAT, {});
  EXPECT_FALSE(planKernel(wrong, &plan).isOk());
}

// The new float steps run in a fused program with the standalone ops' row
// functions and the step_params in GE_PARAMS order: atan, celu [alpha],
// mod (float: fmod) by a scalar, shrink [bias, lambd], thresholded_relu.
TEST(ElementwiseMathTest, NewStepsRunInAFusedProgram) {
  std::vector<float> x = random(3000, 7, -3, 3);
  std::vector<HostTensor> in = {tensor<float>({3000}, x),
                                tensor<float>({1}, {0.7f})};
  OpBuilder b("fused_elementwise", "chain");
  b.input(in[0]).input(in[1]).output(om::DT_FLOAT, {3000});
  // values: 0 x, 1 the divisor; steps 2..6
  b.attrInts("step_operands", {0, -1, 2, -1, 3, 1, 4, -1, 5, -1});
  b.attrFloats("step_params", {0, 0, 0.5f, 0, 0, 0, 0.1f, 0.2f, 0.05f, 0});
  om::OpDef op = b.op();
  for (const char *step : {"atan", "celu", "mod", "shrink", "thresholded_relu"})
    (*op.mutable_attr())["steps"].mutable_list()->add_s(step);
  std::vector<float> want;
  for (float v : x) {
    float t = std::atan(v);
    t = std::max(0.0f, t) + std::min(0.0f, 0.5f * (std::exp(t / 0.5f) - 1));
    t = std::fmod(t, 0.7f);
    t = t < -0.2f ? t + 0.1f : t > 0.2f ? t - 0.1f : 0.0f;
    want.push_back(t > 0.05f ? t : 0.0f);
  }
  for (uint32_t blocks : kBlockDims)
    expectNear(runOp(op, in, blocks)[0].values<float>(), want, 1e-5);
}
