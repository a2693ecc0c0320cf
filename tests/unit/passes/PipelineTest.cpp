//===- PipelineTest.cpp - compileOnnxFile end to end ----------------------===//

#include "TestSupport.h"

#include "passes/Pipeline.h"

using namespace geflow;
using namespace geflow::passes;

namespace {

TEST(Pipeline, CompilesTinyCnn) {
  auto result = compileOnnxFile(fixtures::tinyCnnPath());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  const CompileStats &stats = result->stats;
  EXPECT_EQ(stats.computeOpCount, 13u);
  EXPECT_EQ(stats.kernelCount, 13u);
  EXPECT_EQ(stats.taskCount, 15u);
  EXPECT_EQ(stats.streamCount, 1u);
  EXPECT_EQ(stats.eventCount, 0u);
  EXPECT_GT(stats.weightsBytes, 0u);
  EXPECT_LT(stats.workspaceBytes, stats.workspaceBytesWithoutReuse);
  EXPECT_GT(stats.compileTimeMs, 0);
  EXPECT_EQ(result->model.modelDef.name(), "tiny_cnn");
  EXPECT_EQ(result->model.socName, "ascend910b-sim");
}

TEST(Pipeline, NoReuseMeansNoSharing) {
  CompileOptions options;
  options.reuseMemory = false;
  auto result = compileOnnxFile(fixtures::tinyCnnPath(), options);
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  EXPECT_EQ(result->stats.workspaceBytes,
            result->stats.workspaceBytesWithoutReuse);
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
