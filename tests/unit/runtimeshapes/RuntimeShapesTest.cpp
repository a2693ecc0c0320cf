//===- RuntimeShapesTest.cpp - shapes resolved per execution --------------===//

#include "tests/unit/ScratchFolder.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/RuntimeShapesModel.h"

#include "executor/model/OmFormat.h"
#include "runtime/Device.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

using namespace geflow;
using namespace geflow::test;

namespace {

template <typename T>
cli::HostTensor tensor(om::DataType dtype, std::vector<int64_t> shape,
                       const std::vector<T> &values) {
  cli::HostTensor t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.bytes.resize(values.size() * sizeof(T));
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

template <typename T> std::vector<T> valuesOf(const cli::HostTensor &t) {
  std::vector<T> values(t.bytes.size() / sizeof(T));
  std::memcpy(values.data(), t.bytes.data(), t.bytes.size());
  return values;
}

class RuntimeShapesTest : public InScratchFolder<> {
protected:
  void SetUp() override {
    rt::DeviceOptions options;
    options.workerThreads = 1;
    ASSERT_TRUE(rt::Device::create(options, &device_).isOk());
  }

  /// Writes `model`, compiles it as `geflow compile` does, writes and loads
  /// the OM, and prepares it for execution.
  std::unique_ptr<driver::RuntimeShapesModel>
  compileAndLoad(const onnx::ModelProto &model,
                 const driver::CompileOptions &options = {},
                 const driver::RuntimeShapesOptions &runOptions = {}) {
    std::string onnxPath = path("model.onnx"), omPath = path("model.om");
    {
      std::ofstream out(onnxPath, std::ios::binary);
      model.SerializeToOstream(&out);
    }
    auto compiled = driver::compileOnnxFileAnyShapes(onnxPath, options);
    if (!compiled) {
      ADD_FAILURE() << llvm::toString(compiled.takeError());
      return nullptr;
    }
    EXPECT_TRUE(driver::hasRuntimeShapes(compiled->model.modelDef));
    EXPECT_TRUE(om::writeOmFile(compiled->model, omPath).isOk());
    std::unique_ptr<om::LoadedOm> om;
    rt::Status loaded = om::loadOmFile(omPath, &om);
    EXPECT_TRUE(loaded.isOk()) << loaded.message();
    if (!loaded.isOk())
      return nullptr;
    auto runtime =
        driver::RuntimeShapesModel::create(*device_, std::move(om), runOptions);
    if (!runtime) {
      ADD_FAILURE() << llvm::toString(runtime.takeError());
      return nullptr;
    }
    return std::move(*runtime);
  }

  std::unique_ptr<rt::Device> device_;
};

/// y = Reshape(Relu(x), shape): the shape operand is a graph input and x's
/// first dim is symbolic.
onnx::ModelProto reshapeModel() {
  OnnxModelBuilder b;
  b.input("x", {std::string("N"), 4});
  b.input("shape", {2}, onnx::TensorProto::INT64);
  b.node("Relu", {"x"}, {"r"});
  b.node("Reshape", {"r", "shape"}, {"y"});
  b.output("y");
  return b.model;
}

TEST_F(RuntimeShapesTest, ReasonNamesWhatWaitsForRunTime) {
  EXPECT_EQ(driver::runtimeShapesReason(reshapeModel(), {}),
            "input 'x' dim 0 is symbolic");
  EXPECT_EQ(driver::runtimeShapesReason(reshapeModel(), {{"x", {2, 4}}}),
            "node 'Reshape_1' (Reshape, opset 17): input 1 is fed by graph "
            "input 'shape'");
  OnnxModelBuilder b;
  b.input("x", {2, 4});
  b.node("Relu", {"x"}, {"y"});
  b.output("y");
  EXPECT_EQ(driver::runtimeShapesReason(b.model, {}), "");
}

TEST_F(RuntimeShapesTest, ShapeOperandFromAGraphInputRunsPerShape) {
  auto model = compileAndLoad(reshapeModel());
  ASSERT_TRUE(model);
  ASSERT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(model->inputs()[0].shape, (std::vector<int64_t>{-1, 4}));

  std::vector<float> x = {-1, 2, -3, 4, 5, -6, 7, 8};
  std::vector<cli::HostTensor> outputs;
  driver::RuntimeShapesStats stats;
  auto run = [&](std::vector<int64_t> xShape, std::vector<float> xValues,
                 std::vector<int64_t> shape) {
    return model->execute(
        {tensor(om::DT_FLOAT, xShape, xValues),
         tensor(om::DT_INT64, {int64_t(shape.size())}, shape)},
        &outputs, &stats);
  };
  ASSERT_FALSE(bool(run({2, 4}, x, {4, 2})));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(valuesOf<float>(outputs[0]),
            (std::vector<float>{0, 2, 0, 4, 5, 0, 7, 8}));
  EXPECT_EQ(stats.stagesRun, 1);
  EXPECT_EQ(stats.stagesCompiled, 1);

  // The same shapes again compile nothing.
  ASSERT_FALSE(bool(run({2, 4}, x, {4, 2})));
  EXPECT_EQ(stats.stagesCompiled, 0);
  EXPECT_EQ(stats.cacheHits, 1);

  // Another shape value, and another batch: each a stage of its own.
  ASSERT_FALSE(bool(run({2, 4}, x, {1, 8})));
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{1, 8}));
  EXPECT_EQ(stats.stagesCompiled, 1);
  ASSERT_FALSE(bool(run({1, 4}, {1, -2, 3, -4}, {2, 2})));
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(valuesOf<float>(outputs[0]), (std::vector<float>{1, 0, 3, 0}));
  EXPECT_EQ(model->cachedStages(), 3u);
}

TEST_F(RuntimeShapesTest, InputsOfAShapeTheModelCannotTakeAreOneLineErrors) {
  auto model = compileAndLoad(reshapeModel());
  ASSERT_TRUE(model);
  std::vector<cli::HostTensor> outputs;
  llvm::Error wrongRank =
      model->execute({tensor<float>(om::DT_FLOAT, {8}, std::vector<float>(8)),
                      tensor<int64_t>(om::DT_INT64, {2}, {4, 2})},
                     &outputs);
  EXPECT_EQ(llvm::toString(std::move(wrongRank)),
            "input 'x': the model takes float32[-1,4], given float32[8]");
  llvm::Error wrongType = model->execute(
      {tensor<float>(om::DT_FLOAT, {2, 4}, std::vector<float>(8)),
       tensor<int32_t>(om::DT_INT32, {2}, {4, 2})},
      &outputs);
  EXPECT_EQ(llvm::toString(std::move(wrongType)),
            "input 'shape': the model takes int64[2], given int32[2]");
  // A shape value the data cannot take: the stage's import says so.
  llvm::Error badValue = model->execute(
      {tensor<float>(om::DT_FLOAT, {2, 4}, std::vector<float>(8)),
       tensor<int64_t>(om::DT_INT64, {2}, {3, 3})},
      &outputs);
  std::string message = llvm::toString(std::move(badValue));
  EXPECT_NE(message, "");
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

/// y = Range(0, Cast(ReduceMax(x)), 1) over an x too large to bind as a
/// constant: libonnx cannot infer y's length until ReduceMax has run, so
/// the graph runs in two stages, the first's output bound into the second.
TEST_F(RuntimeShapesTest, ComputedShapeOperandRunsInTwoStages) {
  OnnxModelBuilder b;
  b.input("x", {std::string("N")});
  b.int64Init("start", {}, {0});
  b.int64Init("delta", {}, {1});
  setInt(b.node("ReduceMax", {"x"}, {"m"}), "keepdims", 0);
  setInt(b.node("Cast", {"m"}, {"limit"}), "to", onnx::TensorProto::INT64);
  b.node("Range", {"start", "limit", "delta"}, {"y"});
  b.output("y", onnx::TensorProto::INT64);
  auto model = compileAndLoad(b.model);
  ASSERT_TRUE(model);

  std::vector<float> x(100000, 1.0f);
  x[777] = 5.0f;
  std::vector<cli::HostTensor> outputs;
  driver::RuntimeShapesStats stats;
  llvm::Error error = model->execute(
      {tensor(om::DT_FLOAT, {int64_t(x.size())}, x)}, &outputs, &stats);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{5}));
  EXPECT_EQ(valuesOf<int64_t>(outputs[0]),
            (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(stats.stagesRun, 2);
  EXPECT_EQ(stats.stagesCompiled, 2);

  x[777] = 3.0f;
  error = model->execute({tensor(om::DT_FLOAT, {int64_t(x.size())}, x)},
                         &outputs, &stats);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(valuesOf<int64_t>(outputs[0]), (std::vector<int64_t>{0, 1, 2}));
  // The first stage is cached; the second is new for limit 3.
  EXPECT_EQ(stats.cacheHits, 1);
  EXPECT_EQ(stats.stagesCompiled, 1);
}

/// y = Gather(r, Squeeze(NonZero(r))) * 2 with r = Relu(x): a static
/// stage, NonZero on the AICPU into its upper bound, then a stage whose
/// input is NonZero's real shape.
onnx::ModelProto nonZeroModel() {
  OnnxModelBuilder b;
  b.input("x", {6});
  b.int64Init("axes", {1}, {0});
  b.floatInit("two", {}, {2.0f});
  b.node("Relu", {"x"}, {"r"});
  b.node("NonZero", {"r"}, {"nz"});
  b.node("Squeeze", {"nz", "axes"}, {"idx"});
  b.node("Gather", {"r", "idx"}, {"g"});
  b.node("Mul", {"g", "two"}, {"y"});
  b.output("y");
  return b.model;
}

TEST_F(RuntimeShapesTest, DataDependentOpRunsBetweenStages) {
  auto model = compileAndLoad(nonZeroModel());
  ASSERT_TRUE(model);

  std::vector<cli::HostTensor> outputs;
  driver::RuntimeShapesStats stats;
  llvm::Error error =
      model->execute({tensor<float>(om::DT_FLOAT, {6}, {-1, 3, 0, 4, -2, 5})},
                     &outputs, &stats);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  ASSERT_EQ(outputs.size(), 1u);
  EXPECT_EQ(outputs[0].shape, (std::vector<int64_t>{3}));
  EXPECT_EQ(valuesOf<float>(outputs[0]), (std::vector<float>{6, 8, 10}));
  EXPECT_EQ(stats.stagesRun, 2);
  EXPECT_EQ(stats.dataDependentOps, 1);

  // Another count of nonzeros: the first stage is cached, the second new.
  error = model->execute({tensor<float>(om::DT_FLOAT, {6}, {1, 0, 0, 0, 0, 0})},
                         &outputs, &stats);
  ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
  EXPECT_EQ(valuesOf<float>(outputs[0]), (std::vector<float>{2}));
  EXPECT_EQ(stats.cacheHits, 1);
  EXPECT_EQ(stats.stagesCompiled, 1);
}

/// A cache of one stage: every stage of a two-stage execution is compiled
/// again, and the streams of the last execution stay valid for a profile.
TEST_F(RuntimeShapesTest, ACacheOfOneStageStillRunsEveryStage) {
  driver::RuntimeShapesOptions options;
  options.cacheCapacity = 1;
  auto model = compileAndLoad(nonZeroModel(), {}, options);
  ASSERT_TRUE(model);
  std::vector<cli::HostTensor> outputs;
  driver::RuntimeShapesStats stats;
  for (int i = 0; i < 2; ++i) {
    llvm::Error error =
        model->execute({tensor<float>(om::DT_FLOAT, {6}, {-1, 3, 0, 4, -2, 5})},
                       &outputs, &stats);
    ASSERT_FALSE(bool(error)) << llvm::toString(std::move(error));
    EXPECT_EQ(valuesOf<float>(outputs[0]), (std::vector<float>{6, 8, 10}));
    EXPECT_EQ(stats.stagesCompiled, 2);
  }
  EXPECT_EQ(model->cachedStages(), 1u);
  // Both stages' streams and the data-dependent op's stream.
  EXPECT_GE(model->streamIds().size(), 3u);
}

TEST_F(RuntimeShapesTest, LoaderRefusesARuntimeShapesModelWithTasks) {
  std::string onnxPath = path("model.onnx");
  {
    std::ofstream out(onnxPath, std::ios::binary);
    reshapeModel().SerializeToOstream(&out);
  }
  auto compiled = driver::compileOnnxFileAnyShapes(onnxPath);
  ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
  om::OmModel &model = compiled->model;
  EXPECT_TRUE(om::validateOmModel(model, "m.om").isOk());
  model.taskDef.add_task();
  rt::Status withTask = om::validateOmModel(model, "m.om");
  EXPECT_EQ(withTask.message(),
            "m.om: a RUNTIME_SHAPES model carries no tasks, memory plan or "
            "weights; its stages are compiled at run time");
  model.taskDef.clear_task();
  // The executor (and so aclmdlLoadFromFile) runs compiled programs only.
  std::string omPath = path("m.om");
  ASSERT_TRUE(om::writeOmFile(model, omPath).isOk());
  std::unique_ptr<exec::LoadedModel> loaded;
  EXPECT_EQ(exec::LoadedModel::load(*device_, omPath, &loaded).message(),
            omPath + ": the model's shapes are resolved at run time "
                     "(RUNTIME_SHAPES); run it with geflow run, this loader "
                     "runs compiled programs only");
  model.modelDef.clear_source_model();
  EXPECT_EQ(om::validateOmModel(model, "m.om").message(),
            "m.om: a RUNTIME_SHAPES model without source_model");
}

} // namespace
