//===- ModelChecksTest.cpp - what a model declares, checked first ---------===//
//
// Bad input: declared sizes, types and wiring that used to crash, abort or
// allocate are one-line errors naming the place.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/ModelChecks.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

using namespace geflow;
using namespace geflow::test;

namespace {

/// x[1,4] -> Relu -> MatMul(w[4,2]) -> y.
OnnxModelBuilder reluMatMul() {
  OnnxModelBuilder b;
  b.input("x", {int64_t(1), int64_t(4)});
  b.floatInit("w", {4, 2}, std::vector<float>(8, 1.0f));
  b.node("Relu", {"x"}, {"r"}, "relu");
  b.node("MatMul", {"r", "w"}, {"y"}, "matmul");
  b.output("y");
  return b;
}

using ModelChecksTest = OnnxImporterTest;

TEST_F(ModelChecksTest, AWrongAttributeTypeIsNamedNotCrashed) {
  OnnxModelBuilder b = reluMatMul();
  onnx::NodeProto &gemm = *b.graph().mutable_node(1);
  gemm.set_op_type("Gemm");
  setString(gemm, "transA", "yes");
  EXPECT_EQ(importError(b.model), "node 'matmul' (Gemm, opset 17): attribute "
                                  "'transA' is STRING, expected INT");
}

TEST_F(ModelChecksTest, TensorLimitBeforeAllocating) {
  OnnxImportOptions options;
  options.limits.maxTensorBytes = uint64_t(1) << 30;
  OnnxModelBuilder b = reluMatMul();
  b.graph().mutable_initializer(0)->set_dims(1, int64_t(1) << 50);
  EXPECT_EQ(importError(b.model, options),
            "initializer 'w': FLOAT[4,1125899906842624] is 18014398509481984 "
            "bytes, over the limit of 1073741824 (--max-tensor-bytes)");

  options.limits.maxTensorBytes = 16;
  EXPECT_EQ(importError(reluMatMul().model, options),
            "initializer 'w': FLOAT[4,2] is 32 bytes, over the limit of 16 "
            "(--max-tensor-bytes)");
}

TEST_F(ModelChecksTest, DimProductOverflowIsOverTheLimit) {
  OnnxModelBuilder b = reluMatMul();
  b.graph().mutable_input(0)->Clear();
  OnnxModelBuilder::setType(*b.graph().mutable_input(0), "x",
                            {int64_t(1) << 40, int64_t(1) << 40},
                            onnx::TensorProto::FLOAT);
  EXPECT_EQ(importError(b.model),
            "graph input 'x': FLOAT[1099511627776,1099511627776] is more than "
            "2^64 bytes, over the limit of 18446744073709551615 "
            "(--max-tensor-bytes)");
}

TEST_F(ModelChecksTest, InferredIntermediatesAreCapped) {
  // ConstantOfShape of 2^42 elements: only shape inference sees the size.
  OnnxModelBuilder b = reluMatMul();
  b.int64Init("shape", {2}, {int64_t(1) << 21, int64_t(1) << 21});
  b.node("ConstantOfShape", {"shape"}, {"zeros"}, "zeros");
  b.output("zeros");
  OnnxImportOptions options;
  options.limits.maxTensorBytes = uint64_t(1) << 30;
  EXPECT_EQ(importError(b.model, options),
            "graph output 'zeros': FLOAT[2097152,2097152] is 17592186044416 "
            "bytes, over the limit of 1073741824 (--max-tensor-bytes)");
}

TEST_F(ModelChecksTest, NodeLimitNamesTheModel) {
  OnnxImportOptions options;
  options.limits.maxNodes = 1;
  EXPECT_EQ(importError(reluMatMul().model, options),
            "'test.onnx': the graph has 2 nodes, over the limit of 1 "
            "(--max-nodes)");
}

TEST_F(ModelChecksTest, GraphOutputsMustExistOnce) {
  OnnxModelBuilder none = reluMatMul();
  none.graph().clear_output();
  EXPECT_EQ(importError(none.model), "'test.onnx': the graph has no outputs");
  OnnxModelBuilder twice = reluMatMul();
  twice.output("y");
  EXPECT_EQ(importError(twice.model), "graph output 'y' is listed twice");
}

TEST_F(ModelChecksTest, UnsupportedElementTypesAndNegativeDims) {
  OnnxModelBuilder text = reluMatMul();
  text.graph().mutable_input(0)->Clear();
  OnnxModelBuilder::setType(*text.graph().mutable_input(0), "x",
                            {int64_t(1), int64_t(4)},
                            onnx::TensorProto::STRING);
  EXPECT_EQ(importError(text.model), "graph input 'x' has element type "
                                     "STRING, which geflow does not support");
  OnnxModelBuilder negative = reluMatMul();
  negative.graph().mutable_initializer(0)->set_dims(0, -2);
  EXPECT_EQ(importError(negative.model),
            "initializer 'w': dim 0 is -2 in [-2,2]");
}

TEST(DescribeInferenceFailure, FirstErrorLedByItsNode) {
  EXPECT_EQ(
      onnxfe::describeInferenceFailure(
          "[ShapeInferenceError] Shape inference error(s): (op_type:Conv, "
          "node name: c1): [ShapeInferenceError] Attribute kernel_shape "
          "has incorrect size\n(op_type:Add, node name: a): "
          "[TypeInferenceError] Input 0 expected to have type"),
      "node 'c1' (Conv): shape inference failed: Attribute kernel_shape "
      "has incorrect size");
  EXPECT_EQ(onnxfe::describeInferenceFailure("Invalid tensor data type 0."),
            "shape inference failed: Invalid tensor data type 0.");
}

} // namespace
