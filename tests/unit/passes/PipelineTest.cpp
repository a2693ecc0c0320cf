//===- PipelineTest.cpp - compileOnnxFile end to end ----------------------===//

#include "TestSupport.h"

#include "tools/driver/CompileDriver.h"

#include "executor/model/OmModel.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "llvm/Support/FileSystem.h"

#include <cstring>
#include <fstream>

using namespace geflow;
using namespace geflow::driver;
using geflow::passes::CompileStats;
using geflow::passes::StreamMode;
namespace fixtures = geflow::passes::fixtures;

namespace {

TEST(Pipeline, CompilesTinyCnn) {
  // One stream, so the counts do not follow the cost model's judgement of
  // whether a second stream pays (StreamModesTest covers that).
  CompileOptions options;
  options.streamMode = StreamMode::kSingle;
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  const CompileStats &stats = result->stats;
  // 13 ops; fusion folds three relu/sigmoid into their convs and the
  // residual add + relu into the fourth conv; the Reshape is a view (no
  // kernel).
  EXPECT_EQ(stats.computeOpCount, 8u);
  EXPECT_EQ(stats.kernelCount, 7u);
  EXPECT_EQ(stats.taskCount, 9u);
  EXPECT_EQ(stats.streamCount, 1u);
  EXPECT_EQ(stats.eventCount, 0u);
  EXPECT_GT(stats.weightsBytes, 0u);
  EXPECT_LT(stats.workspaceBytes, stats.workspaceBytesWithoutReuse);
  EXPECT_GT(stats.compileTimeMs, 0);
  EXPECT_EQ(result->model.modelDef.name(), "tiny_cnn");
  EXPECT_EQ(result->model.socName, "ascend910b-sim");
}

TEST(Pipeline, TinyCnnHasAKernelForEveryOp) {
  // The kernels' own plans, not the compiler's estimate, for every op.
  CompileOptions options;
  options.requireKernels = true;
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->stats.kernelCount, 7u);
}

/// `model` written to a temporary OM file and loaded back (null on failure).
std::unique_ptr<om::LoadedOm> writeAndLoad(const om::OmModel &model) {
  llvm::SmallString<128> path;
  if (llvm::sys::fs::createTemporaryFile("pipeline", "om", path)) {
    ADD_FAILURE() << "no temporary file";
    return nullptr;
  }
  rt::Status st = om::writeOmFile(model, path.str().str());
  std::unique_ptr<om::LoadedOm> loaded;
  if (st.isOk())
    st = om::loadOmFile(path.str().str(), &loaded);
  llvm::sys::fs::remove(path);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return loaded;
}

TEST(Pipeline, WrittenModelLoadsBack) {
  auto result = compileOnnxFile(fixtures::tinyCnnPath());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  std::unique_ptr<om::LoadedOm> loaded = writeAndLoad(result->model);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->graph().op_size(),
            result->model.modelDef.graph(0).op_size());
  EXPECT_EQ(loaded->taskDef().task_size(), result->model.taskDef.task_size());
  EXPECT_EQ(loaded->memoryPlan().workspace_size(),
            result->stats.workspaceBytes);
  EXPECT_EQ(loaded->weightsSize(), result->stats.weightsBytes);
}

TEST(Pipeline, LargeWeightsGoFromTheModelFileStraightIntoTheOm) {
  // Y = X (1x128) @ W (128x256): W (128 KiB) stays in the ONNX file's mapping
  // through the compile and is copied once, when the OM is written.
  std::vector<float> w(128 * 256);
  for (size_t i = 0; i < w.size(); ++i)
    w[i] = float(i % 1000) * 0.25f;
  test::OnnxModelBuilder b;
  b.input("X", {1, 128});
  b.floatInit("W", {128, 256}, w);
  b.floatInit("B", {256}, std::vector<float>(256, 1.0f));
  b.node("MatMul", {"X", "W"}, {"XW"}, "mm");
  b.node("Add", {"XW", "B"}, {"Y"}, "add");
  b.output("Y");
  llvm::SmallString<128> onnxPath;
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("large_weights", "onnx", onnxPath));
  {
    std::ofstream out(onnxPath.str().str(), std::ios::binary);
    b.model.SerializeToOstream(&out);
  }
  auto result = compileOnnxFile(onnxPath);
  // The model keeps the mapping; the file's name may go.
  llvm::sys::fs::remove(onnxPath);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  ASSERT_EQ(result->model.borrowedWeights.size(), 1u);
  EXPECT_EQ(result->model.borrowedWeights[0].bytes.size(),
            w.size() * sizeof(float));

  std::unique_ptr<om::LoadedOm> loaded = writeAndLoad(result->model);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->weightsSize(), result->stats.weightsBytes);
  const om::OpDef *weight = nullptr;
  for (const om::OpDef &op : loaded->graph().op())
    if (op.name() == "W")
      weight = &op;
  ASSERT_TRUE(weight);
  int64_t offset = weight->attr().at("weight_offset").i();
  ASSERT_EQ(weight->attr().at("weight_size").i(),
            int64_t(w.size() * sizeof(float)));
  EXPECT_EQ(0, std::memcmp(loaded->weights() + offset, w.data(),
                           w.size() * sizeof(float)));
}

TEST(Pipeline, NoReuseMeansNoSharing) {
  CompileOptions options;
  options.reuseMemory = false;
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->stats.workspaceBytes,
            result->stats.workspaceBytesWithoutReuse);
}

TEST(Pipeline, FusionsSwitchOffByName) {
  CompileOptions options;
  options.disabledFusions = {"all"};
  auto unfused = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(unfused)) << llvm::toString(unfused.takeError());
  EXPECT_EQ(unfused->stats.kernelCount, 12u);
  // Without bias-activation the three conv activations stay kernels.
  options.disabledFusions = {"bias-activation"};
  auto residualOnly = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(residualOnly)) << llvm::toString(residualOnly.takeError());
  EXPECT_EQ(residualOnly->stats.kernelCount, 10u);
}

TEST(Pipeline, UnknownFusionNameIsAnError) {
  CompileOptions options;
  options.disabledFusions = {"residual", "conv-bn"};
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_FALSE(bool(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_NE(message.find("unknown fusion 'conv-bn'"), std::string::npos)
      << message;
  for (const char *valid : {"all", "batchnorm", "bias-activation", "residual"})
    EXPECT_NE(message.find(valid), std::string::npos) << message;
}

TEST(Pipeline, UnknownSocIsAnError) {
  CompileOptions options;
  options.soc = "no-such-chip";
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_FALSE(bool(result));
  std::string message = llvm::toString(result.takeError());
  EXPECT_NE(message.find("no-such-chip"), std::string::npos) << message;
}

TEST(Pipeline, MissingFileIsAnError) {
  auto result = compileOnnxFile("/nonexistent/model.onnx");
  ASSERT_FALSE(bool(result));
  llvm::consumeError(result.takeError());
}

} // namespace
