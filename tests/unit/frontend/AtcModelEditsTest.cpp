//===- AtcModelEditsTest.cpp - ATC's input/output options on models -------===//

#include "OnnxImporterTestFixture.h"
#include "OnnxModelBuilder.h"

#include "frontends/onnx/AtcModelEdits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace geflow;
using namespace geflow::test;

namespace {

AtcModelEdits parsed(llvm::StringRef fp16, llvm::StringRef outNodes,
                     llvm::StringRef outputType) {
  auto edits = parseAtcModelEdits(fp16, outNodes, outputType);
  if (!edits) {
    ADD_FAILURE() << llvm::toString(edits.takeError());
    return {};
  }
  return *edits;
}

std::string parseError(llvm::StringRef fp16, llvm::StringRef outNodes,
                       llvm::StringRef outputType) {
  auto edits = parseAtcModelEdits(fp16, outNodes, outputType);
  if (edits) {
    ADD_FAILURE() << "parsed";
    return "";
  }
  return llvm::toString(edits.takeError());
}

std::string editError(onnx::ModelProto model, const AtcModelEdits &edits) {
  llvm::Error error = applyAtcModelEdits(model, edits);
  return error ? llvm::toString(std::move(error)) : "edits applied";
}

/// x [1,4] -> r = Relu -> n = Neg -> output n, both nodes named.
OnnxModelBuilder reluNeg(int64_t opset = 17) {
  OnnxModelBuilder b(opset);
  b.input("x", {int64_t(1), int64_t(4)}).output("n");
  b.node("Relu", {"x"}, {"r"}, "relu");
  b.node("Neg", {"r"}, {"n"}, "neg");
  return b;
}

class AtcModelEditsTest : public OnnxImporterTest {
protected:
  /// The types of @main's arguments and results, as text.
  static std::string signature(mlir::ModuleOp module) {
    return typeStr(mainFunc(module).getFunctionType());
  }

  std::string importedSignature(onnx::ModelProto model,
                                const AtcModelEdits &edits) {
    if (llvm::Error error = applyAtcModelEdits(model, edits)) {
      ADD_FAILURE() << llvm::toString(std::move(error));
      return "";
    }
    auto module = importOk(model);
    return module ? signature(*module) : "";
  }
};

} // namespace

TEST(AtcModelEditsParse, ReadsAtcsSpelling) {
  AtcModelEdits edits = parsed(" a; b ;", "prob:0;fc:1", "fp16");
  EXPECT_EQ(edits.fp16Inputs, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(edits.outNodes.size(), 2u);
  EXPECT_EQ(edits.outNodes[1].text(), "fc:1");
  EXPECT_EQ(edits.outputType, AtcOutputType::kFp16);

  // Per output; a node name may hold ':' itself.
  edits = parsed("", "", "prob:0:FP16;a:b:1:UINT8");
  EXPECT_FALSE(edits.outputType);
  ASSERT_EQ(edits.outputTypes.size(), 2u);
  EXPECT_EQ(edits.outputTypes[1].output.node, "a:b");
  EXPECT_EQ(edits.outputTypes[1].output.index, 1);
  EXPECT_EQ(edits.outputTypes[1].type, AtcOutputType::kUint8);
  EXPECT_TRUE(parsed("", "", "").empty());
}

TEST(AtcModelEditsParse, ErrorsNameTheOptionAndEntry) {
  EXPECT_EQ(parseError("", "prob", ""),
            "--out_nodes 'prob': expected node_name:output_index");
  EXPECT_EQ(parseError("", "prob:first", ""),
            "--out_nodes 'prob:first': expected node_name:output_index");
  EXPECT_EQ(parseError("", "", "INT8"),
            "--output_type 'INT8': INT8 is not implemented by geflow (FP32, "
            "FP16 or UINT8)");
  EXPECT_EQ(parseError("", "", "prob:0:FP64"),
            "--output_type 'prob:0:FP64': expected FP32, FP16 or UINT8, or "
            "node_name:index:TYPE");
}

TEST_F(AtcModelEditsTest, Fp16InputIsCastToTheModelsType) {
  onnx::ModelProto model = reluNeg().model;
  AtcModelEdits edits;
  edits.fp16Inputs = {"x"};
  EXPECT_EQ(importedSignature(model, edits),
            "(tensor<1x4xf16>) -> tensor<1x4xf32>");
  ASSERT_FALSE(applyAtcModelEdits(model, edits));
  EXPECT_EQ(model.graph().input(0).name(), "x");
  EXPECT_EQ(model.graph().node(0).op_type(), "Cast");
  EXPECT_EQ(model.graph().node(1).input(0), model.graph().node(0).output(0));
}

TEST_F(AtcModelEditsTest, Fp16InputMustBeAFloatInputOfTheModel) {
  AtcModelEdits edits;
  edits.fp16Inputs = {"image"};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--input_fp16_nodes: the model has no input named 'image' "
            "(inputs: x)");
  OnnxModelBuilder ids;
  ids.input("ids", {int64_t(4)}, onnx::TensorProto::INT64).output("n");
  ids.node("Neg", {"ids"}, {"n"});
  edits.fp16Inputs = {"ids"};
  EXPECT_EQ(editError(ids.model, edits),
            "--input_fp16_nodes: input 'ids' is INT64, not a float type");
}

TEST_F(AtcModelEditsTest, InputShapeReplacesTheDeclaredShape) {
  AtcModelEdits edits;
  edits.inputShapes = {{"x", {2, 4}}};
  EXPECT_EQ(importedSignature(reluNeg().model, edits),
            "(tensor<2x4xf32>) -> tensor<2x4xf32>");
  // A -1 leaves the dim open (symbolic) for gears or run-time shapes.
  onnx::ModelProto model = reluNeg().model;
  edits.inputShapes = {{"x", {-1, 4}}};
  ASSERT_FALSE(applyAtcModelEdits(model, edits));
  EXPECT_EQ(
      model.graph().input(0).type().tensor_type().shape().dim(0).dim_param(),
      "x_dim0");
  edits.inputShapes = {{"x", {4}}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--input_shape: input 'x' has rank 2, but 1 dims were given");
  edits.inputShapes = {{"image", {1, 4}}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--input_shape: the model has no input named 'image' (inputs: x)");
}

TEST_F(AtcModelEditsTest, OutNodesChooseTheOutputsAndDropTheRest) {
  onnx::ModelProto model = reluNeg().model;
  AtcModelEdits edits;
  edits.outNodes = {{"relu", 0}};
  ASSERT_FALSE(applyAtcModelEdits(model, edits));
  ASSERT_EQ(model.graph().output_size(), 1);
  EXPECT_EQ(model.graph().output(0).name(), "r");
  ASSERT_EQ(model.graph().node_size(), 1); // Neg is no longer needed
  EXPECT_EQ(model.graph().node(0).op_type(), "Relu");
  auto module = importOk(model);
  ASSERT_TRUE(module);
  EXPECT_EQ(signature(*module), "(tensor<1x4xf32>) -> tensor<1x4xf32>");
}

TEST_F(AtcModelEditsTest, OutNodesNameAnUnnamedNodeAsGeflowDoes) {
  OnnxModelBuilder b;
  b.input("x", {int64_t(1), int64_t(4)}).output("n");
  b.node("Relu", {"x"}, {"r"});
  b.node("Neg", {"r"}, {"n"});
  AtcModelEdits edits;
  edits.outNodes = {{"Relu_0", 0}, {"Neg_1", 0}};
  onnx::ModelProto model = b.model;
  ASSERT_FALSE(applyAtcModelEdits(model, edits));
  EXPECT_EQ(model.graph().output(0).name(), "r");
  EXPECT_EQ(model.graph().output(1).name(), "n");
}

TEST_F(AtcModelEditsTest, OutNodesErrorsNameTheNode) {
  AtcModelEdits edits;
  edits.outNodes = {{"softmax", 0}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--out_nodes 'softmax:0': the model has no node named 'softmax'");
  edits.outNodes = {{"relu", 1}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--out_nodes 'relu:1': node 'relu' (Relu) has 1 output(s)");
  edits.outNodes = {{"relu", 0}, {"relu", 0}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--out_nodes lists 'relu:0' twice");
}

TEST_F(AtcModelEditsTest, OutputTypeConvertsAndKeepsTheOutputsName) {
  onnx::ModelProto model = reluNeg().model;
  AtcModelEdits edits;
  edits.outputType = AtcOutputType::kFp16;
  EXPECT_EQ(importedSignature(model, edits),
            "(tensor<1x4xf32>) -> tensor<1x4xf16>");
  ASSERT_FALSE(applyAtcModelEdits(model, edits));
  EXPECT_EQ(model.graph().output(0).name(), "n");
  EXPECT_EQ(model.graph().output(0).type().tensor_type().elem_type(),
            onnx::TensorProto::FLOAT16);

  // FP32 of a float32 output changes nothing the import keeps.
  edits.outputType = AtcOutputType::kFp32;
  EXPECT_EQ(importedSignature(reluNeg().model, edits),
            "(tensor<1x4xf32>) -> tensor<1x4xf32>");
  edits.outputType = AtcOutputType::kUint8;
  EXPECT_EQ(importedSignature(reluNeg().model, edits),
            "(tensor<1x4xf32>) -> tensor<1x4xui8>");
}

TEST_F(AtcModelEditsTest, OutputTypeOfOneOutputWinsOverTheGlobalOne) {
  AtcModelEdits edits;
  edits.outNodes = {{"relu", 0}, {"neg", 0}};
  edits.outputType = AtcOutputType::kFp16;
  edits.outputTypes = {{{"neg", 0}, AtcOutputType::kFp32}};
  EXPECT_EQ(importedSignature(reluNeg().model, edits),
            "(tensor<1x4xf32>) -> (tensor<1x4xf16>, tensor<1x4xf32>)");
}

TEST_F(AtcModelEditsTest, OutputTypeErrors) {
  AtcModelEdits edits;
  edits.outputTypes = {{{"relu", 0}, AtcOutputType::kFp16}};
  EXPECT_EQ(editError(reluNeg().model, edits),
            "--output_type 'relu:0': not an output of the model (name it in "
            "--out_nodes)");
  edits.outputTypes.clear();
  edits.outputType = AtcOutputType::kUint8;
  EXPECT_EQ(editError(reluNeg(/*opset=*/9).model, edits),
            "--output_type UINT8 needs a model of opset 11 or newer (this "
            "one imports opset 9)");
}
