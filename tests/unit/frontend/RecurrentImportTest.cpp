//===- RecurrentImportTest.cpp - LSTM/GRU/RNN and Einsum through the importer
//-===//
//
// What the importer adds for these ops: outputs the model leaves out typed
// from X, R and the layout; STRINGS attributes (`activations`); Einsum output
// shapes that libonnx leaves open, carried on to the Einsum's readers.
//
//===----------------------------------------------------------------------===//

#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace geflow;
using namespace geflow::test;

namespace {

std::vector<int64_t> shapeOf(mlir::Value v) {
  auto shape = mlir::cast<mlir::RankedTensorType>(v.getType()).getShape();
  return {shape.begin(), shape.end()};
}

void setStrings(onnx::NodeProto &node, const std::string &name,
                const std::vector<std::string> &values) {
  auto *a = node.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRINGS);
  for (const std::string &v : values)
    a->add_strings(v);
}

// Only Y_c is read: Y and Y_h are still results, typed [T, D, B, H] and
// [D, B, H] from X [T, B, I] and R [D, 4H, H].
TEST_F(OnnxImporterTest, LstmOutputsTheModelLeavesOutAreTyped) {
  OnnxModelBuilder b;
  b.input("X", {5, 2, 3});
  b.floatInit("W", {2, 16, 3}, std::vector<float>(2 * 16 * 3, 0.1f));
  b.floatInit("R", {2, 16, 4}, std::vector<float>(2 * 16 * 4, 0.1f));
  auto &lstm = b.node("LSTM", {"X", "W", "R"}, {"", "", "Y_c"}, "lstm1");
  setInt(lstm, "hidden_size", 4);
  setString(lstm, "direction", "bidirectional");
  setStrings(lstm, "activations",
             {"Sigmoid", "Tanh", "Tanh", "HardSigmoid", "Relu", "Softsign"});
  b.output("Y_c");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto ops = opsNamed(*module, "ge.lstm");
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(shapeOf(ops[0]->getResult(0)), (std::vector<int64_t>{5, 2, 2, 4}));
  EXPECT_EQ(shapeOf(ops[0]->getResult(1)), (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(shapeOf(ops[0]->getResult(2)), (std::vector<int64_t>{2, 2, 4}));
  auto acts = ops[0]->getAttrOfType<mlir::ArrayAttr>("activations");
  ASSERT_TRUE(acts);
  ASSERT_EQ(acts.size(), 6u);
  EXPECT_EQ(mlir::cast<mlir::StringAttr>(acts[3]).getValue(), "HardSigmoid");
}

// Batch first: Y is [B, T, D, H], Y_h [B, D, H].
TEST_F(OnnxImporterTest, BatchFirstGruTypesItsOutputsByLayout) {
  OnnxModelBuilder b;
  b.input("X", {3, 7, 2});
  b.floatInit("W", {1, 15, 2}, std::vector<float>(15 * 2, 0.1f));
  b.floatInit("R", {1, 15, 5}, std::vector<float>(15 * 5, 0.1f));
  auto &gru = b.node("GRU", {"X", "W", "R"}, {"", "Y_h"}, "gru1");
  setInt(gru, "hidden_size", 5);
  setInt(gru, "layout", 1);
  b.output("Y_h");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto ops = opsNamed(*module, "ge.gru");
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(shapeOf(ops[0]->getResult(0)), (std::vector<int64_t>{3, 7, 1, 5}));
  EXPECT_EQ(shapeOf(ops[0]->getResult(1)), (std::vector<int64_t>{3, 1, 5}));
}

TEST_F(OnnxImporterTest, RecurrentAttributeErrorsNameTheNode) {
  OnnxModelBuilder b;
  b.input("X", {5, 2, 3});
  b.floatInit("W", {1, 4, 3}, std::vector<float>(4 * 3, 0.1f));
  b.floatInit("R", {1, 4, 4}, std::vector<float>(4 * 4, 0.1f));
  auto &rnn = b.node("RNN", {"X", "W", "R"}, {"Y", "Y_h"}, "rnn1");
  setInt(rnn, "hidden_size", 4);
  setStrings(rnn, "activations", {"Swish"});
  b.output("Y_h");
  std::string error = importError(b.model);
  EXPECT_NE(error.find("node 'rnn1' (RNN, opset 17)"), std::string::npos)
      << error;
  EXPECT_NE(error.find("activation \"Swish\" is not one of"), std::string::npos)
      << error;
}

// libonnx infers only an Einsum's rank; the shapes are completed, and the
// second Einsum and the Relu after them see static operands.
TEST_F(OnnxImporterTest, EinsumChainGetsStaticShapes) {
  OnnxModelBuilder b;
  b.input("A", {5, 2, 3});
  b.input("B", {5, 3, 4});
  auto &first = b.node("Einsum", {"A", "B"}, {"AB"}, "e1");
  setString(first, "equation", "bij,bjk->bik");
  auto &second = b.node("Einsum", {"AB"}, {"T"}, "e2");
  setString(second, "equation", "bik->kb");
  b.node("Relu", {"T"}, {"Y"}, "relu1");
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto relu = opsNamed(*module, "ge.relu");
  ASSERT_EQ(relu.size(), 1u);
  EXPECT_EQ(shapeOf(relu[0]->getResult(0)), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(opsNamed(*module, "ge.einsum").size(), 2u);
}

} // namespace
