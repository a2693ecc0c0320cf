//===- RuntimeShapesCompile.cpp - models whose shapes come at run time ----===//

#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/ShapeOperands.h"

#include "frontends/onnx/ModelLoader.h"
#include "runtime/soc/SocSpec.h"
#include "tools/geflow/TensorFiles.h"

#include "executor/model/OmFormat.h"

#include "llvm/Support/Path.h"

#include <chrono>
#include <map>
#include <set>

using namespace geflow;
using namespace geflow::driver;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::set<std::string> initializerNames(const onnx::GraphProto &graph) {
  std::set<std::string> names;
  for (const onnx::TensorProto &init : graph.initializer())
    names.insert(init.name());
  return names;
}

/// The graph input whose value flows into `tensor` through anything but a
/// Shape or Size (which read only a shape), or empty.
std::string graphInputFeeding(const std::string &tensor,
                              const std::map<std::string, int> &producers,
                              const std::set<std::string> &graphInputs,
                              const onnx::GraphProto &graph) {
  std::vector<std::string> work = {tensor};
  std::set<std::string> seen;
  while (!work.empty()) {
    std::string t = work.back();
    work.pop_back();
    if (t.empty() || !seen.insert(t).second)
      continue;
    if (graphInputs.count(t))
      return t;
    auto it = producers.find(t);
    if (it == producers.end())
      continue;
    const onnx::NodeProto &node = graph.node(it->second);
    if (node.op_type() == "Shape" || node.op_type() == "Size")
      continue;
    work.insert(work.end(), node.input().begin(), node.input().end());
  }
  return "";
}

/// "node 'x' (NonZero) ..." for every node geflow cannot run at all.
llvm::Error checkOpsKnown(const onnx::ModelProto &model) {
  int64_t opset = onnxfe::getDefaultOpset(model);
  if (opset < 1)
    return makeError("the model imports no ai.onnx opset");
  for (int i = 0; i < model.graph().node_size(); ++i) {
    const onnx::NodeProto &node = model.graph().node(i);
    const std::string &type = node.op_type();
    if (!onnxfe::isDefaultDomain(node.domain()))
      return makeError(onnxfe::describeNode(node, opset, i) +
                       ": unsupported op (domain '" + node.domain() +
                       "' is not ai.onnx)");
    // Upsample and Scatter become Resize and ScatterElements when a stage
    // is converted to opset 17.
    if (!isOnnxOpSupported(type) && !isDataDependentOnnxOp(type) &&
        !isControlFlowOnnxOp(type) && type != "Upsample" && type != "Scatter")
      return makeError(onnxfe::describeNode(node, opset, i) +
                       ": unsupported op");
  }
  return llvm::Error::success();
}

om::TensorDescriptor describeValue(const onnx::ValueInfoProto &value) {
  om::TensorDescriptor desc;
  const onnx::TypeProto_Tensor &type = value.type().tensor_type();
  desc.set_dtype(cli::dataTypeOfOnnx(type.elem_type()));
  desc.set_layout("ND");
  if (!type.has_shape()) {
    desc.add_shape(-2); // GE's unknown rank
    return desc;
  }
  for (const auto &dim : type.shape().dim())
    desc.add_shape(dim.has_dim_value() && dim.dim_value() >= 0 ? dim.dim_value()
                                                               : -1);
  return desc;
}

/// graph[0]: one Data op per graph input and a NetOutput describing the
/// outputs, -1 for a dim known only at run time.
void describeGraph(const onnx::GraphProto &graph, om::ModelDef &modelDef) {
  om::GraphDef &g = *modelDef.add_graph();
  g.set_name(graph.name().empty() ? "main" : graph.name());
  std::set<std::string> initializers = initializerNames(graph);
  om::GearTable &gears = *modelDef.mutable_gears();
  gears.set_mode(om::GearTable::RUNTIME_SHAPES);
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    om::OpDef &data = *g.add_op();
    data.set_name(input.name());
    data.set_type(std::string(om::kDataType));
    (*data.mutable_attr())["index"].set_i(g.input_size());
    *data.add_output_desc() = describeValue(input);
    g.add_input(input.name());
    om::ShapeDef &shape = *gears.add_input();
    for (int64_t d : data.output_desc(0).shape())
      shape.add_dim(d);
  }
  om::OpDef &netOutput = *g.add_op();
  netOutput.set_name("NetOutput");
  netOutput.set_type(std::string(om::kNetOutputType));
  om::ListValue &names =
      *(*netOutput.mutable_attr())["output_names"].mutable_list();
  for (const onnx::ValueInfoProto &output : graph.output()) {
    *netOutput.add_input_desc() = describeValue(output);
    names.add_s(output.name());
  }
}

void recordOptions(const CompileOptions &options, const rt::SocSpec &spec,
                   om::ModelDef &modelDef) {
  auto &attrs = *modelDef.mutable_attr();
  attrs["rs.max_data_dependent_bytes"].set_i(
      static_cast<int64_t>(options.maxDataDependentBytes));
  attrs["soc_version"].set_s(spec.socVersion);
  attrs["soc_name"].set_s(options.soc);
  attrs["ge.aicoreNum"].set_i(options.aicoreNum);
  attrs["ge.vectorcoreNum"].set_i(options.vectorcoreNum);
  attrs["rs.stream_mode"].set_i(static_cast<int64_t>(options.streamMode));
  attrs["rs.max_streams"].set_i(options.maxStreams);
  attrs["rs.reuse_memory"].set_b(options.reuseMemory);
  attrs["rs.memory_alignment"].set_i(options.memoryAlignment);
  attrs["rs.require_kernels"].set_b(options.requireKernels);
  om::ListValue &fusions = *attrs["rs.no_fuse"].mutable_list();
  for (const std::string &name : options.disabledFusions)
    fusions.add_s(name);
}

} // namespace

std::string
driver::runtimeShapesReason(const onnx::ModelProto &model,
                            const std::vector<InputShape> &inputShapes) {
  const onnx::GraphProto &graph = model.graph();
  int64_t opset = onnxfe::getDefaultOpset(model);
  for (int i = 0; i < graph.node_size(); ++i)
    if (isDataDependentOnnxOp(graph.node(i).op_type()))
      return onnxfe::describeNode(graph.node(i), opset, i) +
             ": its output size depends on its input values";
  for (int i = 0; i < graph.node_size(); ++i)
    if (isControlFlowOnnxOp(graph.node(i).op_type()))
      return onnxfe::describeNode(graph.node(i), opset, i) +
             ": which branch runs, and so what it outputs, depends on its "
             "input values";
  std::set<std::string> initializers = initializerNames(graph), inputs, fixed;
  for (const InputShape &shape : inputShapes)
    fixed.insert(shape.first);
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name()))
      continue;
    inputs.insert(input.name());
    if (fixed.count(input.name()))
      continue;
    const onnx::TypeProto_Tensor &type = input.type().tensor_type();
    if (!type.has_shape())
      return "input '" + input.name() + "' has no declared shape";
    for (int d = 0; d < type.shape().dim_size(); ++d)
      if (!type.shape().dim(d).has_dim_value() ||
          type.shape().dim(d).dim_value() < 0)
        return "input '" + input.name() + "' dim " + std::to_string(d) +
               " is symbolic";
  }
  std::map<std::string, int> producers;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const std::string &output : graph.node(i).output())
      producers[output] = i;
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    for (int k = 0; k < node.input_size(); ++k) {
      if (!isShapeOperand(node.op_type(), k))
        continue;
      std::string source =
          graphInputFeeding(node.input(k), producers, inputs, graph);
      if (!source.empty())
        return onnxfe::describeNode(node, opset, i) + ": input " +
               std::to_string(k) + " is fed by graph input '" + source + "'";
    }
  }
  return "";
}

void driver::describeRuntimeShapesGraph(const onnx::GraphProto &graph,
                                        om::ModelDef &modelDef) {
  describeGraph(graph, modelDef);
}

bool driver::hasRuntimeShapes(const om::ModelDef &modelDef) {
  return modelDef.gears().mode() == om::GearTable::RUNTIME_SHAPES;
}

passes::CompileOptions driver::stageCompileOptions(const om::ModelDef &modelDef,
                                                   const std::string &socName) {
  passes::CompileOptions options;
  options.soc = socName;
  const auto &attrs = modelDef.attr();
  auto integer = [&](const char *key, int64_t fallback) {
    auto it = attrs.find(key);
    return it == attrs.end() ? fallback : it->second.i();
  };
  auto boolean = [&](const char *key, bool fallback) {
    auto it = attrs.find(key);
    return it == attrs.end() ? fallback : it->second.b();
  };
  options.aicoreNum = integer("ge.aicoreNum", 0);
  options.vectorcoreNum = integer("ge.vectorcoreNum", 0);
  options.streamMode = static_cast<passes::StreamMode>(
      integer("rs.stream_mode", static_cast<int64_t>(options.streamMode)));
  options.maxStreams = integer("rs.max_streams", 0);
  options.reuseMemory = boolean("rs.reuse_memory", true);
  options.memoryAlignment = integer("rs.memory_alignment", 64);
  options.requireKernels = boolean("rs.require_kernels", false);
  if (auto it = attrs.find("rs.no_fuse"); it != attrs.end())
    options.disabledFusions.assign(it->second.list().s().begin(),
                                   it->second.list().s().end());
  options.modelName = modelDef.name();
  return options;
}

llvm::Expected<CompileResult>
driver::compileRuntimeShapesFile(llvm::StringRef path,
                                 const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  if (!options.streamPlanPath.empty())
    return makeError("--stream-plan is not supported for a model whose "
                     "shapes are known only at run time");
  rt::SocSpec spec;
  if (rt::Status st = rt::loadSocSpec(options.soc, spec); !st.isOk())
    return makeError("SoC '" + options.soc + "': " + st.message());
  auto model = onnxfe::readModelFileToImport(path, nullptr, options.import);
  if (!model)
    return model.takeError();
  if (llvm::Error error = checkOpsKnown(*model))
    return std::move(error);
  if (llvm::Error error = onnxfe::applyInputShapes(*model->mutable_graph(),
                                                   options.import.inputShapes))
    return std::move(error);
  // What can be checked ahead: the wiring, the arities and the types, by
  // the importer's own preparation, which infers what shapes it can.
  std::string reason = runtimeShapesReason(*model, {});
  {
    onnx::ModelProto copy = *model;
    OnnxImportOptions checkOptions = options.import;
    checkOptions.inputShapes.clear();
    checkOptions.alsoAccept = [](llvm::StringRef type) {
      return isDataDependentOnnxOp(type.str()) ||
             isControlFlowOnnxOp(type.str());
    };
    if (llvm::Error error = onnxfe::prepareModel(copy, checkOptions, path))
      return std::move(error);
  }

  CompileResult result;
  om::OmModel &om = result.model;
  om.socName = spec.source.empty() ? spec.socVersion : spec.source;
  om.modelDef.set_name(options.modelName.empty()
                           ? llvm::sys::path::stem(path).str()
                           : options.modelName);
  om.modelDef.set_version(1);
  om.modelDef.set_custom_version("geflow");
  describeGraph(model->graph(), om.modelDef);
  recordOptions(options, spec, om.modelDef);
  (*om.modelDef.mutable_attr())["rs.reason"].set_s(
      reason.empty() ? "a shape depends on values computed at run time"
                     : reason);
  om.modelDef.set_source_model(model->SerializeAsString());
  result.stats.opCount = om.modelDef.graph(0).op_size();
  result.stats.computeOpCount = model->graph().node_size();
  result.stats.compileTimeMs = std::chrono::duration<double, std::milli>(
                                   std::chrono::steady_clock::now() - start)
                                   .count();
  return result;
}

llvm::Expected<CompileResult>
driver::compileOnnxFileAnyShapes(llvm::StringRef path,
                                 const CompileOptions &options) {
  auto start = std::chrono::steady_clock::now();
  // Read once: the static compile imports the model looked at here.
  llvm::Expected<ReadOnnxFile> file = readOnnxFile(path, options.import);
  if (!file)
    return file.takeError();
  if (!runtimeShapesReason(*file->model, options.import.inputShapes).empty())
    return compileRuntimeShapesFile(path, options);
  auto result = compileOnnxFile(std::move(*file), options, start);
  if (result)
    return result;
  std::string message = llvm::toString(result.takeError());
  if (!isShapeNotStaticError(message))
    return makeError(message);
  return compileRuntimeShapesFile(path, options);
}
