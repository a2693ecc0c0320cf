//===- RuntimeShapesControlFlow.cpp - ONNX If in run-time-shape models ----===//

#include "tools/driver/RuntimeShapesControlFlow.h"
#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/RuntimeShapesModel.h"
#include "tools/driver/ShapeOperands.h"

#include "executor/model/OmFormat.h"
#include "frontends/onnx/ModelLoader.h"

#include <algorithm>
#include <set>

using namespace geflow;
using namespace geflow::driver;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Appends to `reads` what `graph` reads but neither it nor `defined` (the
/// names its enclosing scopes define before it) defines.
void freeNames(const onnx::GraphProto &graph, std::set<std::string> defined,
               std::set<std::string> &listed, std::vector<std::string> &reads) {
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  auto read = [&](const std::string &name) {
    if (!name.empty() && !defined.count(name) && listed.insert(name).second)
      reads.push_back(name);
  };
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      read(in);
    for (const onnx::AttributeProto &attr : node.attribute()) {
      std::vector<const onnx::GraphProto *> subgraphs;
      if (attr.has_g())
        subgraphs.push_back(&attr.g());
      for (const onnx::GraphProto &g : attr.graphs())
        subgraphs.push_back(&g);
      for (const onnx::GraphProto *g : subgraphs) {
        std::vector<std::string> inner;
        std::set<std::string> innerListed;
        freeNames(*g, defined, innerListed, inner);
        for (const std::string &name : inner)
          read(name);
      }
    }
    defined.insert(node.output().begin(), node.output().end());
  }
}

const onnx::GraphProto *branchOf(const onnx::NodeProto &node, bool thenBranch) {
  const char *name = thenBranch ? "then_branch" : "else_branch";
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.name() == name && attr.has_g())
      return &attr.g();
  return nullptr;
}

std::vector<std::string> branchReads(const onnx::GraphProto &branch) {
  std::set<std::string> listed;
  std::vector<std::string> reads;
  freeNames(branch, {}, listed, reads);
  return reads;
}

/// A tensor type of `tensor`'s element type and rank, every dim symbolic:
/// the nested model takes any shape, and keeps its stages per shape.
void setAnyShape(onnx::ValueInfoProto &value, const cli::HostTensor &tensor) {
  auto *type = value.mutable_type()->mutable_tensor_type();
  type->set_elem_type(cli::onnxElementType(tensor.dtype));
  auto *shape = type->mutable_shape();
  for (size_t d = 0; d < tensor.shape.size(); ++d)
    shape->add_dim()->set_dim_param("d" + std::to_string(d));
}

} // namespace

std::vector<std::string> driver::outerScopeReads(const onnx::NodeProto &node) {
  std::vector<std::string> reads;
  std::set<std::string> listed;
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (!attr.has_g() && attr.graphs_size() == 0)
      continue;
    std::vector<const onnx::GraphProto *> subgraphs;
    if (attr.has_g())
      subgraphs.push_back(&attr.g());
    for (const onnx::GraphProto &g : attr.graphs())
      subgraphs.push_back(&g);
    for (const onnx::GraphProto *g : subgraphs)
      for (const std::string &name : branchReads(*g))
        if (listed.insert(name).second)
          reads.push_back(name);
  }
  return reads;
}

IfBranches::IfBranches(rt::Device &device, const om::LoadedOm &outer,
                       const StagePlanner &planner)
    : device_(device), outer_(outer), planner_(planner) {}

IfBranches::~IfBranches() = default;

int IfBranches::readyNode(const std::vector<bool> &done,
                          const KnownTensors &known) const {
  const onnx::GraphProto &graph = planner_.source().graph();
  auto available = [&](const std::string &name) {
    return known.count(name) || planner_.isInitializer(name);
  };
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    if (done[i] || !isControlFlowOnnxOp(node.op_type()) ||
        node.input_size() < 1 || !available(node.input(0)))
      continue;
    // Which branch is decided below; both reading what is known is the
    // common case, and a branch whose reads are never computed is an error
    // run() reports.
    const cli::HostTensor *cond = nullptr;
    if (auto it = known.find(node.input(0)); it != known.end())
      cond = &it->second;
    bool thenBranch = cond && !cond->bytes.empty() && cond->bytes[0] != 0;
    const onnx::GraphProto *branch = branchOf(node, thenBranch);
    if (!branch)
      return i; // run() names what is missing
    std::vector<std::string> reads = branchReads(*branch);
    if (std::all_of(reads.begin(), reads.end(), available))
      return i;
  }
  return -1;
}

llvm::Expected<RuntimeShapesModel *>
IfBranches::branchModel(int node, bool thenBranch, const KnownTensors &known) {
  auto key = std::make_pair(node, thenBranch);
  if (auto it = models_.find(key); it != models_.end())
    return it->second.get();
  const onnx::ModelProto &source = planner_.source();
  const onnx::NodeProto &ifNode = source.graph().node(node);
  const onnx::GraphProto &branch = *branchOf(ifNode, thenBranch);

  // The branch as a model: the outer-scope tensors it reads become its
  // inputs (or, for the source's initializers, its initializers).
  onnx::ModelProto model;
  model.set_ir_version(std::max<int64_t>(source.ir_version(), 4));
  *model.mutable_opset_import() = source.opset_import();
  model.set_producer_name("geflow-runtime-shapes-if");
  onnx::GraphProto &graph = *model.mutable_graph();
  graph = branch;
  graph.set_name(ifNode.name() + (thenBranch ? "_then" : "_else"));
  graph.clear_input();
  for (const std::string &name : branchReads(branch)) {
    if (planner_.isInitializer(name)) {
      *graph.add_initializer() = planner_.initializer(name);
      continue;
    }
    setAnyShape(*graph.add_input(), known.at(name));
    graph.mutable_input()->rbegin()->set_name(name);
  }

  om::OmModel om;
  om.socName = outer_.socName();
  *om.modelDef.mutable_attr() = outer_.modelDef().attr();
  om.modelDef.set_name(outer_.modelDef().name() + "." + graph.name());
  om.modelDef.set_version(1);
  om.modelDef.set_custom_version("geflow");
  describeRuntimeShapesGraph(graph, om.modelDef);
  om.modelDef.set_source_model(model.SerializeAsString());
  std::string bytes;
  std::unique_ptr<om::LoadedOm> loaded;
  if (rt::Status s = om::serializeOm(om, &bytes); !s.isOk())
    return makeError(s.message());
  if (rt::Status s = om::loadOmBytes(bytes, om.modelDef.name(), &loaded);
      !s.isOk())
    return makeError(s.message());
  auto created = RuntimeShapesModel::create(device_, std::move(loaded));
  if (!created)
    return created.takeError();
  return (models_[key] = std::move(*created)).get();
}

llvm::Error IfBranches::run(int node, KnownTensors &known,
                            RuntimeShapesStats &stats) {
  const onnx::ModelProto &source = planner_.source();
  const onnx::NodeProto &ifNode = source.graph().node(node);
  std::string where =
      onnxfe::describeNode(ifNode, onnxfe::getDefaultOpset(source), node);
  auto cond = known.find(ifNode.input(0));
  if (cond == known.end())
    return makeError(where + ": its condition is a constant; fold it first");
  if (cond->second.dtype != om::DT_BOOL || cond->second.bytes.size() != 1)
    return makeError(where + ": the condition is " +
                     cli::describe(cond->second.dtype, cond->second.shape) +
                     ", not one bool");
  bool thenBranch = cond->second.bytes[0] != 0;
  const onnx::GraphProto *branch = branchOf(ifNode, thenBranch);
  if (!branch)
    return makeError(where + ": no " +
                     (thenBranch ? "then_branch" : "else_branch") + " graph");
  if (branch->output_size() != ifNode.output_size())
    return makeError(
        where + ": the branch has " + std::to_string(branch->output_size()) +
        " outputs, the node " + std::to_string(ifNode.output_size()));
  for (const std::string &name : branchReads(*branch))
    if (!known.count(name) && !planner_.isInitializer(name))
      return makeError(where + ": the branch reads '" + name +
                       "', which is never computed");

  auto model = branchModel(node, thenBranch, known);
  if (!model)
    return makeError(where + ": " + llvm::toString(model.takeError()));
  std::vector<cli::HostTensor> inputs, outputs;
  for (const exec::TensorInfo &input : (*model)->inputs())
    inputs.push_back(known.at(input.name));
  RuntimeShapesStats nested;
  if (llvm::Error error = (*model)->execute(inputs, &outputs, &nested))
    return makeError(where + ": " + llvm::toString(std::move(error)));
  stats.stagesRun += nested.stagesRun;
  stats.stagesCompiled += nested.stagesCompiled;
  stats.cacheHits += nested.cacheHits;
  stats.dataDependentOps += nested.dataDependentOps;
  stats.hostShapeMs += nested.hostShapeMs;
  stats.deviceTimeNs += nested.deviceTimeNs;
  stats.hostSpans.insert(stats.hostSpans.end(), nested.hostSpans.begin(),
                         nested.hostSpans.end());
  for (int k = 0; k < ifNode.output_size(); ++k) {
    if (ifNode.output(k).empty())
      continue;
    outputs[k].name = ifNode.output(k);
    known[ifNode.output(k)] = std::move(outputs[k]);
  }
  return llvm::Error::success();
}
