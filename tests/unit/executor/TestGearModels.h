//===- TestGearModels.h - A model with gears, built in code ---------------===//
//
// y = relu(x + c), x float of a shape with -1s (ATC's --input-shape), c one
// float broadcast; one gear per set of values for the -1s (ATC's
// --dynamic-batch-size / -image-size / -dims), each gear on two streams with
// one event as addReluModel has, the weights (c) stored once.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_EXECUTOR_TESTGEARMODELS_H
#define GEFLOW_TESTS_UNIT_EXECUTOR_TESTGEARMODELS_H

#include "executor/model/OmModel.h"
#include "tests/unit/executor/TestModels.h"

#include <memory>

namespace geflow::testing {

inline constexpr float kGearBias = -1.5f;

inline std::vector<float> gearExpected(const std::vector<float> &x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    float v = x[i] + kGearBias;
    y[i] = v > 0 ? v : 0;
  }
  return y;
}

/// Gear `dims`'s program: graph, tasks and memory plan.
inline void addGear(om::OmModel &m, const std::vector<int64_t> &tmpl,
                    const std::vector<int64_t> &dims) {
  std::vector<int64_t> shape = tmpl, ones(tmpl.size(), 1);
  int64_t elements = 1;
  for (size_t d = 0, k = 0; d < shape.size(); ++d) {
    if (shape[d] < 0)
      shape[d] = dims[k++];
    elements *= shape[d];
  }
  om::GraphDef *g = m.modelDef.add_graph();
  g->set_name("add_relu_" + std::to_string(m.modelDef.graph_size() - 1));
  g->add_input("x");
  g->add_output("relu:0");
  om::TensorDescriptor t = floatDesc(shape), c = floatDesc(ones);
  (*addOpTo(g, "x", "Data", {}, {}, {t})->mutable_attr())["index"].set_i(0);
  om::OpDef *cop = addOpTo(g, "c", "Const", {}, {}, {c});
  (*cop->mutable_attr())["weight_offset"].set_i(0);
  (*cop->mutable_attr())["weight_size"].set_i(4);
  addOpTo(g, "add", "add", {"x:0", "c:0"}, {t, c}, {t});
  addOpTo(g, "relu", "relu", {"add:0"}, {t}, {t})->set_stream_id(1);
  addOpTo(g, "out", "NetOutput", {"relu:0"}, {t}, {})->set_stream_id(1);

  const int64_t bytes = elements * 4, slot = (bytes + 63) / 64 * 64;
  om::MemoryPlan *plan = m.memoryPlan.add_gear();
  auto place = [&](uint32_t op, om::MemRef::Kind kind, int64_t offset,
                   int64_t size) {
    om::TensorPlacement *p = plan->add_placement();
    p->set_op_index(op);
    p->set_output_index(0);
    *p->mutable_location() = memRef(kind, 0, offset);
    p->set_size(size);
  };
  place(0, om::MemRef::WORKSPACE, 0, bytes);
  place(1, om::MemRef::WEIGHT, 0, 4);
  place(2, om::MemRef::WORKSPACE, slot, bytes);
  place(3, om::MemRef::WORKSPACE, 0, bytes);
  plan->set_workspace_size(2 * slot);
  plan->set_workspace_size_without_reuse(3 * slot);

  om::ModelTaskDef *td = m.taskDef.add_gear();
  td->set_stream_num(2);
  td->add_stream_priority(0);
  td->add_stream_priority(0);
  td->set_event_num(1);
  auto task = [&](om::TaskType type, uint32_t stream) {
    om::TaskDef *tk = td->add_task();
    tk->set_type(type);
    tk->set_stream_id(stream);
    return tk;
  };
  om::TaskDef *in = task(om::MEMCPY_ASYNC, 0);
  *in->mutable_src() = memRef(om::MemRef::INPUT, 0, 0);
  *in->mutable_dst() = memRef(om::MemRef::WORKSPACE, 0, 0);
  in->set_size(bytes);
  auto kernel = [&](uint32_t stream, uint32_t op, int64_t operands) {
    om::TaskDef *k = task(om::KERNEL, stream);
    k->set_op_index(op);
    k->set_engine(om::AIV);
    k->set_block_dim(1);
    k->set_flops(elements);
    k->set_bytes(operands * bytes);
  };
  kernel(0, 2, 3); // add: x, c (broadcast), its result
  task(om::EVENT_RECORD, 0)->set_event_id(0);
  task(om::EVENT_WAIT, 1)->set_event_id(0);
  kernel(1, 3, 2); // relu
  om::TaskDef *out = task(om::MEMCPY_ASYNC, 1);
  *out->mutable_src() = memRef(om::MemRef::WORKSPACE, 0, 0);
  *out->mutable_dst() = memRef(om::MemRef::OUTPUT, 0, 0);
  out->set_size(bytes);

  om::Gear *gear = m.modelDef.mutable_gears()->add_gear();
  gear->mutable_dims()->Add(dims.begin(), dims.end());
  gear->set_label("Batch_" +
                  std::to_string(m.modelDef.gears().gear_size() - 1));
  gear->add_input_shape()->mutable_dim()->Add(shape.begin(), shape.end());
  gear->add_output_shape()->mutable_dim()->Add(shape.begin(), shape.end());
}

/// The whole model: one gear per entry of `gears` (the values of `tmpl`'s
/// -1s), streams and events shared.
inline om::OmModel
addReluGearModel(om::GearTable::Mode mode, const std::vector<int64_t> &tmpl,
                 const std::vector<std::vector<int64_t>> &gears) {
  om::OmModel m;
  m.socName = "ascend910b-sim";
  m.modelDef.set_name("add_relu_gears");
  om::GearTable *table = m.modelDef.mutable_gears();
  table->set_mode(mode);
  table->add_input()->mutable_dim()->Add(tmpl.begin(), tmpl.end());
  m.weights.resize(64);
  std::memcpy(m.weights.data(), &kGearBias, 4);
  uint64_t workspace = 0;
  for (const std::vector<int64_t> &dims : gears) {
    addGear(m, tmpl, dims);
    workspace = std::max<uint64_t>(
        workspace,
        m.memoryPlan.gear(m.memoryPlan.gear_size() - 1).workspace_size());
  }
  m.taskDef.set_stream_num(2);
  m.taskDef.add_stream_priority(0);
  m.taskDef.add_stream_priority(0);
  m.taskDef.set_event_num(1);
  m.memoryPlan.set_workspace_size(workspace);
  return m;
}

/// ATC's --input-shape "x:-1,4" --dynamic-batch-size with `batches`.
inline om::OmModel addReluGearModel(const std::vector<int64_t> &batches) {
  std::vector<std::vector<int64_t>> gears;
  for (int64_t b : batches)
    gears.push_back({b});
  return addReluGearModel(om::GearTable::DYNAMIC_BATCH, {-1, 4}, gears);
}

/// An OmModel held in memory as a loaded one, for tests of the executor that
/// must not depend on the loader's checks.
class InMemoryOm final : public om::LoadedOm {
  class GearOf final : public om::LoadedOm {
  public:
    GearOf(const InMemoryOm &p, int i) : p_(p), i_(i) {}
    const std::string &socName() const override { return p_.socName(); }
    const om::ModelDef &modelDef() const override { return p_.modelDef(); }
    const om::GraphDef &graph() const override {
      return p_.modelDef().graph(i_);
    }
    const om::ModelTaskDef &taskDef() const override {
      return p_.taskDef().gear(i_);
    }
    const om::MemoryPlan &memoryPlan() const override {
      return p_.memoryPlan().gear(i_);
    }
    const uint8_t *weights() const override { return p_.weights(); }
    uint64_t weightsSize() const override { return p_.weightsSize(); }
    size_t gearCount() const override { return 1; }
    const om::LoadedOm &gear(size_t) const override { return *this; }

  private:
    const InMemoryOm &p_;
    int i_;
  };

public:
  explicit InMemoryOm(om::OmModel m) : m_(std::move(m)) {
    for (int i = 0; i < m_.modelDef.gears().gear_size(); ++i)
      gears_.push_back(std::make_unique<GearOf>(*this, i));
  }
  const std::string &socName() const override { return m_.socName; }
  const om::ModelDef &modelDef() const override { return m_.modelDef; }
  const om::GraphDef &graph() const override { return m_.modelDef.graph(0); }
  const om::ModelTaskDef &taskDef() const override { return m_.taskDef; }
  const om::MemoryPlan &memoryPlan() const override { return m_.memoryPlan; }
  const uint8_t *weights() const override { return m_.weights.data(); }
  uint64_t weightsSize() const override { return m_.weights.size(); }
  size_t gearCount() const override {
    return gears_.empty() ? 1 : gears_.size();
  }
  const om::LoadedOm &gear(size_t i) const override {
    if (gears_.empty())
      return *this;
    return *gears_[i];
  }

private:
  om::OmModel m_;
  std::vector<std::unique_ptr<GearOf>> gears_;
};

} // namespace geflow::testing

#endif // GEFLOW_TESTS_UNIT_EXECUTOR_TESTGEARMODELS_H
