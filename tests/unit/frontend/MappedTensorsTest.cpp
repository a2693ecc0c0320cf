//===- MappedTensorsTest.cpp - large initializers read from the mapping ---===//

#include "frontends/onnx/MappedTensors.h"
#include "tests/unit/frontend/OnnxImporterTestFixture.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

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

  std::optional<llvm::ArrayRef<char>> raw = mapped.lookup("W");
  ASSERT_TRUE(raw);
  EXPECT_EQ(raw->data(),
            bytes.data() + bytes.find(b.graph().initializer(0).raw_data()));
  EXPECT_EQ(raw->size(), w.size() * sizeof(float));
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
  /// Imports `b` from a file, as `geflow compile` does, and returns W's data.
  std::vector<float> importedWeights(const OnnxModelBuilder &b,
                                     const std::string &name) {
    std::string path = ::testing::TempDir() + "geflow_mapped_" + name + ".onnx";
    {
      std::ofstream out(path, std::ios::binary);
      b.model.SerializeToOstream(&out);
    }
    auto module = importOnnxFile(context, path);
    std::filesystem::remove(path);
    if (!module) {
      ADD_FAILURE() << llvm::toString(module.takeError());
      return {};
    }
    mlir::Operation *mm = opsNamed(**module, "ge.matmul").at(0);
    auto value = mm->getOperand(1)
                     .getDefiningOp()
                     ->getAttrOfType<mlir::DenseElementsAttr>("value");
    if (!value)
      return {};
    return {value.getValues<float>().begin(), value.getValues<float>().end()};
  }
};

TEST_F(MappedImportTest, FileImportReadsCutWeightsFromTheMapping) {
  EXPECT_EQ(importedWeights(matMulAddModel(), "opset17"), largeWeights());
}

TEST_F(MappedImportTest, CutWeightsSurviveTheVersionConverter) {
  EXPECT_EQ(importedWeights(matMulAddModel(11), "opset11"), largeWeights());
}

} // namespace
