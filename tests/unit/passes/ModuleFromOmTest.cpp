//===- ModuleFromOmTest.cpp - an OM model back as a ge module -------------===//

#include "TestSupport.h"

#include "passes/Pipeline.h"
#include "passes/emit/OmEmitter.h"

#include "executor/model/OmFormat.h"

#include "runtime/soc/SocSpec.h"
#include "tools/driver/CompileDriver.h"

#include <google/protobuf/util/message_differencer.h>

using namespace geflow;
using namespace geflow::passes;
using geflow::driver::compileOnnxFile;
using google::protobuf::util::MessageDifferencer;

namespace {

std::unique_ptr<om::LoadedOm> load(const om::OmModel &model) {
  std::string bytes;
  rt::Status st = om::serializeOm(model, &bytes);
  EXPECT_TRUE(st.isOk()) << st.toString();
  std::unique_ptr<om::LoadedOm> loaded;
  st = om::loadOmBytes(bytes, "test.om", &loaded);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return loaded;
}

/// Rebuilds the module of `model`, emits it again and expects the same
/// graph, tasks, memory plan and weights.
void expectRoundTrip(const om::OmModel &model) {
  std::unique_ptr<om::LoadedOm> loaded = load(model);
  ASSERT_TRUE(loaded);
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  fixtures::loadDialects(context);
  auto module = buildModuleFromOm(context, *loaded);
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());

  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec(model.socName, spec).isOk());
  EmitOptions options;
  options.modelName = model.modelDef.name();
  auto again = emitOmModel(**module, spec, options);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());

  std::string diff;
  MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(model.modelDef.graph(0), again->modelDef.graph(0)))
      << diff;
  EXPECT_TRUE(differ.Compare(model.taskDef, again->taskDef)) << diff;
  EXPECT_TRUE(differ.Compare(model.memoryPlan, again->memoryPlan)) << diff;
  EXPECT_EQ(model.weights, again->weights);
}

TEST(ModuleFromOm, TinyCnnRoundTripsThroughTheOm) {
  auto compiled = compileOnnxFile(fixtures::tinyCnnPath());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  expectRoundTrip(compiled->model);
}

TEST(ModuleFromOm, StreamsEventsAndLimitsRoundTrip) {
  mlir::MLIRContext context;
  auto module = fixtures::parse(context, R"mlir(
    func.func @main(%x: tensor<64xf32> {ge.name = "x"}, %y: tensor<2x64xf32> {ge.name = "y"}) -> (tensor<64xf32> {ge.name = "out"}) attributes {ge.send_events = array<i64: 2>} {
      %k = ge.constant dense<[true, false]> : tensor<2xi1> loc("k")
      %m = ge.not %k : tensor<2xi1> loc("m")
      %a = ge.relu %x {ge.send_events = array<i64: 0>} : tensor<64xf32> loc("a")
      %b = ge.sigmoid %a {ge.stream = 1 : i64, ge.stream_label = "s", ge.stream_priority = 1 : i64, ge.inner_parallel = true, ge.recv_events = array<i64: 0, 2>, ge.send_events = array<i64: 1>, ge.vectorcore_num = 4 : i64} : tensor<64xf32> loc("b")
      %c = ge.neg %b {ge.recv_events = array<i64: 1>} : tensor<64xf32> loc("c")
      %axes = ge.constant dense<[0]> : tensor<1xi64> loc("axes")
      %s = ge.reduce_sum %y, %axes {keepdims = 0 : i64} : (tensor<2x64xf32>, tensor<1xi64>) -> tensor<64xf32> loc("s")
      %d = ge.add %c, %s : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> loc("d")
      return %d : tensor<64xf32>
    })mlir");
  ASSERT_TRUE(module);
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  EmitOptions options;
  options.modelName = "streams";
  auto model = emitOmModel(*module, spec, options);
  ASSERT_TRUE(bool(model)) << llvm::toString(model.takeError());
  expectRoundTrip(*model);
}

TEST(ModuleFromOm, UnknownOpTypeNamesTheNode) {
  auto compiled = compileOnnxFile(fixtures::tinyCnnPath());
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  om::OmModel model = std::move(compiled->model);
  om::OpDef *victim = nullptr;
  for (om::OpDef &op : *model.modelDef.mutable_graph(0)->mutable_op())
    if (op.type() == "softmax" && !victim)
      victim = &op;
  ASSERT_NE(victim, nullptr);
  victim->set_type("frobnicate");
  std::unique_ptr<om::LoadedOm> loaded = load(model);
  if (!loaded)
    return; // the loader already refuses it, which is fine too
  mlir::MLIRContext context;
  fixtures::loadDialects(context);
  auto module = buildModuleFromOm(context, *loaded);
  ASSERT_FALSE(bool(module));
  EXPECT_EQ(llvm::toString(module.takeError()),
            "node '" + victim->name() +
                "' (frobnicate): no ge op 'ge.frobnicate'");
}

} // namespace
