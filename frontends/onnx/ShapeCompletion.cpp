//===- ShapeCompletion.cpp - dims ONNX inference leaves unknown -----------===//

#include "frontends/onnx/ShapeCompletion.h"

#include "onnx/defs/tensor_proto_util.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace geflow::onnxfe;

namespace {

/// The constant tensors of a graph by value name: initializers and the
/// `value` of Constant nodes.
std::map<std::string, const onnx::TensorProto *>
constantTensors(const onnx::GraphProto &graph) {
  std::map<std::string, const onnx::TensorProto *> constants;
  for (const auto &tensor : graph.initializer())
    constants[tensor.name()] = &tensor;
  for (const auto &node : graph.node())
    if (node.op_type() == "Constant" && node.output_size() == 1)
      for (const auto &attr : node.attribute())
        if (attr.name() == "value" && attr.has_t())
          constants[node.output(0)] = &attr.t();
  return constants;
}

/// The values of an integer or float tensor as int64 (floats truncated).
std::optional<std::vector<int64_t>> intValues(const onnx::TensorProto *t) {
  if (!t || t->data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  try {
    switch (t->data_type()) {
    case onnx::TensorProto::INT64:
      return onnx::ParseData<int64_t>(t);
    case onnx::TensorProto::INT32: {
      auto v = onnx::ParseData<int32_t>(t);
      return std::vector<int64_t>(v.begin(), v.end());
    }
    case onnx::TensorProto::FLOAT: {
      auto v = onnx::ParseData<float>(t);
      return std::vector<int64_t>(v.begin(), v.end());
    }
    case onnx::TensorProto::DOUBLE: {
      auto v = onnx::ParseData<double>(t);
      return std::vector<int64_t>(v.begin(), v.end());
    }
    default:
      return std::nullopt;
    }
  } catch (...) {
    return std::nullopt;
  }
}

class Completion {
public:
  explicit Completion(onnx::GraphProto &graph)
      : graph_(graph), constants_(constantTensors(graph)) {
    for (auto &info : *graph.mutable_input())
      types_[info.name()] = info.mutable_type();
    for (auto &info : *graph.mutable_value_info())
      types_[info.name()] = info.mutable_type();
    for (auto &info : *graph.mutable_output())
      types_[info.name()] = info.mutable_type();
  }

  bool run() {
    bool changed = false;
    for (const auto &node : graph_.node()) {
      if (node.output_size() < 1 || node.output(0).empty())
        continue;
      std::optional<std::vector<int64_t>> dims;
      int elementFrom = 0;
      if (node.op_type() == "OneHot" && node.input_size() == 3) {
        dims = oneHotShape(node);
        elementFrom = 2;
      } else if (node.op_type() == "MaxUnpool" && node.input_size() == 3) {
        dims = intValues(constant(node.input(2)));
      }
      if (dims && setShape(node.output(0), *dims, node.input(elementFrom)))
        changed = true;
    }
    return changed;
  }

private:
  const onnx::TensorProto *constant(const std::string &name) const {
    auto it = constants_.find(name);
    return it == constants_.end() ? nullptr : it->second;
  }

  /// The static dims of value `name`, from its type or its constant.
  std::optional<std::vector<int64_t>> staticDims(const std::string &name) {
    if (const onnx::TensorProto *t = constant(name))
      return std::vector<int64_t>(t->dims().begin(), t->dims().end());
    auto it = types_.find(name);
    if (it == types_.end() || !it->second->tensor_type().has_shape())
      return std::nullopt;
    std::vector<int64_t> dims;
    for (const auto &d : it->second->tensor_type().shape().dim()) {
      if (!d.has_dim_value())
        return std::nullopt;
      dims.push_back(d.dim_value());
    }
    return dims;
  }

  /// Indices' dims with depth inserted at axis (default -1).
  std::optional<std::vector<int64_t>> oneHotShape(const onnx::NodeProto &node) {
    auto depth = intValues(constant(node.input(1)));
    auto dims = staticDims(node.input(0));
    if (!depth || depth->size() != 1 || (*depth)[0] < 1 || !dims)
      return std::nullopt;
    int64_t rank = static_cast<int64_t>(dims->size()) + 1, axis = -1;
    for (const auto &attr : node.attribute())
      if (attr.name() == "axis")
        axis = attr.i();
    if (axis < -rank || axis >= rank)
      return std::nullopt;
    if (axis < 0)
      axis += rank;
    dims->insert(dims->begin() + axis, (*depth)[0]);
    return dims;
  }

  /// Gives `name` the static `dims` with the element type of `like`, unless
  /// it has a static shape already.
  bool setShape(const std::string &name, const std::vector<int64_t> &dims,
                const std::string &like) {
    onnx::TypeProto *type = types_[name];
    if (!type) {
      auto *info = graph_.add_value_info();
      info->set_name(name);
      type = types_[name] = info->mutable_type();
    }
    if (staticDims(name))
      return false;
    auto *tensor = type->mutable_tensor_type();
    if (tensor->elem_type() == onnx::TensorProto::UNDEFINED) {
      auto it = types_.find(like);
      if (it != types_.end())
        tensor->set_elem_type(it->second->tensor_type().elem_type());
      else if (const onnx::TensorProto *t = constant(like))
        tensor->set_elem_type(t->data_type());
    }
    auto *shape = tensor->mutable_shape();
    shape->clear_dim();
    for (int64_t d : dims)
      shape->add_dim()->set_dim_value(d);
    return true;
  }

  onnx::GraphProto &graph_;
  std::map<std::string, const onnx::TensorProto *> constants_;
  std::map<std::string, onnx::TypeProto *> types_;
};

} // namespace

bool geflow::onnxfe::completeShapesFromConstants(onnx::GraphProto &graph) {
  return Completion(graph).run();
}
