//===- StreamPlanImportTest.cpp - a stream plan applied at import ---------===//

#include "frontends/onnx/OnnxImporter.h"
#include "frontends/streamplan/StreamPlan.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "ir/GeDialect.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <gtest/gtest.h>

using namespace geflow;
using namespace geflow::test;
using mlir::Operation;
using mlir::ge::GeDialect;

namespace {

class StreamPlanImportTest : public OnnxImporterTest {
protected:
  OnnxImportOptions withPlan(llvm::StringRef text) {
    OnnxImportOptions options;
    auto plan = streamplan::parseStreamPlan(text, "plan.json");
    if (!plan) {
      ADD_FAILURE() << llvm::toString(plan.takeError());
      return options;
    }
    options.streamPlan = std::move(*plan);
    return options;
  }

  Operation *only(mlir::ModuleOp module, llvm::StringRef name) {
    auto ops = opsNamed(module, name);
    EXPECT_EQ(ops.size(), 1u) << name.str();
    return ops.empty() ? nullptr : ops[0];
  }

  /// X, Y: [4, 4]; `p` = Relu(X) -> pa; `c1` = Neg(Y) -> n1; `c2` = Abs(Y) ->
  /// n2. With `consumersFirst`, c1 and c2 come before p in the node list.
  static onnx::ModelProto waitModel(bool consumersFirst = false) {
    OnnxModelBuilder b;
    b.input("X", {4, 4}).input("Y", {4, 4});
    b.floatInit("W", {4, 4}, std::vector<float>(16, 1.0f));
    if (!consumersFirst)
      b.node("Relu", {"X"}, {"pa"}, "p");
    b.node("Neg", {"Y"}, {"n1"}, "c1");
    b.node("Abs", {"Y"}, {"n2"}, "c2");
    if (consumersFirst)
      b.node("Relu", {"X"}, {"pa"}, "p");
    b.node("Add", {"pa", "W"}, {"q"}, "plus_w");
    b.output("q").output("n1").output("n2");
    return b.model;
  }
};

TEST_F(StreamPlanImportTest, ScopeGivesAttributesAndBeatsNodeAnnotations) {
  OnnxModelBuilder b;
  b.input("X", {4});
  auto &relu = b.node("Relu", {"X"}, {"r"}, "expert/act");
  setString(relu, "_user_stream_label", "from_node");
  setInt(relu, "_op_aicore_num", 4);
  setInt(relu, "_user_stream_priority", 1);
  b.node("Neg", {"r"}, {"Y"}, "out");
  b.output("Y");
  auto module = importOk(b.model, withPlan(R"({"scopes": [
      {"nodes": ["expert/*"], "stream_tag": "plan", "limit_core_num": [8, 16]}]})"));
  ASSERT_TRUE(module);
  Operation *op = only(*module, "ge.relu");
  EXPECT_EQ(op->getAttrOfType<mlir::StringAttr>(GeDialect::kStreamLabelAttr),
            "plan");
  EXPECT_EQ(op->getAttrOfType<mlir::IntegerAttr>(GeDialect::kStreamPriorityAttr)
                .getInt(),
            0);
  EXPECT_TRUE(op->getAttrOfType<mlir::BoolAttr>(GeDialect::kInnerParallelAttr)
                  .getValue());
  EXPECT_EQ(
      op->getAttrOfType<mlir::IntegerAttr>(GeDialect::kAicoreNumAttr).getInt(),
      8);
  EXPECT_EQ(op->getAttrOfType<mlir::IntegerAttr>(GeDialect::kVectorcoreNumAttr)
                .getInt(),
            16);
  Operation *neg = only(*module, "ge.neg");
  EXPECT_TRUE(neg->getDiscardableAttrDictionary().empty());
}

TEST_F(StreamPlanImportTest, CoreLimitScopeKeepsTheNodeLabel) {
  OnnxModelBuilder b;
  b.input("X", {4});
  setString(b.node("Relu", {"X"}, {"Y"}, "r"), "_user_stream_label", "node");
  b.output("Y");
  auto module = importOk(
      b.model,
      withPlan(R"({"scopes": [{"nodes": ["r"], "limit_core_num": [2, 0]}]})"));
  ASSERT_TRUE(module);
  Operation *op = only(*module, "ge.relu");
  EXPECT_EQ(op->getAttrOfType<mlir::StringAttr>(GeDialect::kStreamLabelAttr),
            "node");
  EXPECT_EQ(
      op->getAttrOfType<mlir::IntegerAttr>(GeDialect::kAicoreNumAttr).getInt(),
      2);
  EXPECT_FALSE(op->hasAttr(GeDialect::kStreamPriorityAttr));
}

TEST_F(StreamPlanImportTest, UnnamedNodesAreSelectedByTheirDisplayName) {
  OnnxModelBuilder b;
  b.input("X", {4});
  b.node("Relu", {"X"}, {"Y"});
  b.output("Y");
  auto module = importOk(
      b.model,
      withPlan(R"({"scopes": [{"nodes": ["Relu_0"], "stream_tag": "s"}]})"));
  ASSERT_TRUE(module);
  EXPECT_TRUE(only(*module, "ge.relu")->hasAttr(GeDialect::kStreamLabelAttr));
}

TEST_F(StreamPlanImportTest, WaitTensorSwitchesEveryConsumer) {
  auto module = importOk(
      waitModel(),
      withPlan(R"({"wait_tensor": [{"tensor": "Y", "after": "pa"}]})"));
  ASSERT_TRUE(module);
  Operation *wait = only(*module, "ge.npu_wait_tensor");
  Operation *relu = only(*module, "ge.relu");
  ASSERT_TRUE(wait && relu);
  auto func = mainFunc(*module);
  EXPECT_EQ(wait->getOperand(0), func.getArgument(1));
  EXPECT_EQ(wait->getOperand(1), relu->getResult(0));
  for (llvm::StringRef consumer : {"ge.neg", "ge.abs"}) {
    Operation *op = only(*module, consumer);
    EXPECT_EQ(op->getOperand(0), wait->getResult(0)) << consumer.str();
    EXPECT_TRUE(wait->isBeforeInBlock(op)) << consumer.str();
  }
  EXPECT_TRUE(func.getArgument(1).hasOneUse());
}

TEST_F(StreamPlanImportTest, ConsumersBeforeTheProducerMoveBehindTheWait) {
  auto module = importOk(
      waitModel(/*consumersFirst=*/true),
      withPlan(R"({"wait_tensor": [{"tensor": "Y", "after": "pa"}]})"));
  ASSERT_TRUE(module);
  Operation *wait = only(*module, "ge.npu_wait_tensor");
  Operation *relu = only(*module, "ge.relu");
  Operation *neg = only(*module, "ge.neg");
  ASSERT_TRUE(wait && relu && neg);
  EXPECT_TRUE(relu->isBeforeInBlock(wait));
  EXPECT_TRUE(wait->isBeforeInBlock(neg));
}

TEST_F(StreamPlanImportTest, TwoWaitsOnOneTensorChain) {
  auto module = importOk(waitModel(), withPlan(R"({"wait_tensor": [
      {"tensor": "Y", "after": "pa"}, {"tensor": "Y", "after": "q"}]})"));
  ASSERT_TRUE(module);
  auto waits = opsNamed(*module, "ge.npu_wait_tensor");
  ASSERT_EQ(waits.size(), 2u);
  Operation *neg = only(*module, "ge.neg");
  // Neg reads the outer wait, whose input is the inner wait of Y.
  Operation *outer = neg->getOperand(0).getDefiningOp();
  ASSERT_TRUE(outer && outer->getName().getStringRef() == "ge.npu_wait_tensor");
  Operation *inner = outer->getOperand(0).getDefiningOp();
  ASSERT_TRUE(inner && inner->getName().getStringRef() == "ge.npu_wait_tensor");
  EXPECT_EQ(inner->getOperand(0), mainFunc(*module).getArgument(1));
}

struct PlanErrorCase {
  const char *plan;
  const char *message;
};

class StreamPlanImportError
    : public StreamPlanImportTest,
      public testing::WithParamInterface<PlanErrorCase> {};

TEST_P(StreamPlanImportError, NamesThePlanLineAndKey) {
  EXPECT_EQ(importError(waitModel(), withPlan(GetParam().plan)),
            GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Errors, StreamPlanImportError,
    testing::Values(
        PlanErrorCase{
            "{\"scopes\": [{\"stream_tag\": \"s\",\n"
            "  \"nodes\": [\"p\", \"c*\", \"d*\"]}]}",
            "plan.json:2: scopes[0].nodes[2]: 'd*' matches no node of "
            "the model"},
        PlanErrorCase{
            "{\"wait_tensor\": [\n {\"tensor\": \"Z\", \"after\": \"pa\"}]}",
            "plan.json:2: wait_tensor[0].tensor: no tensor 'Z' in the "
            "model"},
        PlanErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"Y\",\n \"after\": \"nope\"}]}",
            "plan.json:2: wait_tensor[0].after: no tensor 'nope' in the "
            "model"},
        PlanErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"Y\", \"after\": \"X\"}]}",
            "plan.json:1: wait_tensor[0].after: 'X' is a graph input; no "
            "node produces it, so there is nothing to wait for"},
        PlanErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"Y\", \"after\": \"W\"}]}",
            "plan.json:1: wait_tensor[0].after: 'W' is a constant; no node "
            "computes it, so there is nothing to wait for"},
        PlanErrorCase{
            "{\"wait_tensor\": [{\"tensor\": \"X\", \"after\": \"q\"}]}",
            "plan.json:1: wait_tensor[0].after: 'q' is computed from 'X', "
            "so the consumers of 'X' cannot wait for it (a cycle)"}));

} // namespace
