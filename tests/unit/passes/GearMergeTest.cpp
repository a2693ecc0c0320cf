//===- GearMergeTest.cpp - one OM holding every gear ----------------------===//
//
// A small MLP with a symbolic batch, compiled for batch gears 1, 2 and 4:
// the merged model stores each constant once, its gear table describes the
// programs, each gear's program computes the MLP, and the loader refuses a
// damaged table with a line naming the gear.

#include "tools/driver/Gears.h"

#include "executor/model/OmFormat.h"
#include "executor/runner/DeviceTarget.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tests/unit/frontend/OnnxModelBuilder.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <set>

using namespace geflow;
using namespace geflow::driver;

namespace {

constexpr int64_t kIn = 8, kHidden = 2048, kOut = 4;

std::vector<float> values(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (float &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1u << 24) - 0.5f;
  }
  return v;
}

/// y = relu(x W1 + b1) W2 + b2.
struct Mlp {
  std::vector<float> w1 = values(kIn * kHidden, 1), b1 = values(kHidden, 2),
                     w2 = values(kHidden * kOut, 3), b2 = values(kOut, 4);

  std::vector<float> run(const std::vector<float> &x, int64_t batch) const {
    std::vector<float> y(batch * kOut);
    for (int64_t n = 0; n < batch; ++n)
      for (int64_t o = 0; o < kOut; ++o) {
        double acc = b2[o];
        for (int64_t h = 0; h < kHidden; ++h) {
          double a = b1[h];
          for (int64_t i = 0; i < kIn; ++i)
            a += double(x[n * kIn + i]) * w1[i * kHidden + h];
          acc += std::max(a, 0.0) * w2[h * kOut + o];
        }
        y[n * kOut + o] = float(acc);
      }
    return y;
  }

  /// The ONNX file, its batch left symbolic.
  std::string write() const {
    test::OnnxModelBuilder b;
    b.input("x", {std::string("N"), kIn});
    b.floatInit("w1", {kIn, kHidden}, w1); // 64 KiB: borrowed from the file
    b.floatInit("b1", {kHidden}, b1);
    b.floatInit("w2", {kHidden, kOut}, w2);
    b.floatInit("b2", {kOut}, b2);
    b.node("MatMul", {"x", "w1"}, {"h0"}, "mm1");
    b.node("Add", {"h0", "b1"}, {"h1"}, "add1");
    b.node("Relu", {"h1"}, {"h"}, "relu");
    b.node("MatMul", {"h", "w2"}, {"y0"}, "mm2");
    b.node("Add", {"y0", "b2"}, {"y"}, "add2");
    b.output("y");
    llvm::SmallString<128> path;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("gears_mlp", "onnx", path));
    std::ofstream out(path.str().str(), std::ios::binary);
    b.model.SerializeToOstream(&out);
    return path.str().str();
  }
};

class GearMerge : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    mlp_ = new Mlp;
    path_ = new std::string(mlp_->write());
    GearOptions gears;
    gears.dynamicBatchSize = "1,2,4";
    auto compiled = compileOnnxFileWithGears(*path_, {}, gears);
    ASSERT_TRUE(bool(compiled)) << llvm::toString(compiled.takeError());
    result_ = new CompileResult(std::move(*compiled));
  }
  static void TearDownTestSuite() {
    delete result_;
    llvm::sys::fs::remove(*path_);
    delete path_;
    delete mlp_;
  }
  const om::OmModel &model() const { return result_->model; }

  /// The validator's line for `damaged`, which must be refused.
  static std::string refusal(const om::OmModel &damaged) {
    rt::Status st = om::validateOmModel(damaged, "m.om");
    EXPECT_FALSE(st.isOk());
    EXPECT_EQ(st.message().find('\n'), std::string::npos) << st.message();
    return st.message();
  }

  static Mlp *mlp_;
  static std::string *path_;
  static CompileResult *result_;
};
Mlp *GearMerge::mlp_;
std::string *GearMerge::path_;
CompileResult *GearMerge::result_;

TEST_F(GearMerge, GearTableDescribesEachProgram) {
  const om::ModelDef &def = model().modelDef;
  EXPECT_EQ(def.name(), llvm::sys::path::stem(*path_).str());
  const om::GearTable &table = def.gears();
  EXPECT_EQ(table.mode(), om::GearTable::DYNAMIC_BATCH);
  ASSERT_EQ(table.input_size(), 1);
  EXPECT_EQ(std::vector<int64_t>(table.input(0).dim().begin(),
                                 table.input(0).dim().end()),
            (std::vector<int64_t>{-1, kIn}));
  ASSERT_EQ(table.gear_size(), 3);
  ASSERT_EQ(def.graph_size(), 3);
  ASSERT_EQ(model().taskDef.gear_size(), 3);
  ASSERT_EQ(model().memoryPlan.gear_size(), 3);
  EXPECT_EQ(model().taskDef.task_size(), 0);
  EXPECT_EQ(model().memoryPlan.placement_size(), 0);
  ASSERT_EQ(result_->gearStats.size(), 3u);
  uint64_t largest = 0;
  for (int i = 0; i < 3; ++i) {
    const om::Gear &gear = table.gear(i);
    int64_t batch = int64_t(1) << i;
    EXPECT_EQ(gear.label(), "Batch_" + std::to_string(i));
    ASSERT_EQ(gear.dims_size(), 1);
    EXPECT_EQ(gear.dims(0), batch);
    EXPECT_EQ(gear.input_shape(0).dim(0), batch);
    ASSERT_EQ(gear.output_shape_size(), 1);
    EXPECT_EQ(gear.output_shape(0).dim(0), batch);
    EXPECT_EQ(gear.output_shape(0).dim(1), kOut);
    const om::GraphDef &graph = def.graph(i);
    EXPECT_EQ(graph.attr().at("_batch_label").s(), gear.label());
    for (const om::OpDef &op : graph.op())
      EXPECT_EQ(op.attr().at("_batch_label").s(), gear.label()) << op.name();
    EXPECT_GE(model().taskDef.stream_num(),
              model().taskDef.gear(i).stream_num());
    largest = std::max(largest, model().memoryPlan.gear(i).workspace_size());
    EXPECT_EQ(result_->gearStats[i].workspaceBytes,
              model().memoryPlan.gear(i).workspace_size());
  }
  EXPECT_EQ(model().memoryPlan.workspace_size(), largest);
  EXPECT_EQ(result_->stats.workspaceBytes, largest);
  EXPECT_TRUE(om::validateOmModel(model(), "m.om").isOk());
}

/// WEIGHTS of `model` in one string.
std::string weightsOf(const om::OmModel &model) {
  std::string weights;
  for (std::string_view piece : model.weightsPieces())
    weights.append(piece);
  return weights;
}

/// The bytes of each Const op of `graph`.
std::vector<std::string> constants(const om::GraphDef &graph,
                                   const std::string &weights) {
  std::vector<std::string> bytes;
  for (const om::OpDef &op : graph.op())
    if (op.type() == om::kConstType)
      bytes.push_back(weights.substr(op.attr().at("weight_offset").i(),
                                     op.attr().at("weight_size").i()));
  return bytes;
}

TEST_F(GearMerge, WeightsStoredOnce) {
  // The gears share every constant: the merged WEIGHTS is what one batch-1
  // compile stores, not three times that.
  CompileOptions one;
  one.import.inputShapes = {{"x", {1, kIn}}};
  auto single = compileOnnxFile(*path_, one);
  ASSERT_TRUE(bool(single)) << llvm::toString(single.takeError());
  EXPECT_GE(single->model.weightsSize(), uint64_t(kIn * kHidden * 4));
  EXPECT_EQ(model().weightsSize(), single->model.weightsSize());
  EXPECT_EQ(result_->stats.weightsBytes, model().weightsSize());
  EXPECT_EQ(model().borrowedWeights.size(),
            single->model.modelDef.graph(0).op_size() -
                single->stats.computeOpCount - 2); // less Data, NetOutput

  // Each gear's Const ops read the values batch 1's read, at their new
  // offsets.
  std::vector<std::string> want =
      constants(single->model.modelDef.graph(0), weightsOf(single->model));
  std::string merged = weightsOf(model());
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(constants(model().modelDef.graph(i), merged), want)
        << "gear " << i;
}

/// Gear `index` of a loaded model, owning it, for LoadedModel::create.
class OwnedGear final : public om::LoadedOm {
public:
  OwnedGear(std::shared_ptr<om::LoadedOm> parent, size_t index)
      : parent_(std::move(parent)), gear_(parent_->gear(index)) {}
  const std::string &socName() const override { return gear_.socName(); }
  const om::ModelDef &modelDef() const override { return gear_.modelDef(); }
  const om::GraphDef &graph() const override { return gear_.graph(); }
  const om::ModelTaskDef &taskDef() const override { return gear_.taskDef(); }
  const om::MemoryPlan &memoryPlan() const override {
    return gear_.memoryPlan();
  }
  const uint8_t *weights() const override { return gear_.weights(); }
  uint64_t weightsSize() const override { return gear_.weightsSize(); }
  size_t gearCount() const override { return 1; }
  const LoadedOm &gear(size_t) const override { return *this; }

private:
  std::shared_ptr<om::LoadedOm> parent_;
  const om::LoadedOm &gear_;
};

TEST_F(GearMerge, EachGearComputesTheModel) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("gears", "om", path));
  rt::Status st = om::writeOmFile(model(), path.str().str());
  ASSERT_TRUE(st.isOk()) << st.toString();
  std::unique_ptr<om::LoadedOm> loaded;
  st = om::loadOmFile(path.str().str(), &loaded);
  llvm::sys::fs::remove(path);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(loaded->gearCount(), 3u);
  std::shared_ptr<om::LoadedOm> shared(std::move(loaded));

  std::unique_ptr<rt::Device> device;
  ASSERT_TRUE(rt::Device::create({}, &device).isOk());
  for (size_t i = 0; i < 3; ++i) {
    int64_t batch = int64_t(1) << i;
    std::unique_ptr<exec::LoadedModel> program;
    st = exec::LoadedModel::create(exec::makeDeviceTarget(*device),
                                   std::make_unique<OwnedGear>(shared, i),
                                   "gear", &program);
    ASSERT_TRUE(st.isOk()) << st.toString();
    std::vector<float> x = values(batch * kIn, 10 + i);
    std::vector<float> y(batch * kOut, -1.0f);
    st = program->execute({{x.data(), x.size() * 4}},
                          {{y.data(), y.size() * 4}});
    ASSERT_TRUE(st.isOk()) << st.toString();
    std::vector<float> want = mlp_->run(x, batch);
    for (size_t k = 0; k < y.size(); ++k)
      EXPECT_NEAR(y[k], want[k], 1e-3f * (1.0f + std::fabs(want[k])))
          << "gear " << i << " element " << k;
  }
}

TEST_F(GearMerge, LoaderRefusesADamagedGearTable) {
  auto damaged = [&](auto &&damage) {
    om::OmModel m;
    m.modelDef = model().modelDef;
    m.taskDef = model().taskDef;
    m.memoryPlan = model().memoryPlan;
    m.borrowedWeights = model().borrowedWeights;
    damage(m);
    return refusal(m);
  };
  auto table = [](om::OmModel &m) { return m.modelDef.mutable_gears(); };
  auto has = [](const std::string &text, const std::string &part) {
    return text.find(part) != std::string::npos;
  };
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->mutable_gear()->RemoveLast();
               }),
               "m.om: gear table: 2 gears but 3 graphs in MODEL_DEF");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 m.taskDef.mutable_gear()->RemoveLast();
               }),
               "3 gears but 2 gear task lists in TASK_INFO");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 m.memoryPlan.mutable_gear()->RemoveLast();
               }),
               "3 gears but 2 gear memory plans in MEMORY");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->mutable_gear(1)->set_dims(0, 3);
               }),
               "gear 1 'Batch_1': input 0 shape [2,8] is not the template "
               "filled with its dims [3,8]");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->mutable_gear(2)->add_dims(7);
               }),
               "gear 2 'Batch_2': 2 dims for the template's 1");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->mutable_gear(0)->mutable_output_shape(0)->set_dim(0,
                                                                             5);
               }),
               "gear 0 'Batch_0': output 0 shape [5,4] differs from the "
               "graph's output descriptor");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 // Gear 2 a copy of gear 1, program and all.
                 *table(m)->mutable_gear(2) = table(m)->gear(1);
                 *m.modelDef.mutable_graph(2) = m.modelDef.graph(1);
                 *m.taskDef.mutable_gear(2) = m.taskDef.gear(1);
                 *m.memoryPlan.mutable_gear(2) = m.memoryPlan.gear(1);
               }),
               "gear 2 'Batch_1': repeats the dims of an earlier gear");
  EXPECT_PRED2(
      has, damaged([&](om::OmModel &m) { m.memoryPlan.set_workspace_size(1); }),
      "gear 0 'Batch_0': workspace of");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 *m.taskDef.add_task() = m.taskDef.gear(0).task(0);
               }),
               "TASK_INFO has 1 top-level tasks");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->set_mode(om::GearTable::STATIC);
               }),
               "m.om: a STATIC model with gear sections (3 graphs, 3 gears, "
               "3 gear task lists, 3 gear memory plans)");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->set_mode(om::GearTable::Mode(9));
               }),
               "m.om: gear table: mode 9 is unknown");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->mutable_input(0)->set_dim(1, -1);
               }),
               "DYNAMIC_BATCH has its -1 at dim 0 only");
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->set_mode(om::GearTable::RUNTIME_SHAPES);
               }),
               "m.om: a RUNTIME_SHAPES model without source_model");
  EXPECT_PRED2(
      has, damaged([&](om::OmModel &m) {
        // A gear's program is checked as a static model is.
        m.modelDef.mutable_graph(1)->mutable_op(0)->mutable_attr()->erase(
            "index");
      }),
      "m.om: gear 1 'Batch_1': op 0 'x' (Data): missing int attr "
      "'index'");
  for (int keep : {1}) {
    EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                   while (table(m)->gear_size() > keep) {
                     table(m)->mutable_gear()->RemoveLast();
                     m.modelDef.mutable_graph()->RemoveLast();
                     m.taskDef.mutable_gear()->RemoveLast();
                     m.memoryPlan.mutable_gear()->RemoveLast();
                   }
                 }),
                 "gear table: 1 gears (must be 2..100)");
  }
  // Run-time shapes with compiled gears is not a model geflow writes.
  EXPECT_PRED2(has, damaged([&](om::OmModel &m) {
                 table(m)->set_mode(om::GearTable::RUNTIME_SHAPES);
                 m.modelDef.set_source_model("onnx bytes");
               }),
               "m.om: a RUNTIME_SHAPES model has 3 graphs (expected 1, its "
               "description)");
}

} // namespace
