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

void freeNames(const onnx::GraphProto &graph, std::set<std::string> defined,
               std::vector<std::string> &reads);

/// Appends to `reads` (once each) what `node`'s subgraphs read and neither
/// they nor `defined`, the names their enclosing scopes define, define.
void subgraphFreeNames(const onnx::NodeProto &node,
                       const std::set<std::string> &defined,
                       std::vector<std::string> &reads) {
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (attr.has_g())
      freeNames(attr.g(), defined, reads);
    for (const onnx::GraphProto &g : attr.graphs())
      freeNames(g, defined, reads);
  }
}

/// The same for `graph` itself.
void freeNames(const onnx::GraphProto &graph, std::set<std::string> defined,
               std::vector<std::string> &reads) {
  for (const onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const onnx::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (!in.empty() && !defined.count(in) &&
          std::find(reads.begin(), reads.end(), in) == reads.end())
        reads.push_back(in);
    subgraphFreeNames(node, defined, reads);
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
  std::vector<std::string> reads;
  freeNames(branch, {}, reads);
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
  subgraphFreeNames(node, {}, reads);
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
    // Only the taken branch's reads must be known: the other's may never
    // be computed.
    auto thenBranch = takesThenBranch(node, known, "");
    const onnx::GraphProto *branch =
        thenBranch ? branchOf(node, *thenBranch) : nullptr;
    if (!branch) {
      llvm::consumeError(thenBranch.takeError());
      return i; // run() names what is wrong
    }
    std::vector<std::string> reads = branchReads(*branch);
    if (std::all_of(reads.begin(), reads.end(), available))
      return i;
  }
  return -1;
}

llvm::Expected<bool>
IfBranches::takesThenBranch(const onnx::NodeProto &node,
                            const KnownTensors &known,
                            const std::string &where) const {
  const std::string &name = node.input(0);
  cli::HostTensor constant;
  const cli::HostTensor *cond = &constant;
  if (auto it = known.find(name); it != known.end()) {
    cond = &it->second;
  } else {
    auto value = cli::fromTensorProto(planner_.initializer(name),
                                      "initializer '" + name + "'");
    if (!value)
      return makeError(where + ": " + llvm::toString(value.takeError()));
    constant = std::move(*value);
  }
  if (cond->dtype != om::DT_BOOL || cond->bytes.size() != 1)
    return makeError(where + ": the condition is " +
                     cli::describe(cond->dtype, cond->shape) +
                     ", not one bool");
  return cond->bytes[0] != 0;
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
  auto taken = takesThenBranch(ifNode, known, where);
  if (!taken)
    return taken.takeError();
  bool thenBranch = *taken;
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
