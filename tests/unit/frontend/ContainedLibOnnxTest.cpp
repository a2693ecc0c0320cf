//===- ContainedLibOnnxTest.cpp - libonnx crashes become errors -----------===//
//
// Bad input: libonnx's inference and converter crash on malformed nodes; they
// run in a forked child, whose death is an error naming the node, and the
// next call gets a new child.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/ContainedLibOnnx.h"
#include "frontends/onnx/ModelLoader.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include <csignal>
#include <cstring>

#include <unistd.h>

using namespace geflow;
using namespace geflow::test;

namespace {

/// x[2,3] -> Relu -> Relu -> Relu -> y, with a 16 KiB initializer nobody
/// reads, which stays in the parent while the child works.
OnnxModelBuilder reluChain() {
  OnnxModelBuilder b;
  b.input("x", {int64_t(2), int64_t(3)});
  b.floatInit("w", {64, 64}, std::vector<float>(64 * 64, 0.5f));
  b.node("Relu", {"x"}, {"a"}, "first");
  b.node("Relu", {"a"}, {"b"}, "second");
  b.node("Relu", {"b"}, {"y"}, "third");
  b.output("y");
  return b;
}

/// Dies like a libonnx inference function would, once the graph has a third
/// node.
llvm::Error crashOnThirdNode(onnx::ModelProto &model, int64_t) {
  if (model.graph().node_size() >= 3)
    std::raise(SIGSEGV);
  return llvm::Error::success();
}

llvm::Error renameGraph(onnx::ModelProto &model, int64_t argument) {
  model.mutable_graph()->set_name("renamed " + std::to_string(argument));
  model.set_ir_version(argument);
  return llvm::Error::success();
}

llvm::Error loopForever(onnx::ModelProto &, int64_t) {
  for (;;)
    ::pause();
}

llvm::Error typeEverything(onnx::ModelProto &model, int64_t) {
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.add_value_info()->set_name("a");
  graph.mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      onnx::TensorProto::DOUBLE);
  graph.set_name("changed too");
  return llvm::Error::success();
}

llvm::Error refuse(onnx::ModelProto &model, int64_t) {
  return onnxfe::makeError("refused '" + model.graph().name() + "'");
}

TEST(ContainedLibOnnx, ADeathNamesTheFirstFatalNode) {
  onnx::ModelProto model = reluChain().model;
  llvm::Error err =
      onnxfe::runContained(model, "shape inference", crashOnThirdNode);
  EXPECT_EQ(llvm::toString(std::move(err)),
            "node 'third' (Relu, opset 17): libonnx crashed (SIGSEGV) in "
            "shape inference; its inputs or attributes are malformed");
  // The parent's model is untouched, weights included.
  EXPECT_EQ(model.graph().node_size(), 3);
  EXPECT_EQ(model.graph().initializer(0).raw_data().size(), 64 * 64 * 4u);

  // A new child serves the next call.
  llvm::Error next = onnxfe::runContained(model, "rename", renameGraph, 9);
  EXPECT_FALSE(next) << llvm::toString(std::move(next));
  EXPECT_EQ(model.graph().name(), "renamed 9");
}

TEST(ContainedLibOnnx, TheChildsModelComesBackInPlaceWithItsWeights) {
  onnx::ModelProto model = reluChain().model;
  const onnx::GraphProto *graphObject = &model.graph();
  llvm::Error err = onnxfe::runContained(model, "rename", renameGraph, 7);
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  EXPECT_EQ(model.graph().name(), "renamed 7");
  EXPECT_EQ(model.ir_version(), 7);
  EXPECT_EQ(&model.graph(), graphObject);
  ASSERT_EQ(model.graph().initializer_size(), 1);
  const onnx::TensorProto &w = model.graph().initializer(0);
  EXPECT_EQ(w.dims_size(), 2);
  ASSERT_EQ(w.raw_data().size(), 64 * 64 * 4u);
  float last;
  std::memcpy(&last, w.raw_data().data() + 4095 * 4, 4);
  EXPECT_EQ(last, 0.5f);
}

TEST(ContainedLibOnnx, ShapesOnlyBringsBackValueInfoAndOutputs) {
  onnx::ModelProto model = reluChain().model;
  llvm::Error err =
      onnxfe::runContained(model, "shape inference", typeEverything, 0,
                           onnxfe::ContainedChanges::kShapes);
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  ASSERT_EQ(model.graph().value_info_size(), 1);
  EXPECT_EQ(model.graph().value_info(0).name(), "a");
  EXPECT_EQ(model.graph().output(0).type().tensor_type().elem_type(),
            onnx::TensorProto::DOUBLE);
  EXPECT_EQ(model.graph().name(), "test"); // not a shape: stays
  EXPECT_EQ(model.graph().initializer(0).raw_data().size(), 64 * 64 * 4u);
}

TEST(ContainedLibOnnx, WhileWaitingRunsDuringTheCallWithTheWeightsBack) {
  onnx::ModelProto model = reluChain().model;
  size_t weightBytes = 0;
  int valueInfos = -1;
  auto meanwhile = [&] {
    weightBytes = model.graph().initializer(0).raw_data().size();
    valueInfos = model.graph().value_info_size(); // the reply is not in yet
  };
  llvm::Error err =
      onnxfe::runContained(model, "shape inference", typeEverything, 0,
                           onnxfe::ContainedChanges::kShapes, meanwhile);
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  EXPECT_EQ(weightBytes, 64 * 64 * 4u);
  EXPECT_EQ(valueInfos, 0);
  EXPECT_EQ(model.graph().value_info_size(), 1);
  EXPECT_EQ(model.graph().initializer(0).raw_data().size(), 64 * 64 * 4u);
}

TEST(ContainedLibOnnx, AChildStartedEarlyServesTheCalls) {
  onnxfe::startContainedProcess();
  onnxfe::startContainedProcess(); // a running child is kept
  onnx::ModelProto model = reluChain().model;
  llvm::Error err = onnxfe::runContained(model, "rename", renameGraph, 5);
  ASSERT_FALSE(err) << llvm::toString(std::move(err));
  EXPECT_EQ(model.graph().name(), "renamed 5");
}

TEST(ContainedLibOnnx, TheChildsErrorComesBackAsItIs) {
  onnx::ModelProto model = reluChain().model;
  llvm::Error err = onnxfe::runContained(model, "refusal", refuse);
  EXPECT_EQ(llvm::toString(std::move(err)), "refused 'test'");
  EXPECT_EQ(model.graph().initializer(0).raw_data().size(), 64 * 64 * 4u);
}

TEST(ContainedLibOnnx, AChildPastTheTimeLimitIsKilled) {
  onnx::ModelProto model = reluChain().model;
  onnxfe::setContainedTimeLimit(std::chrono::milliseconds(200));
  llvm::Error err = onnxfe::runContained(model, "shape inference", loopForever);
  onnxfe::setContainedTimeLimit(std::chrono::seconds(120));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "libonnx did not finish shape inference within 200 ms; the model "
            "is malformed or too large");
  llvm::Error next = onnxfe::runContained(model, "rename", renameGraph, 3);
  EXPECT_FALSE(next) << llvm::toString(std::move(next));
  EXPECT_EQ(model.graph().name(), "renamed 3");
}

using ContainedImportTest = OnnxImporterTest;

// Found by fuzzing: LayerNormalization's inference in libonnx 1.12 indexes
// the default axis -1 into a rank-0 input's dims when it types Mean.
TEST_F(ContainedImportTest, LayerNormOnARankZeroInputIsAnError) {
  OnnxModelBuilder b;
  b.input("x", std::vector<Dim>{});
  b.input("scale", {int64_t(3)});
  b.node("LayerNormalization", {"x", "scale"}, {"y", "mean", "inv"}, "ln");
  b.output("y");
  EXPECT_EQ(importError(b.model),
            "node 'ln' (LayerNormalization, opset 17): libonnx crashed "
            "(SIGSEGV) in shape inference; its inputs or attributes are "
            "malformed");
}

} // namespace
