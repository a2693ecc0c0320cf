//===- TestModels.h - Tiny OM models built in code for the executor tests -===//
#ifndef GEFLOW_TESTS_UNIT_EXECUTOR_TESTMODELS_H
#define GEFLOW_TESTS_UNIT_EXECUTOR_TESTMODELS_H

#include "executor/model/OmModel.h"

#include <cstring>
#include <string>
#include <vector>

namespace geflow::testing {

inline om::TensorDescriptor floatDesc(std::vector<int64_t> shape) {
  om::TensorDescriptor d;
  d.set_dtype(om::DT_FLOAT);
  int64_t n = 1;
  for (int64_t s : shape) {
    d.add_shape(s);
    n *= s;
  }
  d.set_layout("ND");
  d.set_size(n * 4);
  return d;
}

inline om::MemRef memRef(om::MemRef::Kind kind, int64_t index, int64_t offset) {
  om::MemRef m;
  m.set_kind(kind);
  m.set_index(index);
  m.set_offset(offset);
  return m;
}

/// Appends op `name` to `g`: `inputs` described by `inDescs`, one output per
/// entry of `outDescs`.
inline om::OpDef *addOpTo(om::GraphDef *g, const std::string &name,
                          const std::string &type,
                          const std::vector<std::string> &inputs,
                          const std::vector<om::TensorDescriptor> &inDescs,
                          const std::vector<om::TensorDescriptor> &outDescs) {
  om::OpDef *op = g->add_op();
  op->set_name(name);
  op->set_type(type);
  op->set_id(g->op_size() - 1);
  for (size_t i = 0; i < inputs.size(); ++i) {
    op->add_input(inputs[i]);
    *op->add_input_desc() = inDescs[i];
  }
  for (const om::TensorDescriptor &d : outDescs)
    *op->add_output_desc() = d;
  return op;
}

/// y = relu(x + c) on a [2, 4] float tensor, over two streams:
///   stream 0: copy x in, add, record e0
///   stream 1: wait e0, relu, copy y out
/// Workspace: x at 0, x+c at 64, y at 0 (reuses x, dead after add).
inline const std::vector<float> &addReluConstant() {
  static const std::vector<float> c = {1, -2, 3, -4, 0.5f, -0.5f, 10, -10};
  return c;
}

inline om::OmModel addReluModel() {
  om::OmModel m;
  m.socName = "ascend910b-sim";
  om::TensorDescriptor t = floatDesc({2, 4});
  om::GraphDef *g = m.modelDef.add_graph();
  m.modelDef.set_name("add_relu");
  g->set_name("add_relu");
  g->add_input("x");
  g->add_output("relu:0");
  auto addOp = [&](const std::string &name, const std::string &type,
                   std::vector<std::string> inputs, int outputs) {
    std::vector<om::TensorDescriptor> in(inputs.size(), t), out(outputs, t);
    return addOpTo(g, name, type, inputs, in, out);
  };
  (*addOp("x", "Data", {}, 1)->mutable_attr())["index"].set_i(0);
  om::OpDef *c = addOp("c", "Const", {}, 1);
  (*c->mutable_attr())["weight_offset"].set_i(0);
  (*c->mutable_attr())["weight_size"].set_i(32);
  addOp("add", "add", {"x:0", "c:0"}, 1);
  addOp("relu", "relu", {"add:0"}, 1)->set_stream_id(1);
  addOp("out", "NetOutput", {"relu:0"}, 0)->set_stream_id(1);

  m.weights.resize(64);
  std::memcpy(m.weights.data(), addReluConstant().data(), 32);

  auto place = [&](uint32_t op, om::MemRef::Kind kind, int64_t offset) {
    om::TensorPlacement *p = m.memoryPlan.add_placement();
    p->set_op_index(op);
    p->set_output_index(0);
    *p->mutable_location() = memRef(kind, 0, offset);
    p->set_size(32);
  };
  place(0, om::MemRef::WORKSPACE, 0);
  place(1, om::MemRef::WEIGHT, 0);
  place(2, om::MemRef::WORKSPACE, 64);
  place(3, om::MemRef::WORKSPACE, 0);
  m.memoryPlan.set_workspace_size(128);
  m.memoryPlan.set_workspace_size_without_reuse(192);

  om::ModelTaskDef &td = m.taskDef;
  td.set_stream_num(2);
  td.add_stream_priority(0);
  td.add_stream_priority(0);
  td.set_event_num(1);
  auto task = [&](om::TaskType type, uint32_t stream) {
    om::TaskDef *tk = td.add_task();
    tk->set_type(type);
    tk->set_stream_id(stream);
    return tk;
  };
  om::TaskDef *in = task(om::MEMCPY_ASYNC, 0);
  *in->mutable_src() = memRef(om::MemRef::INPUT, 0, 0);
  *in->mutable_dst() = memRef(om::MemRef::WORKSPACE, 0, 0);
  in->set_size(32);
  om::TaskDef *add = task(om::KERNEL, 0);
  add->set_op_index(2);
  add->set_engine(om::AIV);
  add->set_block_dim(2);
  add->set_flops(8);
  add->set_bytes(96);
  task(om::EVENT_RECORD, 0)->set_event_id(0);
  task(om::EVENT_WAIT, 1)->set_event_id(0);
  om::TaskDef *relu = task(om::KERNEL, 1);
  relu->set_op_index(3);
  relu->set_engine(om::AIV);
  relu->set_block_dim(4);
  relu->set_flops(8);
  relu->set_bytes(64);
  relu->set_vectorcore_num(2);
  om::TaskDef *out = task(om::MEMCPY_ASYNC, 1);
  *out->mutable_src() = memRef(om::MemRef::WORKSPACE, 0, 0);
  *out->mutable_dst() = memRef(om::MemRef::OUTPUT, 0, 0);
  out->set_size(32);
  return m;
}

inline std::vector<float> addReluExpected(const std::vector<float> &x) {
  std::vector<float> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    float v = x[i] + addReluConstant()[i];
    y[i] = v > 0 ? v : 0;
  }
  return y;
}

} // namespace geflow::testing

#endif // GEFLOW_TESTS_UNIT_EXECUTOR_TESTMODELS_H
