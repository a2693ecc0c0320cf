//===- AtcModelEdits.cpp - ATC's input and output options as model edits --===//
//
// The edits run before version conversion, so the nodes they add must mean
// the same at the model's own opset: Cast (its `to` an integer from opset 6),
// and for UINT8 outputs Clip with min and max inputs and Round (opset 11).
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/AtcModelEdits.h"
#include "frontends/onnx/AippPrologue.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/GraphRewrites.h"
#include "frontends/onnx/Opsets.h"
#include "frontends/onnx/TypeConversion.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace geflow;
using namespace geflow::onnxfe;

namespace {

/// ATC's list separator; spaces around entries are dropped.
llvm::SmallVector<llvm::StringRef> entries(llvm::StringRef value) {
  llvm::SmallVector<llvm::StringRef> parts, kept;
  value.split(parts, ';');
  for (llvm::StringRef part : parts)
    if (!part.trim().empty())
      kept.push_back(part.trim());
  return kept;
}

/// "node:index"; the node name may hold ':' itself.
llvm::Expected<NodeOutput> parseNodeOutput(llvm::StringRef text,
                                           llvm::StringRef option) {
  auto [node, index] = text.rsplit(':');
  NodeOutput output{node.trim().str(), 0};
  if (!text.contains(':') || output.node.empty() ||
      index.trim().getAsInteger(10, output.index) || output.index < 0)
    return makeError(option + " '" + text +
                     "': expected node_name:output_index");
  return output;
}

/// FP32, FP16 or UINT8 as --output_type spells them.
llvm::Expected<AtcOutputType> parseOutputType(llvm::StringRef text,
                                              llvm::StringRef entry) {
  std::string upper = text.trim().upper();
  std::optional<AtcOutputType> type =
      llvm::StringSwitch<std::optional<AtcOutputType>>(upper)
          .Case("FP32", AtcOutputType::kFp32)
          .Case("FP16", AtcOutputType::kFp16)
          .Case("UINT8", AtcOutputType::kUint8)
          .Default(std::nullopt);
  if (type)
    return *type;
  bool atcHasIt = llvm::is_contained({"INT8", "UINT16", "INT16", "UINT32",
                                      "INT32", "UINT64", "INT64", "DOUBLE",
                                      "HIF8", "FP8E5M2", "FP8E4M3FN"},
                                     upper);
  return makeError(
      "--output_type '" + entry + "': " +
      (atcHasIt ? upper + " is not implemented by geflow (FP32, FP16 or UINT8)"
                : "expected FP32, FP16 or UINT8, or node_name:index:TYPE"));
}

/// The node ATC's name means: the model's name for it, or the name geflow
/// gives a node without one (`<OpType>_<index>`); null when there is none.
const onnx::NodeProto *findNode(const onnx::GraphProto &graph,
                                llvm::StringRef name) {
  for (const onnx::NodeProto &node : graph.node())
    if (node.name() == name)
      return &node;
  for (int i = 0; i < graph.node_size(); ++i)
    if (graph.node(i).name().empty() &&
        nodeDisplayName(graph.node(i), i) == name)
      return &graph.node(i);
  return nullptr;
}

/// The value an option's "node:index" names.
llvm::Expected<std::string> valueOf(const onnx::GraphProto &graph,
                                    const NodeOutput &output,
                                    llvm::StringRef option) {
  const onnx::NodeProto *node = findNode(graph, output.node);
  if (!node)
    return makeError(option + " '" + output.text() +
                     "': the model has no node named '" + output.node + "'");
  if (output.index >= node->output_size() || node->output(output.index).empty())
    return makeError(option + " '" + output.text() + "': node '" + output.node +
                     "' (" + node->op_type() + ") has " +
                     std::to_string(node->output_size()) + " output(s)");
  return node->output(output.index);
}

void addCast(onnx::GraphProto &graph, llvm::StringRef name,
             const std::string &input, const std::string &output, int32_t to) {
  setAttribute(appendNode(graph, "Cast", name, {input}, output), "to", to);
}

void setElementType(onnx::ValueInfoProto &info, int32_t type) {
  info.mutable_type()->mutable_tensor_type()->set_elem_type(type);
}

/// The graph input `name`, or null.
onnx::ValueInfoProto *findInput(onnx::GraphProto &graph, llvm::StringRef name) {
  for (onnx::ValueInfoProto &info : *graph.mutable_input())
    if (info.name() == name)
      return &info;
  return nullptr;
}

/// "a, b": the graph's inputs, initializers left out, for messages.
std::string inputNames(const onnx::GraphProto &graph) {
  llvm::StringSet<> initializers;
  for (const auto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  std::string names;
  for (const auto &input : graph.input())
    if (!initializers.contains(input.name()))
      names += (names.empty() ? "" : ", ") + input.name();
  return names;
}

/// --input_shape: `dims` replace the declared shape of `input`; a -1 is a
/// dim left open (symbolic), for the gears or run-time shapes to fill.
llvm::Error replaceInputShape(onnx::GraphProto &graph, const std::string &input,
                              const std::vector<int64_t> &dims) {
  onnx::ValueInfoProto *info = findInput(graph, input);
  if (!info)
    return makeError("--input_shape: the model has no input named '" + input +
                     "' (inputs: " + inputNames(graph) + ")");
  auto &tensor = *info->mutable_type()->mutable_tensor_type();
  if (tensor.has_shape() &&
      tensor.shape().dim_size() != static_cast<int>(dims.size()))
    return makeError("--input_shape: input '" + input + "' has rank " +
                     std::to_string(tensor.shape().dim_size()) + ", but " +
                     std::to_string(dims.size()) + " dims were given");
  tensor.clear_shape();
  for (size_t d = 0; d < dims.size(); ++d) {
    auto &dim = *tensor.mutable_shape()->add_dim();
    if (dims[d] >= 0)
      dim.set_dim_value(dims[d]);
    else
      dim.set_dim_param(input + "_dim" + std::to_string(d));
  }
  return llvm::Error::success();
}

/// --input_fp16_nodes: `input` becomes float16 and a Cast at the graph's
/// start gives the model back its own float type.
llvm::Error makeInputFp16(onnx::GraphProto &graph, ValueNames &names,
                          llvm::StringRef input) {
  onnx::ValueInfoProto *info = findInput(graph, input);
  if (!info)
    return makeError("--input_fp16_nodes: the model has no input named '" +
                     input + "' (inputs: " + inputNames(graph) + ")");
  int32_t type = declaredElementType(graph, input);
  if (type == onnx::TensorProto::FLOAT16)
    return llvm::Error::success();
  if (type != onnx::TensorProto::FLOAT && type != onnx::TensorProto::DOUBLE &&
      type != onnx::TensorProto::BFLOAT16)
    return makeError("--input_fp16_nodes: input '" + input + "' is " +
                     dataTypeName(type) + ", not a float type");
  std::string cast = names.fresh(input.str() + "/input_fp16");
  renameUses(graph, input, cast);
  setElementType(*info, onnx::TensorProto::FLOAT16);
  addCast(graph, cast, input.str(), cast, type);
  moveLastNodesToFront(graph, 1);
  return llvm::Error::success();
}

/// --out_nodes: the graph's outputs become these values, in this order.
llvm::Error setOutputs(onnx::GraphProto &graph,
                       const std::vector<NodeOutput> &outNodes) {
  std::vector<onnx::ValueInfoProto> outputs;
  for (const NodeOutput &output : outNodes) {
    auto value = valueOf(graph, output, "--out_nodes");
    if (!value)
      return value.takeError();
    if (llvm::any_of(outputs,
                     [&](const auto &o) { return o.name() == *value; }))
      return makeError("--out_nodes lists '" + output.text() + "' twice");
    onnx::ValueInfoProto info;
    info.set_name(*value);
    if (int32_t type = declaredElementType(graph, *value))
      setElementType(info, type);
    outputs.push_back(std::move(info));
  }
  graph.clear_output();
  for (onnx::ValueInfoProto &info : outputs)
    *graph.add_output() = std::move(info);
  removeUnneededNodes(graph);
  return llvm::Error::success();
}

/// --output_type on graph output `index`: the value it was is renamed and
/// converted back into the output's name.
void convertOutput(onnx::GraphProto &graph, ValueNames &names, int index,
                   AtcOutputType type) {
  std::string output = graph.output(index).name();
  bool madeByNode = llvm::any_of(graph.node(), [&](const auto &node) {
    return llvm::is_contained(node.output(), output);
  });
  std::string source = output, result = output;
  if (madeByNode) {
    source = names.fresh(output + "/before_output_type");
    renameNodeOutput(graph, output, source);
  } else { // a graph input or a constant passed through keeps its name
    result = names.fresh(output + "/output_type");
    graph.mutable_output(index)->set_name(result);
  }
  std::string step = output + "/output_type";
  switch (type) {
  case AtcOutputType::kFp32:
    addCast(graph, names.fresh(step), source, result, onnx::TensorProto::FLOAT);
    setElementType(*graph.mutable_output(index), onnx::TensorProto::FLOAT);
    return;
  case AtcOutputType::kFp16:
    addCast(graph, names.fresh(step), source, result,
            onnx::TensorProto::FLOAT16);
    setElementType(*graph.mutable_output(index), onnx::TensorProto::FLOAT16);
    return;
  case AtcOutputType::kUint8: {
    // Saturated to 0..255 and rounded, then the exact conversion.
    std::string x = names.fresh(step + "/float");
    addCast(graph, x, source, x, onnx::TensorProto::FLOAT);
    x = appendStep(
        graph, names, "Clip", step + "/clip",
        {x, addConstant<float>(graph, names, step + "/min", {}, {0.0f}),
         addConstant<float>(graph, names, step + "/max", {}, {255.0f})});
    x = appendStep(graph, names, "Round", step + "/round", {x});
    addCast(graph, names.fresh(step), x, result, onnx::TensorProto::UINT8);
    setElementType(*graph.mutable_output(index), onnx::TensorProto::UINT8);
    return;
  }
  }
}

/// --output_type: which graph output gets which conversion; an entry for
/// one output wins over the global type.
llvm::Error convertOutputs(onnx::ModelProto &model, ValueNames &names,
                           const AtcModelEdits &edits) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::vector<std::optional<AtcOutputType>> types(graph.output_size(),
                                                  edits.outputType);
  for (const AtcOutputTypeEntry &entry : edits.outputTypes) {
    auto value = valueOf(graph, entry.output, "--output_type");
    if (!value)
      return value.takeError();
    auto it = llvm::find_if(graph.output(), [&](const auto &info) {
      return info.name() == *value;
    });
    if (it == graph.output().end())
      return makeError("--output_type '" + entry.output.text() +
                       "': not an output of the model (name it in "
                       "--out_nodes)");
    types[it - graph.output().begin()] = entry.type;
  }
  int64_t opset = getDefaultOpset(model);
  if (opset < 11 && llvm::is_contained(types, AtcOutputType::kUint8))
    return makeError("--output_type UINT8 needs a model of opset 11 or newer "
                     "(this one imports opset " +
                     std::to_string(opset) + ")");
  for (int i = 0; i < graph.output_size(); ++i)
    if (types[i])
      convertOutput(graph, names, i, *types[i]);
  return llvm::Error::success();
}

} // namespace

llvm::Expected<AtcModelEdits>
geflow::parseAtcModelEdits(llvm::StringRef fp16Inputs, llvm::StringRef outNodes,
                           llvm::StringRef outputType) {
  AtcModelEdits edits;
  for (llvm::StringRef input : entries(fp16Inputs))
    edits.fp16Inputs.push_back(input.str());
  for (llvm::StringRef entry : entries(outNodes)) {
    auto output = parseNodeOutput(entry, "--out_nodes");
    if (!output)
      return output.takeError();
    edits.outNodes.push_back(std::move(*output));
  }
  auto types = entries(outputType);
  if (types.size() == 1 && !types[0].contains(':')) {
    auto type = parseOutputType(types[0], types[0]);
    if (!type)
      return type.takeError();
    edits.outputType = *type;
    return edits;
  }
  for (llvm::StringRef entry : types) {
    auto [node, type] = entry.rsplit(':');
    auto output = parseNodeOutput(node, "--output_type");
    if (!output)
      return output.takeError();
    auto parsed = parseOutputType(type, entry);
    if (!parsed)
      return parsed.takeError();
    edits.outputTypes.push_back({std::move(*output), *parsed});
  }
  return edits;
}

llvm::Error geflow::applyAtcModelEdits(onnx::ModelProto &model,
                                       const AtcModelEdits &edits) {
  if (edits.empty())
    return llvm::Error::success();
  onnx::GraphProto &graph = *model.mutable_graph();
  ValueNames names(graph);
  for (const auto &[input, dims] : edits.inputShapes)
    if (llvm::Error error = replaceInputShape(graph, input, dims))
      return error;
  std::vector<std::string> aippInputs;
  if (!edits.aippConfigPath.empty()) {
    auto inputs = insertAippPrologues(model, edits.aippConfigPath, names);
    if (!inputs)
      return inputs.takeError();
    aippInputs = std::move(*inputs);
  }
  for (const std::string &input : edits.fp16Inputs)
    if (llvm::is_contained(aippInputs, input))
      return makeError("--input_fp16_nodes: input '" + input +
                       "' takes the AIPP of --insert_op_conf, a uint8 image");
  for (const std::string &input : edits.fp16Inputs)
    if (llvm::Error error = makeInputFp16(graph, names, input))
      return error;
  if (!edits.outNodes.empty())
    if (llvm::Error error = setOutputs(graph, edits.outNodes))
      return error;
  return convertOutputs(model, names, edits);
}
