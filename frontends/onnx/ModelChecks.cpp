//===- ModelChecks.cpp - what a model declares, checked before use --------===//

#include "frontends/onnx/ModelChecks.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/Opsets.h"
#include "frontends/onnx/TypeConversion.h"

#include "onnx/defs/schema.h"

#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace geflow;
using namespace geflow::onnxfe;

namespace {

std::string dimsText(const std::vector<int64_t> &dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? "," : "") + std::to_string(dims[i]);
  return text + "]";
}

/// "initializer 'w': FLOAT[4,1125899906842624] is 18014398509481984 bytes,
/// over the limit of 1073741824 (--max-tensor-bytes)", or success. Dims are
/// known to be >= 0 here.
llvm::Error checkTensorBytes(const std::string &what, int32_t dataType,
                             const std::vector<int64_t> &dims,
                             const ImportLimits &limits) {
  uint64_t bytes = elementByteWidth(dataType);
  bool overflow = false;
  for (int64_t d : dims)
    overflow |= __builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &bytes);
  if (!overflow && bytes <= limits.maxTensorBytes)
    return llvm::Error::success();
  std::string size =
      overflow ? "more than 2^64 bytes" : std::to_string(bytes) + " bytes";
  return makeError(what + ": " + dataTypeName(dataType).str() + dimsText(dims) +
                   " is " + size + ", over the limit of " +
                   std::to_string(limits.maxTensorBytes) +
                   " (--max-tensor-bytes)");
}

/// A TensorProto as an initializer or a node's tensor attribute: a known
/// element type, dims >= 0, a size within the limit.
llvm::Error checkTensorProto(const std::string &what,
                             const onnx::TensorProto &t,
                             const ImportLimits &limits) {
  if (elementByteWidth(t.data_type()) == 0)
    return makeError(what + ": element type " +
                     dataTypeName(t.data_type()).str() + " (" +
                     std::to_string(t.data_type()) + ") is not supported");
  std::vector<int64_t> dims(t.dims().begin(), t.dims().end());
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] < 0)
      return makeError(what + ": dim " + std::to_string(i) + " is " +
                       std::to_string(dims[i]) + " in " + dimsText(dims));
  return checkTensorBytes(what, t.data_type(), dims, limits);
}

/// A value's declared tensor type: a known element type, no negative dim and,
/// when every dim is known, a size within the limit.
llvm::Error checkValueType(const std::string &what, const onnx::TypeProto &type,
                           const ImportLimits &limits) {
  if (!type.has_tensor_type())
    return llvm::Error::success(); // checkTensorValues names other kinds
  const onnx::TypeProto::Tensor &tensor = type.tensor_type();
  if (tensor.elem_type() != onnx::TensorProto::UNDEFINED &&
      elementByteWidth(tensor.elem_type()) == 0)
    return makeError(what + " has element type " +
                     dataTypeName(tensor.elem_type()).str() +
                     ", which geflow does not support");
  if (!tensor.has_shape())
    return llvm::Error::success();
  std::vector<int64_t> dims;
  bool allKnown = true;
  for (const auto &dim : tensor.shape().dim()) {
    if (dim.has_dim_value() && dim.dim_value() < 0)
      return makeError(what + ": dim " + std::to_string(dims.size()) + " is " +
                       std::to_string(dim.dim_value()));
    allKnown &= dim.has_dim_value();
    dims.push_back(dim.has_dim_value() ? dim.dim_value() : 0);
  }
  if (!allKnown || tensor.elem_type() == onnx::TensorProto::UNDEFINED)
    return llvm::Error::success();
  return checkTensorBytes(what, tensor.elem_type(), dims, limits);
}

const char *attributeTypeName(int type) {
  return onnx::AttributeProto::AttributeType_IsValid(type)
             ? onnx::AttributeProto::AttributeType_Name(
                   static_cast<onnx::AttributeProto::AttributeType>(type))
                   .c_str()
             : "an unknown type";
}

/// Each attribute the op's schema knows has the schema's type; the dialect's
/// accessors assume it (a STRING transA crashed the Gemm verifier).
llvm::Error checkAttributes(const onnx::NodeProto &node, int64_t opset,
                            int index, const ImportLimits &limits) {
  std::string where = describeNode(node, opset, index);
  const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(
      node.op_type(), static_cast<int>(opset), node.domain());
  for (const onnx::AttributeProto &attr : node.attribute()) {
    std::string what = where + ": attribute '" + attr.name() + "'";
    if (attr.has_t())
      if (auto err = checkTensorProto(what, attr.t(), limits))
        return err;
    if (!schema || attr.type() == onnx::AttributeProto::UNDEFINED)
      continue;
    auto it = schema->attributes().find(attr.name());
    if (it == schema->attributes().end())
      continue; // annotations such as _user_stream_label
    if (attr.type() != it->second.type)
      return makeError(what + " is " + attributeTypeName(attr.type()) +
                       ", expected " + attributeTypeName(it->second.type));
  }
  return llvm::Error::success();
}

/// Gemm's A and B are matrices; a conv's X has a batch, a channel and a
/// spatial dim, and its W has X's rank. libonnx's inference reads these dims
/// unchecked (Gemm-6, ConvTranspose); its crash is contained
/// (ContainedLibOnnx.h), but this check names the operand and its rank,
/// where a contained crash can name only the node.
llvm::Error checkOperandRanks(const onnx::NodeProto &node, int64_t opset,
                              int index, const DeclaredRanks &ranks) {
  if (!isDefaultDomain(node.domain()) || node.input_size() < 2)
    return llvm::Error::success();
  auto mismatch = [&](int input, const char *operand,
                      const std::string &expected, int rank) -> llvm::Error {
    return makeError(describeNode(node, opset, index) + ": input " + operand +
                     " '" + node.input(input) + "' must be " + expected +
                     ", declared with rank " + std::to_string(rank));
  };
  std::optional<int> first = ranks.lookup(node.input(0));
  std::optional<int> second = ranks.lookup(node.input(1));
  if (node.op_type() == "Gemm") {
    if (first && *first != 2)
      return mismatch(0, "A", "2-D", *first);
    if (second && *second != 2)
      return mismatch(1, "B", "2-D", *second);
  }
  if (node.op_type() == "Conv" || node.op_type() == "ConvTranspose") {
    if (first && *first < 3)
      return mismatch(0, "X", "at least 3-D", *first);
    if (first && second && *second != *first)
      return mismatch(1, "W", "of X's rank " + std::to_string(*first), *second);
  }
  return llvm::Error::success();
}

llvm::Error checkGraphOutputs(const onnx::GraphProto &graph,
                              llvm::StringRef sourceName) {
  if (graph.output_size() == 0)
    return makeError("'" + sourceName + "': the graph has no outputs");
  llvm::StringSet<> seen;
  for (const auto &output : graph.output())
    if (!seen.insert(output.name()).second)
      return makeError("graph output '" + output.name() + "' is listed twice");
  return llvm::Error::success();
}

} // namespace

llvm::Error onnxfe::checkDeclaredModel(const onnx::ModelProto &model,
                                       const ImportLimits &limits,
                                       llvm::StringRef sourceName) {
  const onnx::GraphProto &graph = model.graph();
  if (static_cast<uint64_t>(graph.node_size()) > limits.maxNodes)
    return makeError("'" + sourceName + "': the graph has " +
                     std::to_string(graph.node_size()) +
                     " nodes, over the limit of " +
                     std::to_string(limits.maxNodes) + " (--max-nodes)");
  if (auto err = checkGraphOutputs(graph, sourceName))
    return err;
  for (const auto &input : graph.input())
    if (auto err = checkValueType("graph input '" + input.name() + "'",
                                  input.type(), limits))
      return err;
  for (const auto &tensor : graph.initializer())
    if (auto err = checkTensorProto("initializer '" + tensor.name() + "'",
                                    tensor, limits))
      return err;
  const DeclaredRanks ranks(graph);
  for (int i = 0; i < graph.node_size(); ++i) {
    const onnx::NodeProto &node = graph.node(i);
    int64_t opset =
        isDefaultDomain(node.domain()) ? getDefaultOpset(model) : -1;
    if (auto err = checkAttributes(node, opset, i, limits))
      return err;
    if (auto err = checkOperandRanks(node, opset, i, ranks))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error onnxfe::checkInferredSizes(const onnx::GraphProto &graph,
                                       const ImportLimits &limits) {
  for (const auto &info : graph.value_info())
    if (auto err =
            checkValueType("value '" + info.name() + "'", info.type(), limits))
      return err;
  for (const auto &info : graph.output())
    if (auto err = checkValueType("graph output '" + info.name() + "'",
                                  info.type(), limits))
      return err;
  return llvm::Error::success();
}

std::string onnxfe::describeInferenceFailure(llvm::StringRef what) {
  // libonnx: "[ShapeInferenceError] (op_type:Add, node name: add):
  // [TypeInferenceError] msg" possibly several, one per line after "Shape
  // inference error(s): ".
  size_t at = what.find("(op_type:");
  size_t nameAt = what.find(", node name: ", at);
  size_t close = what.find("): ", nameAt);
  if (at == llvm::StringRef::npos || nameAt == llvm::StringRef::npos ||
      close == llvm::StringRef::npos)
    return ("shape inference failed: " + what).str();
  llvm::StringRef type = what.slice(at + 9, nameAt);
  llvm::StringRef name = what.slice(nameAt + 13, close);
  llvm::StringRef message = what.drop_front(close + 3);
  message = message.take_until([](char c) { return c == '\n'; });
  message = message.take_front(message.find("(op_type:")).rtrim();
  if (message.starts_with("[")) // "[ShapeInferenceError] "
    message = message.drop_front(message.find("] ") + 2);
  return "node '" + name.str() + "' (" + type.str() +
         "): shape inference failed: " + message.str();
}

onnxfe::DeclaredRanks::DeclaredRanks(const onnx::GraphProto &graph) {
  // The first declaration of a name wins, in this order.
  for (const auto &tensor : graph.initializer())
    ranks_.try_emplace(tensor.name(), tensor.dims_size());
  for (const auto *infos : {&graph.input(), &graph.value_info()})
    for (const auto &info : *infos)
      if (info.type().has_tensor_type() &&
          info.type().tensor_type().has_shape())
        ranks_.try_emplace(info.name(),
                           info.type().tensor_type().shape().dim_size());
  for (const auto &node : graph.node())
    if (node.op_type() == "Constant" && node.output_size() == 1)
      for (const auto &attr : node.attribute())
        if (attr.name() == "value" && attr.has_t())
          ranks_.try_emplace(node.output(0), attr.t().dims_size());
}

std::optional<int> onnxfe::DeclaredRanks::lookup(llvm::StringRef name) const {
  auto it = ranks_.find(name);
  if (it == ranks_.end())
    return std::nullopt;
  return it->second;
}
