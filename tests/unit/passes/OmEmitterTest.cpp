//===- OmEmitterTest.cpp - the OM model task emission builds
//---------------===//

#include "TestSupport.h"

#include "passes/emit/OmEmitter.h"

#include "executor/model/OmFormat.h"

#include "runtime/soc/CostModel.h"
#include "runtime/soc/SocSpec.h"

#include <cstring>
#include <map>

using namespace geflow;
using namespace geflow::passes;

namespace {

rt::SocSpec soc910b() {
  rt::SocSpec spec;
  rt::Status st = rt::loadSocSpec("ascend910b-sim", spec);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return spec;
}

std::map<std::string, int> countTypes(const om::GraphDef &graph) {
  std::map<std::string, int> counts;
  for (const om::OpDef &op : graph.op())
    ++counts[op.type()];
  return counts;
}

TEST(EmitOmModel, TinyCnnOpsTasksAndBlockDims) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  auto module = fixtures::importTinyCnn(context);
  ASSERT_TRUE(module);
  rt::SocSpec spec = soc910b();
  auto model = emitOmModel(*module, spec);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());

  rt::Status valid = om::validateOmModel(*model, "tiny_cnn");
  EXPECT_TRUE(valid.isOk()) << valid.toString();
  ASSERT_EQ(model->modelDef.graph_size(), 1);
  const om::GraphDef &graph = model->modelDef.graph(0);
  auto types = countTypes(graph);
  EXPECT_EQ(types["Data"], 1);
  EXPECT_EQ(types["Const"], 11);
  EXPECT_EQ(types["NetOutput"], 1);
  EXPECT_EQ(types["conv"], 4);
  EXPECT_EQ(types["relu"], 3);
  EXPECT_EQ(types["gemm"], 1);
  EXPECT_EQ(graph.op_size(), 1 + 11 + 13 + 1);
  ASSERT_EQ(graph.input_size(), 1);
  EXPECT_EQ(graph.input(0), "image");
  ASSERT_EQ(graph.output_size(), 1);

  // Tasks: copy in, 12 kernels in op order, copy out: the Reshape before the
  // Gemm is a view (passes/emit/NoTaskOps.h), placed but with no task.
  const om::ModelTaskDef &tasks = model->taskDef;
  ASSERT_EQ(tasks.task_size(), 14);
  EXPECT_EQ(types["reshape"], 1);
  for (const om::OpDef &op : graph.op())
    if (op.type() == "reshape")
      EXPECT_TRUE(op.attr().at("_no_task").b());
  EXPECT_EQ(tasks.task(0).type(), om::MEMCPY_ASYNC);
  EXPECT_EQ(tasks.task(0).src().kind(), om::MemRef::INPUT);
  EXPECT_EQ(tasks.task(0).dst().kind(), om::MemRef::WORKSPACE);
  EXPECT_EQ(tasks.task(0).size(), 3u * 32 * 32 * 4);
  EXPECT_EQ(tasks.task(13).type(), om::MEMCPY_ASYNC);
  EXPECT_EQ(tasks.task(13).dst().kind(), om::MemRef::OUTPUT);
  EXPECT_EQ(tasks.task(13).size(), 10u * 4);
  EXPECT_EQ(tasks.stream_num(), 1u);
  EXPECT_EQ(tasks.stream_priority_size(), 1);
  EXPECT_EQ(tasks.event_num(), 0u);

  rt::CostModel costModel(spec);
  uint32_t lastOp = 0;
  for (int i = 1; i <= 12; ++i) {
    const om::TaskDef &task = tasks.task(i);
    ASSERT_EQ(task.type(), om::KERNEL) << "task " << i;
    EXPECT_GT(task.op_index(), lastOp) << "kernels follow op order";
    lastOp = task.op_index();
    const om::OpDef &op = graph.op(task.op_index());
    rt::Engine engine =
        task.engine() == om::AIC ? rt::Engine::kAic : rt::Engine::kAiv;
    bool cube = op.type() == "conv" || op.type() == "gemm";
    EXPECT_EQ(task.engine(), cube ? om::AIC : om::AIV) << op.name();
    EXPECT_GE(task.block_dim(), 1u) << op.name();
    EXPECT_LE(task.block_dim(), costModel.engineCores(engine)) << op.name();
    EXPECT_GT(task.bytes(), 0) << op.name();
    EXPECT_EQ(task.stream_id(), 0u);
    EXPECT_EQ(op.stream_id(), 0);
    // Kernel attributes only; schedule attributes under GE names.
    for (const auto &[name, value] : op.attr())
      EXPECT_EQ(name.find('.'), std::string::npos) << op.name() << " " << name;
  }
  EXPECT_GT(tasks.task(1).flops(), 0); // the first conv

  // Weights: every constant 64-byte aligned, inside the blob.
  for (const om::OpDef &op : graph.op()) {
    if (op.type() != "Const")
      continue;
    int64_t offset = op.attr().at("weight_offset").i();
    int64_t size = op.attr().at("weight_size").i();
    EXPECT_EQ(offset % 64, 0) << op.name();
    EXPECT_LE(uint64_t(offset + size), model->weights.size()) << op.name();
    EXPECT_EQ(size, op.output_desc(0).size()) << op.name();
  }
  EXPECT_EQ(model->weights.size() % 64, 0u);

  // Memory: one placement per op output; workspace offsets inside the plan.
  const om::MemoryPlan &memory = model->memoryPlan;
  EXPECT_EQ(memory.placement_size(), 1 + 11 + 13);
  EXPECT_GT(memory.workspace_size(), 0u);
  EXPECT_LT(memory.workspace_size(), memory.workspace_size_without_reuse());
  for (const om::TensorPlacement &p : memory.placement()) {
    const om::OpDef &op = graph.op(p.op_index());
    EXPECT_EQ(p.location().kind(), op.type() == "Const"
                                       ? om::MemRef::WEIGHT
                                       : om::MemRef::WORKSPACE);
    if (p.location().kind() == om::MemRef::WORKSPACE) {
      EXPECT_LE(p.location().offset() + p.size(), memory.workspace_size());
    }
  }

  EXPECT_EQ(model->socName, "ascend910b-sim");
  EXPECT_EQ(model->modelDef.attr().at("ge.aicoreNum").i(), spec.cubeCoreCnt);
  EXPECT_EQ(model->modelDef.attr().at("ge.vectorcoreNum").i(),
            spec.vectorCoreCnt);
}

TEST(EmitOmModel, ConvOpDefCarriesInputsAttrsAndDescs) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<1x3x8x8xf32> {ge.name = "x"}) -> (tensor<1x4x8x8xf32> {ge.name = "y"}) {
      %w = ge.constant dense<0.5> : tensor<4x3x3x3xf32> loc("w")
      %y = ge.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, group = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> loc("conv1")
      return %y : tensor<1x4x8x8xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto model = emitOmModel(*module, soc910b());
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  const om::GraphDef &graph = model->modelDef.graph(0);
  ASSERT_EQ(graph.op_size(), 4);
  const om::OpDef &conv = graph.op(2);
  EXPECT_EQ(conv.name(), "conv1");
  EXPECT_EQ(conv.type(), "conv");
  ASSERT_EQ(conv.input_size(), 2);
  EXPECT_EQ(conv.input(0), "x:0");
  EXPECT_EQ(conv.input(1), "w:0");
  EXPECT_EQ(conv.attr().at("group").i(), 1);
  ASSERT_EQ(conv.attr().at("pads").list().i_size(), 4);
  EXPECT_EQ(conv.attr().at("_engine").s(), "AIC");
  ASSERT_EQ(conv.input_desc_size(), 2);
  EXPECT_EQ(conv.input_desc(1).dtype(), om::DT_FLOAT);
  EXPECT_EQ(conv.output_desc(0).size(), 4 * 8 * 8 * 4);
  EXPECT_EQ(graph.op(3).type(), "NetOutput");
  EXPECT_EQ(graph.op(3).input(0), "conv1:0");
  ASSERT_EQ(graph.op(3).attr().at("output_names").list().s_size(), 1);
  EXPECT_EQ(graph.op(3).attr().at("output_names").list().s(0), "y");
  EXPECT_TRUE(om::validateOmModel(*model, "conv").isOk());
  // A splat constant is written out in full.
  const om::OpDef &w = graph.op(1);
  EXPECT_EQ(w.attr().at("weight_size").i(), 4 * 3 * 3 * 3 * 4);
  float first;
  std::memcpy(&first, model->weights.data() + w.attr().at("weight_offset").i(),
              sizeof first);
  EXPECT_EQ(first, 0.5f);
}

TEST(EmitOmModel, OutputsThatAreInputsOrConstantsAreCopied) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<2xi64>, tensor<4xf32>) {
      %c = ge.constant dense<[3, 4]> : tensor<2xi64>
      %r = ge.relu %x : tensor<4xf32>
      return %x, %c, %r : tensor<4xf32>, tensor<2xi64>, tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto model = emitOmModel(*module, soc910b());
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  rt::Status valid = om::validateOmModel(*model, "copies");
  EXPECT_TRUE(valid.isOk()) << valid.toString();
  const auto &tasks = model->taskDef.task();
  ASSERT_EQ(tasks.size(), 1 + 1 + 3);
  const om::TaskDef &in = tasks[0], &outX = tasks[2], &outC = tasks[3],
                    &outR = tasks[4];
  EXPECT_EQ(outX.src().kind(), om::MemRef::WORKSPACE);
  EXPECT_EQ(outX.src().offset(), in.dst().offset());
  EXPECT_EQ(outX.dst().kind(), om::MemRef::OUTPUT);
  EXPECT_EQ(outX.dst().index(), 0);
  EXPECT_EQ(outC.src().kind(), om::MemRef::WEIGHT);
  EXPECT_EQ(outC.size(), 16u);
  EXPECT_EQ(outC.dst().index(), 1);
  EXPECT_EQ(outR.src().kind(), om::MemRef::WORKSPACE);
  EXPECT_NE(outR.src().offset(), in.dst().offset()); // x is live to the end
  int64_t weight;
  std::memcpy(&weight, model->weights.data() + outC.src().offset(), 8);
  EXPECT_EQ(weight, 3);
}

TEST(EmitOmModel, StreamsAndEventsBecomeSendRecvAndEventTasks) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
      %a = ge.relu %x {ge.send_events = array<i64: 0>} : tensor<64xf32> loc("a")
      %b = ge.sigmoid %a {ge.stream = 1 : i64, ge.stream_priority = 2 : i64, ge.recv_events = array<i64: 0>, ge.send_events = array<i64: 1>, ge.vectorcore_num = 4 : i64} : tensor<64xf32> loc("b")
      %c = ge.neg %b {ge.recv_events = array<i64: 1>} : tensor<64xf32> loc("c")
      return %c : tensor<64xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto model = emitOmModel(*module, soc910b());
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  rt::Status valid = om::validateOmModel(*model, "events");
  EXPECT_TRUE(valid.isOk()) << valid.toString();
  const om::ModelTaskDef &tasks = model->taskDef;
  EXPECT_EQ(tasks.stream_num(), 2u);
  ASSERT_EQ(tasks.stream_priority_size(), 2);
  EXPECT_EQ(tasks.stream_priority(1), 2);
  EXPECT_EQ(tasks.event_num(), 2u);

  std::vector<om::TaskType> types;
  for (const om::TaskDef &t : tasks.task())
    types.push_back(t.type());
  std::vector<om::TaskType> expected = {
      om::MEMCPY_ASYNC, om::KERNEL, om::EVENT_RECORD, // a, send 0
      om::EVENT_WAIT,   om::KERNEL, om::EVENT_RECORD, // b on stream 1
      om::EVENT_WAIT,   om::KERNEL, om::MEMCPY_ASYNC};
  EXPECT_EQ(types, expected);
  EXPECT_EQ(tasks.task(2).stream_id(), 0u);
  EXPECT_EQ(tasks.task(2).event_id(), 0u);
  EXPECT_EQ(tasks.task(3).stream_id(), 1u);
  EXPECT_EQ(tasks.task(4).stream_id(), 1u);
  EXPECT_EQ(tasks.task(4).vectorcore_num(), 4u);
  EXPECT_LE(tasks.task(4).block_dim(), 4u);
  EXPECT_EQ(tasks.task(6).event_id(), 1u);

  const om::GraphDef &graph = model->modelDef.graph(0);
  const om::OpDef &b = graph.op(tasks.task(4).op_index());
  EXPECT_EQ(b.name(), "b");
  EXPECT_EQ(b.stream_id(), 1);
  EXPECT_EQ(b.attr().at("_op_vectorcore_num").i(), 4);
  EXPECT_EQ(b.input(b.input_size() - 1),
            "^" + graph.op(tasks.task(3).op_index()).name());
  const om::OpDef &send = graph.op(tasks.task(2).op_index());
  EXPECT_EQ(send.type(), "Send");
  EXPECT_EQ(send.attr().at("event_id").i(), 0);
  EXPECT_EQ(send.input(0), "^a");
  EXPECT_EQ(graph.op(tasks.task(3).op_index()).type(), "Recv");
}

TEST(EmitOmModel, CoreLimitAboveTheChipIsAnError) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
      %a = ge.relu %x {ge.vectorcore_num = 4096 : i64} : tensor<64xf32> loc("a")
      return %a : tensor<64xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto model = emitOmModel(*module, soc910b());
  ASSERT_FALSE(bool(model));
  std::string message = llvm::toString(model.takeError());
  EXPECT_NE(message.find("node 'a'"), std::string::npos) << message;
  EXPECT_NE(message.find("_op_vectorcore_num"), std::string::npos) << message;
}

} // namespace

namespace {

TEST(EmitOmModel, GlobalCoreLimitAppliesWhereNoOpLimitIs) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<1x64x64x64xf32>) -> (tensor<1x64x64x64xf32>, tensor<1x64x64x64xf32>) {
      %a = ge.relu %x : tensor<1x64x64x64xf32> loc("a")
      %b = ge.relu %x {ge.vectorcore_num = 3 : i64} : tensor<1x64x64x64xf32> loc("b")
      return %a, %b : tensor<1x64x64x64xf32>, tensor<1x64x64x64xf32>
    })mlir");
  ASSERT_TRUE(module);
  EmitOptions options;
  options.vectorcoreNum = 2;
  auto model = emitOmModel(*module, soc910b(), options);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  const om::TaskDef &a = model->taskDef.task(1), &b = model->taskDef.task(2);
  EXPECT_EQ(a.vectorcore_num(), 2u);
  EXPECT_LE(a.block_dim(), 2u);
  EXPECT_EQ(b.vectorcore_num(), 3u); // the op's own limit wins
  EXPECT_LE(b.block_dim(), 3u);
  EXPECT_EQ(model->modelDef.attr().at("ge.vectorcoreNum").i(), 2);

  options.vectorcoreNum = 1000;
  auto tooMany = emitOmModel(*module, soc910b(), options);
  ASSERT_FALSE(bool(tooMany));
  std::string message = llvm::toString(tooMany.takeError());
  EXPECT_NE(message.find("ge.vectorcoreNum is 1000"), std::string::npos)
      << message;
}

} // namespace

namespace {

TEST(EmitOmModel, AbsentOptionalOperandsAndSeveralResults) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<1x1x4x4xf32>, %hi: tensor<f32>) -> (tensor<1x1x4x4xf32>, tensor<1x1x2x2xi64>) {
      %c = ge.clip %x max %hi : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32> loc("clip")
      %y:2 = ge.max_pool %c {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) loc("pool")
      return %c, %y#1 : tensor<1x1x4x4xf32>, tensor<1x1x2x2xi64>
    })mlir");
  ASSERT_TRUE(module);
  auto model = emitOmModel(*module, soc910b());
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  rt::Status valid = om::validateOmModel(*model, "optional");
  EXPECT_TRUE(valid.isOk()) << valid.toString();
  const om::GraphDef &graph = model->modelDef.graph(0);
  const om::OpDef &clip = graph.op(2);
  ASSERT_EQ(clip.name(), "clip");
  ASSERT_EQ(clip.input_size(), 3);
  EXPECT_EQ(clip.input(1), "");
  EXPECT_EQ(clip.input_desc(1).dtype(), om::DT_UNDEFINED);
  EXPECT_EQ(clip.input(2), "input_1:0");
  EXPECT_EQ(clip.attr().count("operandSegmentSizes"), 0u);
  const om::OpDef &pool = graph.op(3);
  ASSERT_EQ(pool.output_desc_size(), 2);
  EXPECT_EQ(pool.output_desc(1).dtype(), om::DT_INT64);
  ASSERT_EQ(graph.output_size(), 2);
  EXPECT_EQ(graph.output(1), "pool:1");
  int placed = 0;
  for (const om::TensorPlacement &p : model->memoryPlan.placement())
    placed += p.op_index() == 3;
  EXPECT_EQ(placed, 2);
}

} // namespace
