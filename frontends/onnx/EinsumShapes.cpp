//===- EinsumShapes.cpp - Einsum output shapes libonnx leaves open --------===//

#include "frontends/onnx/EinsumShapes.h"

#include "ir/EinsumEquation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <vector>

using namespace geflow;

namespace {

using Dims = std::vector<int64_t>;

std::optional<Dims> staticDims(const onnx::TypeProto &type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return std::nullopt;
  Dims dims;
  for (const auto &dim : type.tensor_type().shape().dim()) {
    if (!dim.has_dim_value())
      return std::nullopt;
    dims.push_back(dim.dim_value());
  }
  return dims;
}

void setDims(onnx::TypeProto &type, int32_t elemType, const Dims &dims) {
  auto *tensor = type.mutable_tensor_type();
  if (!tensor->has_elem_type())
    tensor->set_elem_type(elemType);
  auto *shape = tensor->mutable_shape();
  shape->clear_dim();
  for (int64_t d : dims)
    shape->add_dim()->set_dim_value(d);
}

} // namespace

bool onnxfe::completeEinsumShapes(onnx::GraphProto &graph) {
  // Inference calls this after every round, on every model: a graph with no
  // Einsum must not pay for the maps below (0.2 s at 100k nodes, on the
  // contained process's critical path).
  if (llvm::none_of(graph.node(), [](const onnx::NodeProto &node) {
        return node.op_type() == "Einsum";
      }))
    return false;
  // Every typed value: inputs, value_info, outputs; initializers' dims.
  llvm::StringMap<onnx::TypeProto *> types;
  for (auto &info : *graph.mutable_input())
    types[info.name()] = info.mutable_type();
  for (auto &info : *graph.mutable_value_info())
    types[info.name()] = info.mutable_type();
  for (auto &info : *graph.mutable_output())
    types[info.name()] = info.mutable_type();
  llvm::StringMap<std::pair<Dims, int32_t>> initializers;
  for (const auto &tensor : graph.initializer())
    initializers[tensor.name()] = {
        Dims(tensor.dims().begin(), tensor.dims().end()), tensor.data_type()};
  bool changed = false;
  for (const auto &node : graph.node()) {
    if (node.op_type() != "Einsum" || node.output_size() != 1 ||
        node.output(0).empty())
      continue;
    onnx::TypeProto *out = types.lookup(node.output(0));
    if (out && staticDims(*out))
      continue;
    std::string equation;
    for (const auto &attr : node.attribute())
      if (attr.name() == "equation")
        equation = attr.s();
    std::vector<Dims> shapes;
    int32_t elemType = 0;
    for (const std::string &input : node.input()) {
      std::optional<Dims> dims;
      if (const onnx::TypeProto *type = types.lookup(input)) {
        dims = staticDims(*type);
        elemType = type->tensor_type().elem_type();
      } else if (auto it = initializers.find(input); it != initializers.end()) {
        dims = it->second.first;
        elemType = it->second.second;
      }
      if (!dims)
        break;
      shapes.push_back(*dims);
    }
    einsum::Equation eq;
    std::string why;
    if (shapes.size() != static_cast<size_t>(node.input_size()) ||
        !einsum::parseEquation(equation, shapes, &eq, &why))
      continue; // the verifier reports a bad equation with the node's name
    if (!out) {
      auto *info = graph.add_value_info();
      info->set_name(node.output(0));
      out = info->mutable_type();
      types[node.output(0)] = out;
    }
    setDims(*out, elemType, eq.outputShape());
    changed = true;
  }
  return changed;
}
