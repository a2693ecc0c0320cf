//===- RuntimeShapesStages.cpp - cutting a graph into static stages -------===//

#include "tools/driver/RuntimeShapesStages.h"
#include "tools/driver/RuntimeShapesControlFlow.h"
#include "tools/driver/ShapeOperands.h"

#include "frontends/onnx/ModelLoader.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::driver;

namespace {

/// Known tensors larger than this are not bound as constants: shape
/// operands are short vectors, and a large value would make every
/// execution a cache miss.
constexpr int64_t kMaxBoundElements = 1 << 16;

bool readsOnlyTheShape(const onnx::NodeProto &node) {
  return node.op_type() == "Shape" || node.op_type() == "Size";
}

bool isStaticValue(const onnx::ValueInfoProto &value) {
  const onnx::TypeProto_Tensor &type = value.type().tensor_type();
  if (!type.has_shape())
    return false;
  return std::all_of(type.shape().dim().begin(), type.shape().dim().end(),
                     [](const onnx::TensorShapeProto_Dimension &dim) {
                       return dim.has_dim_value() && dim.dim_value() >= 0;
                     });
}

void setType(onnx::ValueInfoProto &value, const cli::HostTensor &tensor) {
  auto *type = value.mutable_type()->mutable_tensor_type();
  type->set_elem_type(cli::onnxElementType(tensor.dtype));
  auto *shape = type->mutable_shape();
  for (int64_t d : tensor.shape)
    shape->add_dim()->set_dim_value(d);
}

} // namespace

StagePlanner::StagePlanner(const onnx::ModelProto &source) : source_(source) {
  const onnx::GraphProto &graph = source.graph();
  for (const onnx::TensorProto &init : graph.initializer())
    initializers_[init.name()] = &init;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const std::string &output : graph.node(i).output())
      producers_[output] = i;
  for (const onnx::ValueInfoProto &output : graph.output())
    graphOutputs_.insert(output.name());
}

int StagePlanner::producerOf(const std::string &tensor) const {
  auto it = producers_.find(tensor);
  return it == producers_.end() ? -1 : it->second;
}

StagePlan StagePlanner::widestStage(const std::vector<bool> &done,
                                    const KnownTensors &known) const {
  std::string decidedBy(done.begin(), done.end());
  for (const auto &entry : known)
    decidedBy += "|" + entry.first;
  auto [it, added] = widest_.try_emplace(std::move(decidedBy));
  if (added) {
    it->second = widestStageOf(done, known);
    it->second.id = static_cast<int>(widest_.size());
  }
  StagePlan plan = it->second;
  splitBound(plan, known);
  return plan;
}

StagePlan StagePlanner::widestStageOf(const std::vector<bool> &done,
                                      const KnownTensors &known) const {
  const onnx::GraphProto &graph = source_.graph();
  std::set<std::string> produced;
  StagePlan plan;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (done[i] || isDataDependentOnnxOp(node.op_type()) ||
        isControlFlowOnnxOp(node.op_type()))
      continue;
    bool ready = std::all_of(node.input().begin(), node.input().end(),
                             [&](const std::string &in) {
                               return in.empty() || known.count(in) ||
                                      isInitializer(in) || produced.count(in);
                             });
    if (!ready)
      continue;
    plan.nodes.push_back(i);
    produced.insert(node.output().begin(), node.output().end());
  }
  completeStage(plan, done, known);
  return plan;
}

StagePlan StagePlanner::restrict(const std::vector<int> &nodes,
                                 const std::vector<bool> &done,
                                 const KnownTensors &known) const {
  StagePlan narrower;
  narrower.nodes = nodes;
  completeStage(narrower, done, known);
  return narrower;
}

void StagePlanner::completeStage(StagePlan &plan, const std::vector<bool> &done,
                                 const KnownTensors &known) const {
  const onnx::GraphProto &graph = source_.graph();
  std::set<int> inStage(plan.nodes.begin(), plan.nodes.end());
  std::set<std::string> produced;
  for (int n : plan.nodes)
    produced.insert(graph.node(n).output().begin(),
                    graph.node(n).output().end());

  // The known tensors whose values reach a shape operand of the stage.
  std::set<std::string> reach, seen;
  std::vector<std::string> work;
  for (int n : plan.nodes)
    for (int k = 0; k < graph.node(n).input_size(); ++k)
      if (isShapeOperand(graph.node(n).op_type(), k))
        work.push_back(graph.node(n).input(k));
  while (!work.empty()) {
    std::string t = work.back();
    work.pop_back();
    if (t.empty() || !seen.insert(t).second)
      continue;
    if (known.count(t)) {
      reach.insert(t);
      continue;
    }
    int p = producerOf(t);
    if (p < 0 || !inStage.count(p) || readsOnlyTheShape(graph.node(p)))
      continue;
    work.insert(work.end(), graph.node(p).input().begin(),
                graph.node(p).input().end());
  }

  std::set<std::string> listed;
  for (int n : plan.nodes)
    for (const std::string &in : graph.node(n).input()) {
      if (in.empty() || produced.count(in) || isInitializer(in) ||
          !listed.insert(in).second)
        continue;
      plan.consumed.push_back(in);
      plan.reachesShape.push_back(reach.count(in) != 0);
    }
  splitBound(plan, known);

  std::set<std::string> readLater;
  for (int i = 0; i < graph.node_size(); ++i)
    if (!done[i] && !inStage.count(i)) {
      readLater.insert(graph.node(i).input().begin(),
                       graph.node(i).input().end());
      for (const std::string &name : outerScopeReads(graph.node(i)))
        readLater.insert(name);
    }
  for (int n : plan.nodes)
    for (const std::string &out : graph.node(n).output())
      if (!out.empty() && (readLater.count(out) || graphOutputs_.count(out)))
        plan.outputs.push_back(out);
}

void StagePlanner::splitBound(StagePlan &plan, const KnownTensors &known) {
  plan.inputs.clear();
  plan.bound.clear();
  for (size_t i = 0; i < plan.consumed.size(); ++i) {
    const std::string &name = plan.consumed[i];
    bool bind = plan.reachesShape[i] &&
                known.at(name).numElements() <= kMaxBoundElements;
    (bind ? plan.bound : plan.inputs).push_back(name);
  }
}

onnx::ModelProto StagePlanner::buildModel(const StagePlan &plan,
                                          const KnownTensors &known) const {
  const onnx::GraphProto &graph = source_.graph();
  onnx::ModelProto model;
  // Initializers that are not graph inputs need IR version 4.
  model.set_ir_version(std::max<int64_t>(source_.ir_version(), 4));
  *model.mutable_opset_import() = source_.opset_import();
  model.set_producer_name("geflow-runtime-shapes");
  onnx::GraphProto &stage = *model.mutable_graph();
  stage.set_name(graph.name());
  std::set<std::string> copied;
  for (int n : plan.nodes) {
    *stage.add_node() = graph.node(n);
    for (const std::string &in : graph.node(n).input())
      if (isInitializer(in) && copied.insert(in).second)
        *stage.add_initializer() = initializer(in);
  }
  for (const std::string &name : plan.bound) {
    onnx::TensorProto &value = *stage.add_initializer();
    value = cli::toTensorProto(known.at(name));
    value.set_name(name);
  }
  for (const std::string &name : plan.inputs) {
    onnx::ValueInfoProto &input = *stage.add_input();
    input.set_name(name);
    setType(input, known.at(name));
  }
  for (const std::string &name : plan.outputs)
    stage.add_output()->set_name(name);
  return model;
}

std::string StagePlanner::cacheKey(const StagePlan &plan,
                                   const KnownTensors &known) const {
  // A widest stage's id stands for its nodes; a narrower one lists them.
  std::string key = "#" + std::to_string(plan.id);
  if (plan.id < 0)
    for (int n : plan.nodes)
      key += std::to_string(n) + ",";
  auto describeTensor = [&](const std::string &name) {
    const cli::HostTensor &t = known.at(name);
    key += "|" + name + ":" + cli::describe(t.dtype, t.shape);
  };
  for (const std::string &name : plan.inputs)
    describeTensor(name);
  for (const std::string &name : plan.bound) {
    describeTensor(name);
    const std::vector<uint8_t> &bytes = known.at(name).bytes;
    key += "=";
    key.append(bytes.begin(), bytes.end());
  }
  return key;
}

llvm::Expected<std::vector<int>>
StagePlanner::inferableNodes(const StagePlan &plan,
                             const KnownTensors &known) const {
  onnx::ModelProto model = buildModel(plan, known);
  if (model.ir_version() < 8)
    model.set_ir_version(8);
  if (llvm::Error error = onnxfe::inferShapes(model))
    return std::move(error);
  std::set<std::string> staticValues;
  for (const auto *list :
       {&model.graph().value_info(), &model.graph().output()})
    for (const onnx::ValueInfoProto &value : *list)
      if (isStaticValue(value))
        staticValues.insert(value.name());

  const onnx::GraphProto &graph = source_.graph();
  std::set<std::string> available(plan.inputs.begin(), plan.inputs.end());
  available.insert(plan.bound.begin(), plan.bound.end());
  std::vector<int> nodes;
  for (int n : plan.nodes) {
    const onnx::NodeProto &node = graph.node(n);
    bool ok = std::all_of(node.input().begin(), node.input().end(),
                          [&](const std::string &in) {
                            return in.empty() || available.count(in) ||
                                   isInitializer(in);
                          }) &&
              std::all_of(node.output().begin(), node.output().end(),
                          [&](const std::string &out) {
                            return out.empty() || staticValues.count(out);
                          });
    if (!ok)
      continue;
    nodes.push_back(n);
    available.insert(node.output().begin(), node.output().end());
  }
  return nodes;
}
