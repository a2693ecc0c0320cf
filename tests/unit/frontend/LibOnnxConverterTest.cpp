//===- LibOnnxConverterTest.cpp - which nodes the converter would change --===//
//
// A node whose every opset step is a CompatibleAdapter skips libonnx's
// converter (LibOnnxConverter.h); any other goes there, piece by piece in a
// large graph (PiecewiseConversion.h). Both paths must import what the
// converter means.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/LibOnnxConverter.h"

#include "OnnxImporterTestFixture.h"
#include "OnnxModelBuilder.h"

namespace {

using namespace geflow;
using namespace geflow::test;

onnx::NodeProto node(const std::string &type, const std::string &domain = "") {
  onnx::NodeProto n;
  n.set_op_type(type);
  n.set_domain(domain);
  return n;
}

TEST(LibOnnxConverter, CompatibleStepsAloneLeaveANodeAsItIs) {
  const auto &converter = onnxfe::LibOnnxConverter::get();
  // Add and Relu 13->14, Identity 13->14->16: CompatibleAdapter only.
  EXPECT_FALSE(converter.adapts(node("Add"), 13, 17));
  EXPECT_FALSE(converter.adapts(node("Relu"), 13, 17));
  EXPECT_FALSE(converter.adapts(node("Identity"), 13, 17));
  // No schema change at all between the two opsets.
  EXPECT_FALSE(converter.adapts(node("MatMul"), 13, 17));
  // Real adapters: Split's `split` attribute becomes an input at 13,
  // BatchNormalization loses an output form at 14.
  EXPECT_TRUE(converter.adapts(node("Split"), 12, 17));
  EXPECT_TRUE(converter.adapts(node("BatchNormalization"), 13, 17));
  // What the converter would look at or refuse goes there.
  EXPECT_TRUE(converter.adapts(node("NoSuchOp"), 13, 17));
  EXPECT_TRUE(converter.adapts(node("Add", "com.example"), 13, 17));
  EXPECT_TRUE(converter.adapts(node("Add"), 17, 13));
  EXPECT_TRUE(converter.adapts(node("Add"), 13, 99));
}

// 300 Relus around an opset-12 Split: more nodes than one conversion piece,
// one piece with a real adapter, the others only compatible steps.
TEST_F(OnnxImporterTest, LargeOpset12ModelConvertsPieceByPiece) {
  OnnxModelBuilder b(/*opset=*/12, /*irVersion=*/7);
  b.input("X", {2, 4});
  std::string value = "X";
  for (int i = 0; i < 300; ++i) {
    std::string next = "r" + std::to_string(i);
    b.node("Relu", {value}, {next}, next);
    value = next;
    if (i == 150) {
      onnx::NodeProto &split = b.node("Split", {value}, {"a", "b"}, "split");
      setInts(split, "split", {1, 3});
      setInt(split, "axis", 1);
      setInt(b.node("Concat", {"b", "a"}, {"c"}, "concat"), "axis", 1);
      value = "c";
    }
  }
  b.output(value);
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto splits = opsNamed(*module, "ge.split");
  ASSERT_EQ(splits.size(), 1u);
  // The converter moved `split` into an input; the sizes still hold.
  EXPECT_EQ(typeStr(splits[0]->getResult(0).getType()), "tensor<2x1xf32>");
  EXPECT_EQ(typeStr(splits[0]->getResult(1).getType()), "tensor<2x3xf32>");
  EXPECT_EQ(opsNamed(*module, "ge.relu").size(), 300u);
}

} // namespace
