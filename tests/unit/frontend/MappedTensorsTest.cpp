//===- MappedTensorsTest.cpp - large initializers read from the mapping ---===//

#include "frontends/onnx/MappedTensors.h"
#include "ir/ElementsBytes.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Parser/Parser.h"

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace geflow;
using namespace geflow::onnxfe;
using namespace geflow::test;

namespace {

/// 128 x 256 floats (128 KiB, above MappedTensors::kMinBytes), value i at i.
std::vector<float> largeWeights() {
  std::vector<float> w(128 * 256);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = float(i % 1000) * 0.5f;
  return w;
}

/// Y = X (1x128) @ W (128x256) + B (256): W is cut, B is not.
OnnxModelBuilder matMulAddModel(int64_t opset = 17) {
  OnnxModelBuilder b(opset, opset >= 17 ? 8 : 6);
  b.input("X", {1, 128});
  b.floatInit("W", {128, 256}, largeWeights());
  b.floatInit("B", {256}, std::vector<float>(256, 1.0f));
  b.node("MatMul", {"X", "W"}, {"XW"}, "mm");
  b.node("Add", {"XW", "B"}, {"Y"}, "add");
  b.output("Y");
  return b;
}

TEST(MappedTensors, CutsLargeRawDataAndKeepsEverythingElse) {
  OnnxModelBuilder b = matMulAddModel();
  std::string bytes = b.model.SerializeAsString();
  MappedTensors mapped;
  std::optional<std::string> slim = cutLargeRawData(bytes, mapped);
  ASSERT_TRUE(slim);
  std::vector<float> w = largeWeights();
  EXPECT_LT(slim->size(), bytes.size() - w.size() * sizeof(float));

  std::optional<ExternalBytes> raw = mapped.lookup("W");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->bytes.data(),
            bytes.data() + bytes.find(b.graph().initializer(0).raw_data()));
  EXPECT_EQ(raw->bytes.size(), w.size() * sizeof(float));
  EXPECT_FALSE(mapped.lookup("B"));

  onnx::ModelProto parsed;
  ASSERT_TRUE(parsed.ParseFromString(*slim));
  // The same model but W's raw_data.
  onnx::ModelProto expected = b.model;
  expected.mutable_graph()->mutable_initializer(0)->clear_raw_data();
  EXPECT_EQ(parsed.SerializeAsString(), expected.SerializeAsString());
}

TEST(MappedTensors, NothingToCutOrMalformedBytesLeaveTheParserInCharge) {
  MappedTensors mapped;
  OnnxModelBuilder small;
  small.floatInit("B", {4}, {1, 2, 3, 4});
  EXPECT_FALSE(cutLargeRawData(small.model.SerializeAsString(), mapped));

  std::string bytes = matMulAddModel().model.SerializeAsString();
  for (size_t keep : {bytes.size() - 1, bytes.size() / 2, size_t(3)}) {
    EXPECT_FALSE(
        cutLargeRawData(llvm::StringRef(bytes).take_front(keep), mapped))
        << "keep " << keep;
    EXPECT_TRUE(mapped.rawData.empty());
  }
  EXPECT_FALSE(cutLargeRawData("\x0b\x0c", mapped)); // a group: not ONNX
}

TEST(MappedTensors, TensorsWithExternalDataAreLeftToTheirPath) {
  OnnxModelBuilder b = matMulAddModel();
  auto *entry = b.graph().mutable_initializer(0)->add_external_data();
  entry->set_key("location");
  entry->set_value("weights.bin");
  MappedTensors mapped;
  EXPECT_FALSE(cutLargeRawData(b.model.SerializeAsString(), mapped));
}

TEST(MappedTensors, TwoLargeInitializersOfOneNameAreNotCut) {
  OnnxModelBuilder b = matMulAddModel();
  b.floatInit("W", {128, 256}, largeWeights());
  MappedTensors mapped;
  EXPECT_FALSE(cutLargeRawData(b.model.SerializeAsString(), mapped));
  EXPECT_TRUE(mapped.rawData.empty());
}

class MappedImportTest : public OnnxImporterTest {
protected:
  /// Imports `b` from a file, as `geflow compile` does.
  mlir::OwningOpRef<mlir::ModuleOp> importFromFile(const OnnxModelBuilder &b,
                                                   const std::string &name) {
    std::string path = ::testing::TempDir() + "geflow_mapped_" + name + ".onnx";
    {
      std::ofstream out(path, std::ios::binary);
      b.model.SerializeToOstream(&out);
    }
    auto module = importOnnxFile(context, path);
    // The module's weights keep the mapping; the name may go.
    std::filesystem::remove(path);
    if (!module) {
      ADD_FAILURE() << llvm::toString(module.takeError());
      return {};
    }
    return std::move(*module);
  }

  /// The value of the constant that feeds operand `index` of `op`.
  static mlir::ElementsAttr constantOperand(mlir::Operation *op,
                                            unsigned index) {
    return op->getOperand(index)
        .getDefiningOp()
        ->getAttrOfType<mlir::ElementsAttr>("value");
  }

  /// The floats of `value` read as the passes read them.
  static std::vector<float> floats(mlir::ElementsAttr value) {
    if (!value)
      return {};
    std::optional<llvm::ArrayRef<char>> bytes = mlir::ge::getStoredBytes(value);
    if (!bytes)
      return {};
    std::vector<float> out(bytes->size() / sizeof(float));
    std::memcpy(out.data(), bytes->data(), out.size() * sizeof(float));
    return out;
  }

  /// W of `module`: a resource over bytes outside the context (no copy).
  static std::vector<float> resourceWeights(mlir::ModuleOp module) {
    mlir::ElementsAttr w =
        constantOperand(opsNamed(module, "ge.matmul").at(0), 1);
    EXPECT_TRUE(llvm::isa_and_nonnull<mlir::DenseResourceElementsAttr>(w));
    return floats(w);
  }
};

TEST_F(MappedImportTest, FileImportPointsWeightsAtTheMapping) {
  auto module = importFromFile(matMulAddModel(), "opset17");
  ASSERT_TRUE(module);
  EXPECT_EQ(resourceWeights(*module), largeWeights());
  // The small bias (all ones: a splat) is copied into the context as before.
  auto bias = llvm::dyn_cast_or_null<mlir::DenseElementsAttr>(
      constantOperand(opsNamed(*module, "ge.add").at(0), 1));
  ASSERT_TRUE(bias);
  EXPECT_EQ(bias.getSplatValue<float>(), 1.0f);
}

TEST_F(MappedImportTest, CutWeightsSurviveTheVersionConverter) {
  auto module = importFromFile(matMulAddModel(11), "opset11");
  ASSERT_TRUE(module);
  EXPECT_EQ(resourceWeights(*module), largeWeights());
}

TEST_F(MappedImportTest, LargeRawDataInTheProtoMovesIntoTheContext) {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  {
    onnx::ModelProto model = matMulAddModel().model;
    module = importOk(model);
  } // The proto is gone; the weights stay.
  ASSERT_TRUE(module);
  EXPECT_EQ(resourceWeights(*module), largeWeights());
}

TEST_F(MappedImportTest, ResourceWeightsPrintAndParseBack) {
  OnnxModelBuilder b = matMulAddModel();
  // ONNX names that are no MLIR identifiers.
  b.graph().mutable_initializer(0)->set_name("onnx::MatMul_7");
  b.graph().mutable_node(0)->set_input(1, "onnx::MatMul_7");
  auto module = importOk(b.model);
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_NE(text.find("dense_resource<onnx__MatMul_7>"), std::string::npos);

  mlir::MLIRContext other(mlir::MLIRContext::Threading::DISABLED);
  registerOnnxImportDialects(other);
  auto parsed = mlir::parseSourceString<mlir::ModuleOp>(text, &other);
  ASSERT_TRUE(parsed);
  EXPECT_EQ(resourceWeights(*parsed), largeWeights());
}

} // namespace
