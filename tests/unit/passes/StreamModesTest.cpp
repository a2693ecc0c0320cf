//===- StreamModesTest.cpp - --streams single|label|auto end to end -------===//
//
// The whole pipeline (compileModule) on small graphs written as IR, run on the
// simulated device: the stream ids and events each mode gives, the outputs
// (which no mode may change) and the simulated makespans `auto` is judged by.
//
//===----------------------------------------------------------------------===//

#include "RunModel.h"
#include "TestSupport.h"

#include "passes/Pipeline.h"

#include <map>
#include <random>

using namespace geflow;
using namespace geflow::passes;

namespace {

// torchair's example in its scope form: add_result on the main stream;
// mm_result on stream "1" after add_result; mm1 on the main stream; add2 on
// stream "2" after mm_result.
constexpr const char *kTorchair = R"mlir(
func.func @main(%in1: tensor<64x64xf32>, %in2: tensor<64x64xf32>,
                %in3: tensor<64x64xf32>, %in4: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %add_result = ge.add %in1, %in2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("add_result")
  %mm_result = ge.npu_stream_switch "1" priority(0) inner_parallel(false) {
    %a = ge.npu_wait_tensor %in3, %add_result : tensor<64x64xf32>, tensor<64x64xf32>
    %m = ge.matmul %a, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm_result")
    ge.yield %m : tensor<64x64xf32>
  } : tensor<64x64xf32>
  %mm1 = ge.matmul %in3, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm1")
  %add2 = ge.npu_stream_switch "2" priority(0) inner_parallel(false) {
    %b = ge.npu_wait_tensor %in3, %mm_result : tensor<64x64xf32>, tensor<64x64xf32>
    %s = ge.add %b, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32> loc("add2")
    ge.yield %s : tensor<64x64xf32>
  } : tensor<64x64xf32>
  return %add_result, %mm_result, %mm1, %add2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
)mlir";

/// Four independent matmul chains joined at the end; each matmul is too
/// small to use more than a quarter of the 24 cube cores. The weights are
/// constants, as in a real model, so the input copy is only x.
std::string fourBranches() {
  std::string ir = R"mlir(
func.func @main(%x: tensor<32x128xf32>) -> tensor<32x128xf32> {
)mlir";
  // Weights of their own, or CSE would fold the branches into one.
  for (char branch : {'a', 'b', 'c', 'd'}) {
    std::string weight = "%w" + std::string(1, branch);
    ir += "  " + weight + " = ge.constant dense<0.0" +
          std::to_string(branch - 'a' + 1) + "> : tensor<128x128xf32>\n";
    std::string prev = "%x";
    for (int k = 0; k < 16; ++k) {
      std::string name = "%" + std::string(1, branch) + std::to_string(k);
      ir += "  " + name + " = ge.matmul " + prev + ", " + weight +
            " : (tensor<32x128xf32>, tensor<128x128xf32>) -> "
            "tensor<32x128xf32>\n";
      prev = name;
    }
  }
  ir += R"mlir(
  %ab = ge.add %a15, %b15 : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  %cd = ge.add %c15, %d15 : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  %all = ge.add %ab, %cd : (tensor<32x128xf32>, tensor<32x128xf32>) -> tensor<32x128xf32>
  return %all : tensor<32x128xf32>
}
)mlir";
  return ir;
}

constexpr const char *kChain = R"mlir(
func.func @main(%x: tensor<128x128xf32>, %w: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %0 = ge.matmul %x, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %1 = ge.relu %0 : tensor<128x128xf32>
  %2 = ge.matmul %1, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %3 = ge.sigmoid %2 : tensor<128x128xf32>
  %4 = ge.matmul %3, %w : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>
  %5 = ge.tanh %4 : tensor<128x128xf32>
  return %5 : tensor<128x128xf32>
}
)mlir";

llvm::Expected<om::OmModel> compile(const std::string &ir, StreamMode mode) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module = fixtures::parse(context, ir);
  if (!module)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "the test IR does not parse");
  CompileOptions options;
  options.streamMode = mode;
  return compileModule(*module, options);
}

om::OmModel compileOrFail(const std::string &ir, StreamMode mode) {
  llvm::Expected<om::OmModel> model = compile(ir, mode);
  if (!model) {
    ADD_FAILURE() << llvm::toString(model.takeError());
    return {};
  }
  return std::move(*model);
}

std::vector<std::vector<float>> randomInputs(const om::OmModel &model) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<std::vector<float>> inputs;
  for (const om::OpDef &op : model.modelDef.graph(0).op()) {
    if (op.type() != "Data")
      continue;
    int64_t elements = 1;
    for (int64_t d : op.output_desc(0).shape())
      elements *= d;
    inputs.emplace_back(elements);
    for (float &f : inputs.back())
      f = value(rng) / 16; // small, so chained matmuls stay finite
  }
  return inputs;
}

/// stream_id of each compute op, by name.
std::map<std::string, int64_t> streamsByName(const om::OmModel &model) {
  std::map<std::string, int64_t> streams;
  for (const om::OpDef &op : model.modelDef.graph(0).op())
    streams[op.name()] = op.stream_id();
  return streams;
}

TEST(StreamModes, TorchairExampleHasItsStreamsTwoEventsAndItsOutputs) {
  om::OmModel model = compileOrFail(kTorchair, StreamMode::kLabel);
  ASSERT_FALSE(::testing::Test::HasFailure());
  std::map<std::string, int64_t> streams = streamsByName(model);
  EXPECT_EQ(streams["add_result"], 0);
  EXPECT_EQ(streams["mm_result"], 1);
  EXPECT_EQ(streams["mm1"], 0);
  EXPECT_EQ(streams["add2"], 2);
  EXPECT_EQ(model.taskDef.stream_num(), 3u);
  EXPECT_EQ(model.taskDef.event_num(), 2u);

  std::vector<std::vector<float>> in = randomInputs(model);
  fixtures::RunResult run = fixtures::runModel(model, in);
  ASSERT_EQ(run.outputs.size(), 4u);
  // Spot checks against the definitions, then every mode against single.
  for (int i : {0, 1000, 4095}) {
    int row = i / 64, col = i % 64;
    float mm = 0;
    for (int k = 0; k < 64; ++k)
      mm += in[2][row * 64 + k] * in[3][k * 64 + col];
    EXPECT_FLOAT_EQ(run.outputs[0][i], in[0][i] + in[1][i]);
    EXPECT_NEAR(run.outputs[1][i], mm, 1e-5);
    EXPECT_NEAR(run.outputs[2][i], mm, 1e-5);
    EXPECT_FLOAT_EQ(run.outputs[3][i], in[2][i] + in[3][i]);
  }
  om::OmModel autoModel = compileOrFail(kTorchair, StreamMode::kAuto);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(fixtures::runModel(autoModel, in).outputs, run.outputs);
}

TEST(StreamModes, SingleRejectsUserStreamLabels) {
  llvm::Expected<om::OmModel> model = compile(kTorchair, StreamMode::kSingle);
  ASSERT_FALSE(model);
  EXPECT_EQ(llvm::toString(model.takeError()),
            "node 'mm_result': _user_stream_label '1' needs its own stream, "
            "but --streams single puts every op on one stream");
}

TEST(StreamModes, AutoRunsFourSmallBranchesAtOnce) {
  std::string ir = fourBranches();
  om::OmModel single = compileOrFail(ir, StreamMode::kSingle);
  om::OmModel automatic = compileOrFail(ir, StreamMode::kAuto);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(single.taskDef.stream_num(), 1u);
  EXPECT_EQ(automatic.taskDef.stream_num(), 4u);
  for (const om::TaskDef &task : automatic.taskDef.task())
    if (task.type() == om::KERNEL && task.engine() == om::AIC) {
      EXPECT_LE(task.block_dim(), 6u) << "a branch uses more than a quarter";
    }

  std::vector<std::vector<float>> in = randomInputs(single);
  fixtures::RunResult one = fixtures::runModel(single, in);
  fixtures::RunResult four = fixtures::runModel(automatic, in);
  EXPECT_EQ(four.outputs, one.outputs);
  ASSERT_GT(one.deviceTimeNs, 0u);
  double ratio = double(four.deviceTimeNs) / double(one.deviceTimeNs);
  EXPECT_LE(ratio, 0.35) << four.deviceTimeNs << " ns against "
                         << one.deviceTimeNs << " ns on one stream";
}

TEST(StreamModes, AutoKeepsAChainOnOneStream) {
  om::OmModel model = compileOrFail(kChain, StreamMode::kAuto);
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(model.taskDef.stream_num(), 1u);
  EXPECT_EQ(model.taskDef.event_num(), 0u);
}

} // namespace
