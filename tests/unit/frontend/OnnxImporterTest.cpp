//===- OnnxImporterTest.cpp - the ONNX frontend on models built in code ---===//

#include "frontends/onnx/OnnxImporter.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace geflow;
using namespace geflow::test;
using mlir::Operation;

namespace {

onnx::ModelProto convReluModel() {
  OnnxModelBuilder b;
  b.input("X", {1, 3, 8, 8});
  b.floatInit("W", {4, 3, 3, 3}, std::vector<float>(4 * 3 * 3 * 3, 0.5f));
  b.floatInit("B", {4}, {1, 2, 3, 4});
  auto &conv = b.node("Conv", {"X", "W", "B"}, {"c"}, "conv1");
  setInts(conv, "kernel_shape", {3, 3});
  setInts(conv, "pads", {1, 1, 1, 1});
  setInts(conv, "strides", {1, 1});
  b.node("Relu", {"c"}, {"Y"}, "relu1");
  b.output("Y");
  return b.model;
}

TEST_F(OnnxImporterTest, ConvReluHasStaticTypesAttrsNamesAndLocations) {
  auto module = importOk(convReluModel());
  ASSERT_TRUE(module);
  auto func = mainFunc(*module);
  ASSERT_TRUE(func);
  EXPECT_EQ(typeStr(func.getFunctionType()),
            "(tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32>");
  EXPECT_EQ(func.getArgAttrOfType<mlir::StringAttr>(0, "ge.name").getValue(),
            "X");
  EXPECT_EQ(func.getResultAttrOfType<mlir::StringAttr>(0, "ge.name").getValue(),
            "Y");

  auto convs = opsNamed(*module, "ge.conv");
  ASSERT_EQ(convs.size(), 1u);
  Operation *conv = convs[0];
  EXPECT_EQ(conv->getNumOperands(), 3u);
  EXPECT_EQ(typeStr(conv->getResult(0).getType()), "tensor<1x4x8x8xf32>");
  auto kernel = conv->getAttrOfType<mlir::DenseI64ArrayAttr>("kernel_shape");
  ASSERT_TRUE(kernel);
  EXPECT_EQ(kernel.asArrayRef().vec(), (std::vector<int64_t>{3, 3}));
  auto pads = conv->getAttrOfType<mlir::DenseI64ArrayAttr>("pads");
  ASSERT_TRUE(pads);
  EXPECT_EQ(pads.asArrayRef().vec(), (std::vector<int64_t>{1, 1, 1, 1}));
  auto loc = llvm::dyn_cast<mlir::NameLoc>(conv->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getName().getValue(), "conv1");
  EXPECT_TRUE(llvm::isa<mlir::FileLineColLoc>(loc.getChildLoc()));

  // The weights are ge.constant ops with the initializer's values.
  Operation *weights = conv->getOperand(1).getDefiningOp();
  ASSERT_TRUE(weights);
  EXPECT_EQ(weights->getName().getStringRef(), "ge.constant");
  auto value = weights->getAttrOfType<mlir::DenseElementsAttr>("value");
  ASSERT_TRUE(value);
  EXPECT_EQ(value.getNumElements(), 4 * 3 * 3 * 3);
  EXPECT_FLOAT_EQ(*value.getValues<float>().begin(), 0.5f);

  ASSERT_EQ(opsNamed(*module, "ge.relu").size(), 1u);
  expectAllStatic(*module);
}

/// Y = Reshape(X, Concat(Unsqueeze(Gather(Shape(X), 0), [0]), [-1])).
onnx::ModelProto shapeChainModel(const std::vector<Dim> &inputDims) {
  OnnxModelBuilder b;
  b.input("X", inputDims);
  b.int64Init("idx0", {}, {0});
  b.int64Init("axes0", {1}, {0});
  b.int64Init("minus1", {1}, {-1});
  b.node("Shape", {"X"}, {"s"}, "shape");
  b.node("Gather", {"s", "idx0"}, {"batch"}, "gather");
  b.node("Unsqueeze", {"batch", "axes0"}, {"batch1"}, "unsqueeze");
  setInt(b.node("Concat", {"batch1", "minus1"}, {"newShape"}, "concat"), "axis",
         0);
  b.node("Reshape", {"X", "newShape"}, {"Y"}, "reshape");
  b.output("Y");
  return b.model;
}

TEST_F(OnnxImporterTest, ShapeGatherConcatReshapeChainFoldsToStaticReshape) {
  auto module = importOk(shapeChainModel({2, 3, 4}));
  ASSERT_TRUE(module);
  auto reshapes = opsNamed(*module, "ge.reshape");
  ASSERT_EQ(reshapes.size(), 1u);
  EXPECT_EQ(typeStr(reshapes[0]->getResult(0).getType()), "tensor<2x12xf32>");
  // The shape computation folded into one constant feeding the reshape.
  Operation *shape = reshapes[0]->getOperand(1).getDefiningOp();
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->getName().getStringRef(), "ge.constant");
  auto value = shape->getAttrOfType<mlir::DenseElementsAttr>("value");
  ASSERT_TRUE(value);
  std::vector<int64_t> dims(value.getValues<int64_t>().begin(),
                            value.getValues<int64_t>().end());
  EXPECT_EQ(dims, (std::vector<int64_t>{2, -1}));
  for (const char *gone :
       {"ge.shape", "ge.gather", "ge.unsqueeze", "ge.concat"})
    EXPECT_TRUE(opsNamed(*module, gone).empty()) << gone << " was not folded";
  expectAllStatic(*module);
}

TEST_F(OnnxImporterTest, ShapeChainThroughDivIsRefinedByFolding) {
  // libonnx's data propagation stops at Div, so Slice's `ends` is unknown to
  // its inference; the dialect's folders compute it and inference runs again.
  OnnxModelBuilder b;
  b.input("X", {2, 6, 4});
  b.int64Init("one", {}, {1});
  b.int64Init("two", {}, {2});
  b.int64Init("axes0", {1}, {0});
  b.int64Init("starts", {1}, {0});
  b.int64Init("axis1", {1}, {1});
  b.node("Shape", {"X"}, {"s"}, "shape");
  b.node("Gather", {"s", "one"}, {"channels"}, "gather");
  b.node("Div", {"channels", "two"}, {"half"}, "div");
  b.node("Unsqueeze", {"half", "axes0"}, {"ends"}, "unsqueeze");
  b.node("Slice", {"X", "starts", "ends", "axis1"}, {"Y"}, "first_half");
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto slices = opsNamed(*module, "ge.slice");
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(typeStr(slices[0]->getResult(0).getType()), "tensor<2x3x4xf32>");
  EXPECT_TRUE(opsNamed(*module, "ge.div").empty());
  auto loc = llvm::dyn_cast<mlir::NameLoc>(slices[0]->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getName().getValue(), "first_half");
  expectAllStatic(*module);
}

TEST_F(OnnxImporterTest, ExternalWeightsAreReadBesideTheModel) {
  std::string dir = ::testing::TempDir() + "geflow_external_data";
  std::filesystem::create_directories(dir);
  std::vector<float> weights(3 * 5);
  for (size_t i = 0; i < weights.size(); ++i)
    weights[i] = float(i);
  {
    std::ofstream out(dir + "/weights.bin", std::ios::binary);
    out.write("pad!", 4);
    out.write(reinterpret_cast<const char *>(weights.data()),
              weights.size() * sizeof(float));
  }
  OnnxModelBuilder b;
  b.input("X", {2, 3});
  auto *w = b.graph().add_initializer();
  w->set_name("W");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(3);
  w->add_dims(5);
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto addEntry = [&](const char *key, const std::string &value) {
    auto *entry = w->add_external_data();
    entry->set_key(key);
    entry->set_value(value);
  };
  addEntry("location", "weights.bin");
  addEntry("offset", "4");
  addEntry("length", std::to_string(weights.size() * sizeof(float)));
  b.node("MatMul", {"X", "W"}, {"Y"}, "mm");
  b.output("Y");
  {
    std::ofstream out(dir + "/model.onnx", std::ios::binary);
    b.model.SerializeToOstream(&out);
  }
  auto module = importOnnxFile(context, dir + "/model.onnx");
  ASSERT_TRUE(bool(module)) << llvm::toString(module.takeError());
  Operation *mm = opsNamed(**module, "ge.matmul").at(0);
  auto value =
      mm->getOperand(1).getDefiningOp()->getAttrOfType<mlir::DenseElementsAttr>(
          "value");
  ASSERT_TRUE(value);
  std::vector<float> read(value.getValues<float>().begin(),
                          value.getValues<float>().end());
  EXPECT_EQ(read, weights);
}

TEST_F(OnnxImporterTest, InputShapeFixesSymbolicBatch) {
  onnx::ModelProto model = shapeChainModel({std::string("N"), 3, 4});
  std::string error = importError(model);
  EXPECT_NE(error.find("graph input 'X' has a dynamic shape [N,3,4]"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("--input-shape"), std::string::npos) << error;

  auto shapes = parseInputShapeOption("X:5,3,4");
  ASSERT_TRUE(bool(shapes)) << llvm::toString(shapes.takeError());
  OnnxImportOptions options;
  options.inputShapes = *shapes;
  auto module = importOk(model, options);
  ASSERT_TRUE(module);
  EXPECT_EQ(typeStr(mainFunc(*module).getFunctionType()),
            "(tensor<5x3x4xf32>) -> tensor<5x12xf32>");
  expectAllStatic(*module);
}

TEST_F(OnnxImporterTest, InputShapeMustMatchTheModel) {
  OnnxImportOptions options;
  options.inputShapes = {{"X", {5, 3}}};
  EXPECT_NE(importError(shapeChainModel({std::string("N"), 3, 4}), options)
                .find("input 'X' has rank 3, but 2 dims were given"),
            std::string::npos);
  options.inputShapes = {{"nope", {1}}};
  EXPECT_NE(importError(shapeChainModel({2, 3, 4}), options)
                .find("no input named 'nope' (inputs: X)"),
            std::string::npos);
  options.inputShapes = {{"X", {2, 5, 4}}};
  EXPECT_NE(importError(shapeChainModel({2, 3, 4}), options)
                .find("dim 1 is fixed to 3 by the model, not 5"),
            std::string::npos);
  options.inputShapes = {{"X", {-1, 3, 4}}};
  EXPECT_NE(importError(shapeChainModel({std::string("N"), 3, 4}), options)
                .find("input 'X' dim 0 is -1; give its values with "
                      "--dynamic-batch-size"),
            std::string::npos);
}

TEST_F(OnnxImporterTest, ParseInputShapeOption) {
  auto shapes = parseInputShapeOption("image:1,3,224,224 mask:1,224  scalar:");
  ASSERT_TRUE(bool(shapes)) << llvm::toString(shapes.takeError());
  ASSERT_EQ(shapes->size(), 3u);
  EXPECT_EQ((*shapes)[0].first, "image");
  EXPECT_EQ((*shapes)[0].second, (std::vector<int64_t>{1, 3, 224, 224}));
  EXPECT_EQ((*shapes)[1].first, "mask");
  EXPECT_EQ((*shapes)[1].second, (std::vector<int64_t>{1, 224}));
  EXPECT_TRUE((*shapes)[2].second.empty());
  // The name is everything before the last ':'.
  auto scoped = parseInputShapeOption("encoder:input:2,8");
  ASSERT_TRUE(bool(scoped));
  EXPECT_EQ((*scoped)[0].first, "encoder:input");
  // -1 leaves a dim to the gears.
  auto open = parseInputShapeOption("data:-1,3,224,224");
  ASSERT_TRUE(bool(open));
  EXPECT_EQ((*open)[0].second, (std::vector<int64_t>{-1, 3, 224, 224}));

  for (const char *bad : {"", "image", ":1,2", "x:1,,2", "x:1,-2", "x:a"}) {
    auto result = parseInputShapeOption(bad);
    EXPECT_FALSE(bool(result)) << bad;
    if (!result) {
      std::string message = llvm::toString(result.takeError());
      EXPECT_NE(message.find("--input-shape"), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos);
    }
  }
}

TEST_F(OnnxImporterTest, StreamAnnotationsBecomeGeAttributes) {
  OnnxModelBuilder b;
  b.input("X", {4});
  auto &relu = b.node("Relu", {"X"}, {"r"}, "relu_on_moe");
  setString(relu, "_user_stream_label", "moe");
  setInt(relu, "_user_stream_priority", 2);
  setInt(relu, "_enable_inner_parallel", 0);
  setInt(relu, "_op_aicore_num", 8);
  setString(relu, "_op_vectorcore_num", "16");
  b.node("Neg", {"r"}, {"Y"}, "plain");
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto relus = opsNamed(*module, "ge.relu");
  ASSERT_EQ(relus.size(), 1u);
  Operation *op = relus[0];
  EXPECT_EQ(op->getAttrOfType<mlir::StringAttr>("ge.stream_label").getValue(),
            "moe");
  EXPECT_EQ(op->getAttrOfType<mlir::IntegerAttr>("ge.stream_priority").getInt(),
            2);
  EXPECT_EQ(op->getAttrOfType<mlir::BoolAttr>("ge.inner_parallel").getValue(),
            false);
  EXPECT_EQ(op->getAttrOfType<mlir::IntegerAttr>("ge.aicore_num").getInt(), 8);
  EXPECT_EQ(op->getAttrOfType<mlir::IntegerAttr>("ge.vectorcore_num").getInt(),
            16);
  EXPECT_FALSE(op->hasAttr("_user_stream_label"));
  Operation *neg = opsNamed(*module, "ge.neg").at(0);
  EXPECT_FALSE(neg->hasAttr("ge.stream_label"));
}

TEST_F(OnnxImporterTest, BadAnnotationNamesNodeAndAttribute) {
  OnnxModelBuilder b;
  b.input("X", {4});
  setInt(b.node("Relu", {"X"}, {"Y"}, "r"), "_op_aicore_num", 0);
  b.output("Y");
  EXPECT_EQ(importError(b.model),
            "node 'r' (Relu, opset 17): attribute '_op_aicore_num' must be an "
            "integer >= 1, got 0");
}

TEST_F(OnnxImporterTest, UnsupportedOpNamesTypeNodeAndOpset) {
  OnnxModelBuilder b;
  b.input("boxes", {1, 4, 4});
  b.input("scores", {1, 1, 4});
  b.node("NonMaxSuppression", {"boxes", "scores"}, {"Y"}, "foo");
  b.output("Y", onnx::TensorProto::INT64);
  EXPECT_EQ(importError(b.model),
            "node 'foo' (NonMaxSuppression, opset 17): unsupported op");
  EXPECT_FALSE(isOnnxOpSupported("NonMaxSuppression"));
  EXPECT_TRUE(isOnnxOpSupported("Conv"));
}

TEST_F(OnnxImporterTest, ForeignDomainIsUnsupported) {
  OnnxModelBuilder b;
  auto *ml = b.model.add_opset_import();
  ml->set_domain("ai.onnx.ml");
  ml->set_version(3);
  b.input("X", {4});
  b.node("Binarizer", {"X"}, {"Y"}, "bin").set_domain("ai.onnx.ml");
  b.output("Y");
  EXPECT_EQ(
      importError(b.model),
      "node 'bin' (ai.onnx.ml.Binarizer, opset 3): unsupported op (domain "
      "'ai.onnx.ml' is not ai.onnx)");
}

TEST_F(OnnxImporterTest, TruncatedOrForeignBytesAreOneLineErrors) {
  std::string bytes = convReluModel().SerializeAsString();
  for (size_t keep :
       {bytes.size() / 2, bytes.size() - 3, size_t(7), size_t(0)}) {
    auto module = importOnnxBytes(
        context, llvm::StringRef(bytes).take_front(keep), "cut.onnx");
    ASSERT_FALSE(bool(module)) << "kept " << keep << " bytes";
    std::string message = llvm::toString(module.takeError());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_FALSE(message.empty());
  }
  auto text = importOnnxBytes(context, "this is not a model at all", "x.onnx");
  ASSERT_FALSE(bool(text));
  std::string message = llvm::toString(text.takeError());
  EXPECT_NE(message.find("'x.onnx': not an ONNX model"), std::string::npos)
      << message;

  auto missing = importOnnxFile(context, "/nonexistent/model.onnx");
  ASSERT_FALSE(bool(missing));
  EXPECT_NE(llvm::toString(missing.takeError()).find("cannot read"),
            std::string::npos);
}

TEST_F(OnnxImporterTest, Opset11ModelIsUpgradedTo17) {
  // At opset 11 Unsqueeze takes `axes` as an attribute and ReduceSum too; at 13
  // both became inputs.
  OnnxModelBuilder b(/*opset=*/11, /*irVersion=*/6);
  b.input("X", {3, 4});
  setInts(b.node("Unsqueeze", {"X"}, {"u"}, "unsq"), "axes", {0});
  auto &sum = b.node("ReduceSum", {"u"}, {"Y"}, "sum");
  setInts(sum, "axes", {2});
  setInt(sum, "keepdims", 0);
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto unsqueezes = opsNamed(*module, "ge.unsqueeze");
  auto sums = opsNamed(*module, "ge.reduce_sum");
  ASSERT_EQ(unsqueezes.size(), 1u);
  ASSERT_EQ(sums.size(), 1u);
  EXPECT_EQ(unsqueezes[0]->getNumOperands(), 2u);
  EXPECT_FALSE(unsqueezes[0]->hasAttr("axes"));
  EXPECT_EQ(sums[0]->getNumOperands(), 2u);
  EXPECT_EQ(typeStr(sums[0]->getResult(0).getType()), "tensor<1x3xf32>");
  // Node names survive the converter.
  auto loc = llvm::dyn_cast<mlir::NameLoc>(sums[0]->getLoc());
  ASSERT_TRUE(loc);
  EXPECT_EQ(loc.getName().getValue(), "sum");
}

TEST_F(OnnxImporterTest, InitializerThatIsAlsoAnInputIsAConstant) {
  OnnxModelBuilder b(/*opset=*/8, /*irVersion=*/3);
  b.input("X", {2, 3});
  b.input("W", {3, 5});
  b.floatInit("W", {3, 5}, std::vector<float>(15, 1.0f));
  b.node("MatMul", {"X", "W"}, {"Y"}, "mm");
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  auto func = mainFunc(*module);
  EXPECT_EQ(typeStr(func.getFunctionType()),
            "(tensor<2x3xf32>) -> tensor<2x5xf32>");
  Operation *mm = opsNamed(*module, "ge.matmul").at(0);
  ASSERT_TRUE(mm->getOperand(1).getDefiningOp());
  EXPECT_EQ(mm->getOperand(1).getDefiningOp()->getName().getStringRef(),
            "ge.constant");
}

TEST_F(OnnxImporterTest, ConstantValueFormsAndCastAndOptionalInputs) {
  OnnxModelBuilder b;
  b.input("X", {2, 3});
  auto &c = b.node("Constant", {}, {"lo"}, "lo");
  auto *attr = c.add_attribute();
  attr->set_name("value_float");
  attr->set_type(onnx::AttributeProto::FLOAT);
  attr->set_f(0.0f);
  // Clip(X, lo, <no max>): an unused optional input in the middle of segments.
  b.node("Clip", {"X", "lo", ""}, {"clipped"}, "clip");
  setInt(b.node("Cast", {"clipped"}, {"Y"}, "cast"), "to",
         onnx::TensorProto::INT32);
  b.output("Y", onnx::TensorProto::INT32);
  OnnxImportOptions options;
  options.fold = false;
  auto module = importOk(b.model, options);
  ASSERT_TRUE(module);
  Operation *constant = opsNamed(*module, "ge.constant").at(0);
  EXPECT_TRUE(constant->hasAttr("value"));
  EXPECT_FALSE(constant->hasAttr("value_float"));
  EXPECT_EQ(typeStr(constant->getResult(0).getType()), "tensor<f32>");
  Operation *clip = opsNamed(*module, "ge.clip").at(0);
  EXPECT_EQ(clip->getNumOperands(), 2u);
  Operation *cast = opsNamed(*module, "ge.cast").at(0);
  EXPECT_FALSE(cast->hasAttr("to"));
  EXPECT_EQ(typeStr(cast->getResult(0).getType()), "tensor<2x3xi32>");
}

TEST_F(OnnxImporterTest, DropoutAndMaxPoolGetTheirSecondResult) {
  OnnxModelBuilder b;
  b.input("X", {1, 1, 4, 4});
  b.node("Dropout", {"X"}, {"d"}, "drop");
  setInts(b.node("MaxPool", {"d"}, {"Y"}, "pool"), "kernel_shape", {2, 2});
  b.output("Y");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  Operation *dropout = opsNamed(*module, "ge.dropout").at(0);
  ASSERT_EQ(dropout->getNumResults(), 2u);
  EXPECT_EQ(typeStr(dropout->getResult(1).getType()), "tensor<1x1x4x4xi1>");
  Operation *pool = opsNamed(*module, "ge.max_pool").at(0);
  ASSERT_EQ(pool->getNumResults(), 2u);
  EXPECT_EQ(typeStr(pool->getResult(0).getType()), "tensor<1x1x3x3xf32>");
  EXPECT_EQ(typeStr(pool->getResult(1).getType()), "tensor<1x1x3x3xi64>");
}

TEST_F(OnnxImporterTest, BatchNormTrainingOutputsAreAnError) {
  OnnxModelBuilder b;
  b.input("X", {1, 2, 3, 3});
  for (const char *name : {"scale", "bias", "mean", "var"})
    b.floatInit(name, {2}, {1, 1});
  auto &bn = b.node("BatchNormalization", {"X", "scale", "bias", "mean", "var"},
                    {"Y", "running_mean", "running_var"}, "bn");
  setInt(bn, "training_mode", 1);
  b.output("Y");
  b.output("running_mean");
  std::string error = importError(b.model);
  EXPECT_EQ(error.rfind("node 'bn' (BatchNormalization, opset 17): ", 0), 0u)
      << error;
  EXPECT_NE(error.find("training"), std::string::npos) << error;
}

// Found by tests/fuzz (geflow-fuzz-onnx-import): a typeless 'axis' became an
// empty ints attribute, which the op's int property dropped to null; the
// verifier then read the null (SEGV).
TEST_F(OnnxImporterTest, AttributeOfTheWrongTypeIsAnError) {
  OnnxModelBuilder b;
  b.input("X", {2, 3, 4});
  b.floatInit("scale", {4}, {1, 1, 1, 1});
  auto &ln = b.node("LayerNormalization", {"X", "scale"}, {"Y"}, "ln");
  ln.add_attribute()->set_name("axis"); // no type, no value
  b.output("Y");
  std::string error = importError(b.model);
  EXPECT_EQ(error, "node 'ln' (LayerNormalization, opset 17): attribute 'axis' "
                   "does not have the type LayerNormalization takes for it")
      << error;
}

// Found by tests/fuzz (geflow-fuzz-onnx-import): libonnx's version converter
// read the missing second input of a broadcasting Mul (SEGV).
TEST_F(OnnxImporterTest, InputCountOutsideTheSchemaIsAnError) {
  OnnxModelBuilder b;
  b.input("X", {2, 3});
  b.node("Mul", {"X"}, {"Y"}, "mul");
  b.output("Y");
  EXPECT_EQ(importError(b.model),
            "node 'mul' (Mul, opset 17): has 1 input, Mul takes 2");
}

} // namespace
