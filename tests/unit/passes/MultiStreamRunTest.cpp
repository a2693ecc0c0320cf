//===- MultiStreamRunTest.cpp - hand-set streams run like one stream ------===//
//
// End to end: IR with `ge.stream` set by hand goes through ge-insert-events,
// ge-plan-memory and task emission, runs on the simulated device, and gives
// the outputs of the same graph on one stream.
//
//===----------------------------------------------------------------------===//

#include "RunModel.h"
#include "TaskOrderCheck.h"
#include "TestSupport.h"

#include "passes/Passes.h"
#include "passes/emit/OmEmitter.h"

#include "runtime/soc/SocSpec.h"

#include <random>

using namespace geflow;
using namespace geflow::passes;

namespace {

// torchair's npu_stream_switch / npu_wait_tensor example, plus a tail that
// crosses streams twice more so the memory plan has buffers to reuse.
constexpr const char *kTorchairIr = R"mlir(
func.func @main(%in1: tensor<64x64xf32>, %in2: tensor<64x64xf32>,
                %in3: tensor<64x64xf32>, %in4: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>,
        tensor<64x64xf32>, tensor<64x64xf32>) {
  %add_result = ge.add %in1, %in2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %w1 = ge.npu_wait_tensor %in4, %add_result : tensor<64x64xf32>, tensor<64x64xf32>
  %mm_result = ge.matmul %in3, %w1 {ge.stream = 1 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %mm1 = ge.matmul %in3, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %w2 = ge.npu_wait_tensor %in4, %mm_result : tensor<64x64xf32>, tensor<64x64xf32>
  %add2 = ge.add %in3, %w2 {ge.stream = 2 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = ge.relu %mm1 : tensor<64x64xf32>
  %s = ge.sigmoid %r {ge.stream = 1 : i64} : tensor<64x64xf32>
  %t = ge.neg %s {ge.stream = 1 : i64} : tensor<64x64xf32>
  %u = ge.tanh %add_result : tensor<64x64xf32>
  %v = ge.mul %t, %u : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %x = ge.matmul %v, %add2 {ge.stream = 2 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %add_result, %mm_result, %mm1, %add2, %x : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
)mlir";

constexpr int kInputs = 4, kOutputs = 5, kElements = 64 * 64;

/// Compiles the IR, on its streams or with every ge.stream removed.
om::OmModel compile(const std::string &text, bool keepStreams) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module = fixtures::parse(context, text);
  EXPECT_TRUE(module);
  if (!module)
    return {};
  auto func = module->lookupSymbol<mlir::func::FuncOp>("main");
  if (!keepStreams)
    func.walk([](mlir::Operation *op) { op->removeAttr("ge.stream"); });
  EXPECT_TRUE(mlir::succeeded(insertEvents(func)));
  EXPECT_TRUE(mlir::succeeded(planMemory(func)));
  rt::SocSpec soc;
  EXPECT_TRUE(rt::loadSocSpec("ascend910b-sim", soc).isOk());
  auto model = emitOmModel(*module, soc);
  if (!model) {
    ADD_FAILURE() << llvm::toString(model.takeError());
    return {};
  }
  return std::move(*model);
}

TEST(MultiStreamRun, TorchairExampleGivesTheSingleStreamOutputs) {
  om::OmModel multi = compile(kTorchairIr, /*keepStreams=*/true);
  om::OmModel single = compile(kTorchairIr, /*keepStreams=*/false);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(multi.taskDef.stream_num(), 3u);
  EXPECT_EQ(single.taskDef.stream_num(), 1u);
  EXPECT_EQ(single.taskDef.event_num(), 0u);
  // add_result -> mm_result -> add2 (torchair's two), then %s on stream 1
  // after mm1, %v back on stream 0 after %t, %x on stream 2 after %v.
  EXPECT_EQ(multi.taskDef.event_num(), 5u);
  fixtures::TaskOrderReport report = fixtures::checkTaskOrder(multi);
  EXPECT_TRUE(report.violations.empty()) << report.violations.front();

  std::mt19937 rng(5);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<std::vector<float>> inputs(kInputs,
                                         std::vector<float>(kElements));
  for (auto &x : inputs)
    for (float &f : x)
      f = value(rng);
  std::vector<std::vector<float>> expected =
      fixtures::runModel(single, inputs).outputs;
  std::vector<std::vector<float>> actual =
      fixtures::runModel(multi, inputs).outputs;
  ASSERT_EQ(expected.size(), size_t(kOutputs));
  ASSERT_EQ(actual.size(), expected.size());
  for (int k = 0; k < kOutputs; ++k)
    EXPECT_EQ(actual[k], expected[k]) << "output " << k;
  // The reference itself: add_result = in1 + in2.
  EXPECT_FLOAT_EQ(expected[0][17], inputs[0][17] + inputs[1][17]);
}

} // namespace
