//===- GraphDumpTest.cpp - the GraphDef of a module at any stage ----------===//

#include "TestSupport.h"

#include "passes/GraphDump.h"
#include "passes/emit/GraphBuilder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace geflow;
using namespace geflow::passes;

namespace {

std::map<std::string, const om::OpDef *> byName(const om::GraphDef &graph) {
  std::map<std::string, const om::OpDef *> ops;
  for (const om::OpDef &op : graph.op())
    ops[op.name()] = &op;
  return ops;
}

std::vector<std::string> inputs(const om::OpDef &op) {
  return {op.input().begin(), op.input().end()};
}

TEST(GraphBuilder, ImportedAnnotationsFlattenOntoTheirOps) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<4xf32> {ge.name = "x"}) -> tensor<4xf32> {
      %a = ge.relu %x : tensor<4xf32> loc("a")
      %r = ge.npu_stream_switch "moe" priority(2) inner_parallel(false) {
        %l = ge.limit_core_num(8, 16) {
          %m = ge.sigmoid %x : tensor<4xf32> loc("m")
          ge.yield %m : tensor<4xf32>
        } : tensor<4xf32>
        ge.yield %l : tensor<4xf32>
      } : tensor<4xf32>
      %w = ge.npu_wait_tensor %r, %a : tensor<4xf32>, tensor<4xf32>
      %n = ge.neg %w : tensor<4xf32> loc("n")
      return %n : tensor<4xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto build = buildGraph(*module);
  ASSERT_TRUE(bool(build)) << llvm::toString(build.takeError());
  const om::GraphDef &graph = build->graph;

  std::vector<std::string> order;
  for (const om::OpDef &op : graph.op()) {
    order.push_back(op.name());
    EXPECT_TRUE(op.has_stream_id()) << op.name();
    EXPECT_EQ(op.stream_id(), 0) << op.name();
  }
  EXPECT_EQ(order, (std::vector<std::string>{"x", "a", "m", "n", "NetOutput"}));

  auto ops = byName(graph);
  const auto &m = ops["m"]->attr();
  EXPECT_EQ(m.at("_stream_label").s(), "moe");
  EXPECT_EQ(m.at("_user_stream_label").s(), "moe");
  EXPECT_EQ(m.at("_user_stream_priority").i(), 2);
  EXPECT_FALSE(m.at("_enable_inner_parallel").b());
  EXPECT_EQ(m.at("_op_aicore_num").i(), 8);
  EXPECT_EQ(m.at("_op_vectorcore_num").i(), 16);
  EXPECT_EQ(ops["a"]->attr().count("_stream_label"), 0u);

  // The wait reads m's output and orders n after a's producer.
  EXPECT_EQ(inputs(*ops["n"]), (std::vector<std::string>{"m:0", "^a"}));
  EXPECT_EQ(inputs(*ops["NetOutput"]), (std::vector<std::string>{"n:0"}));
}

TEST(GraphBuilder, StreamsAndEventsBecomeSendAndRecvOps) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> attributes {ge.send_events = array<i64: 2>} {
      %a = ge.relu %x {ge.engine = #ge.engine<AIV>, ge.send_events = array<i64: 0>} : tensor<64xf32> loc("a")
      %b = ge.sigmoid %a {ge.stream = 1 : i64, ge.recv_events = array<i64: 0, 2>, ge.send_events = array<i64: 1>, ge.block_dim = 4 : i64} : tensor<64xf32> loc("b")
      %c = ge.neg %b {ge.recv_events = array<i64: 1>} : tensor<64xf32> loc("c")
      return %c : tensor<64xf32>
    })mlir");
  ASSERT_TRUE(module);
  auto build = buildGraph(*module);
  ASSERT_TRUE(bool(build)) << llvm::toString(build.takeError());
  const om::GraphDef &graph = build->graph;

  std::vector<std::string> order;
  for (const om::OpDef &op : graph.op())
    order.push_back(op.name() + "@" + std::to_string(op.stream_id()));
  EXPECT_EQ(order, (std::vector<std::string>{
                       "input_0@0", "inputs_Send_2@0", "a@0", "a_Send_0@0",
                       "b_Recv_0@1", "b_Recv_2@1", "b@1", "b_Send_1@1",
                       "c_Recv_1@0", "c@0", "NetOutput@0"}));
  auto ops = byName(graph);
  EXPECT_EQ(ops["a_Send_0"]->type(), "Send");
  EXPECT_EQ(ops["a_Send_0"]->attr().at("event_id").i(), 0);
  EXPECT_EQ(inputs(*ops["a_Send_0"]), std::vector<std::string>{"^a"});
  EXPECT_EQ(inputs(*ops["inputs_Send_2"]),
            std::vector<std::string>{"^input_0"});
  EXPECT_EQ(ops["b_Recv_2"]->type(), "Recv");
  EXPECT_EQ(inputs(*ops["b"]),
            (std::vector<std::string>{"a:0", "^b_Recv_0", "^b_Recv_2"}));
  EXPECT_EQ(ops["b"]->attr().at("_block_dim").i(), 4);
  EXPECT_EQ(ops["a"]->attr().at("_engine").s(), "AIV");
  // Origins: the ge op for compute ops, nothing for the structural ones.
  for (int i = 0; i < graph.op_size(); ++i)
    EXPECT_EQ(build->origin[i] != nullptr,
              graph.op(i).type() != "Data" && graph.op(i).type() != "Send" &&
                  graph.op(i).type() != "Recv" &&
                  graph.op(i).type() != "NetOutput")
        << graph.op(i).name();

  // Text format prints stream_id even when it is 0.
  std::string text = graphText(graph);
  EXPECT_NE(text.find("name: \"a\"\n  type: \"relu\""), std::string::npos);
  size_t ops0 = 0;
  for (size_t at = text.find("stream_id: 0"); at != std::string::npos;
       at = text.find("stream_id: 0", at + 1))
    ++ops0;
  EXPECT_EQ(ops0, 7u);
}

TEST(GraphDump, StagesAreKeyedOnPassArguments) {
  EXPECT_EQ(dumpStageOfPass("ge-assign-streams"), "stream_assignment");
  EXPECT_EQ(dumpStageOfPass("ge-insert-events"), "event_insertion");
  EXPECT_EQ(dumpStageOfPass("ge-fuse-bias-activation"), "fusion");
  EXPECT_EQ(dumpStageOfPass("ge-fold-batch-norm"), "fusion");
  EXPECT_EQ(dumpStageOfPass("ge-assign-engines"), "");
  EXPECT_EQ(dumpStageOfPass("canonicalize"), "");
}

TEST(GraphDump, FilesAreNumberedInTheOrderWritten) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("graph-dump", dir));
  llvm::SmallString<128> nested(dir);
  llvm::sys::path::append(nested, "a", "b");
  auto dumper = GraphDumper::create(nested);
  ASSERT_TRUE(bool(dumper)) << llvm::toString(dumper.takeError());
  om::GraphDef graph;
  graph.set_name("g");
  ASSERT_FALSE(bool((*dumper)->dump(graph, "import")));
  ASSERT_FALSE(bool((*dumper)->dump(graph, "build")));
  ASSERT_EQ((*dumper)->written().size(), 2u);
  EXPECT_EQ(llvm::sys::path::filename((*dumper)->written()[0]),
            "ge_proto_00000_import.txt");
  EXPECT_EQ(llvm::sys::path::filename((*dumper)->written()[1]),
            "ge_proto_00001_build.txt");
  auto text = llvm::MemoryBuffer::getFile((*dumper)->written()[1]);
  ASSERT_TRUE(bool(text));
  EXPECT_EQ((*text)->getBuffer(),
            "# geflow graph 'g' after build\nname: \"g\"\n");
  llvm::sys::fs::remove_directories(dir);
}

} // namespace
