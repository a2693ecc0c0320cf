//===- GraphRewrites.cpp - value-level edits of an ONNX graph -------------===//

#include "frontends/onnx/GraphRewrites.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <type_traits>
#include <vector>

using namespace geflow;
using namespace geflow::onnxfe;

namespace {

/// Calls `fn` on each graph-valued attribute of `node` (If's branches, the
/// bodies of Loop and Scan).
template <class Fn> void forEachSubgraph(onnx::NodeProto &node, Fn fn) {
  for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
    if (attr.has_g())
      fn(*attr.mutable_g());
    for (onnx::GraphProto &graph : *attr.mutable_graphs())
      fn(graph);
  }
}
template <class Fn> void forEachSubgraph(const onnx::NodeProto &node, Fn fn) {
  for (const onnx::AttributeProto &attr : node.attribute()) {
    if (attr.has_g())
      fn(attr.g());
    for (const onnx::GraphProto &graph : attr.graphs())
      fn(graph);
  }
}

/// True when `graph` makes a value `name` of its own (which then hides an
/// outer value of that name from its nodes).
bool definesValue(const onnx::GraphProto &graph, llvm::StringRef name) {
  for (const auto &input : graph.input())
    if (input.name() == name)
      return true;
  for (const auto &tensor : graph.initializer())
    if (tensor.name() == name)
      return true;
  for (const auto &node : graph.node())
    for (const std::string &output : node.output())
      if (output == name)
        return true;
  return false;
}

/// renameUses; `outputsToo` renames the graph's outputs as well, which a
/// subgraph may take straight from an outer value.
void renameReads(onnx::GraphProto &graph, llvm::StringRef from,
                 llvm::StringRef to, bool outputsToo) {
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    for (std::string &input : *node.mutable_input())
      if (input == from)
        input = to.str();
    forEachSubgraph(node, [&](onnx::GraphProto &subgraph) {
      if (!definesValue(subgraph, from))
        renameReads(subgraph, from, to, /*outputsToo=*/true);
    });
  }
  if (outputsToo)
    for (auto &output : *graph.mutable_output())
      if (output.name() == from)
        output.set_name(to.str());
}

void addReadsOf(const onnx::NodeProto &node, llvm::StringSet<> &names);

/// Every name `graph` and its subgraphs read or return: what a node with
/// that subgraph may need from outside it.
void addReadsIn(const onnx::GraphProto &graph, llvm::StringSet<> &names) {
  for (const auto &node : graph.node())
    addReadsOf(node, names);
  for (const auto &output : graph.output())
    names.insert(output.name());
}

/// The names `node` reads, its subgraphs' included.
void addReadsOf(const onnx::NodeProto &node, llvm::StringSet<> &names) {
  for (const std::string &input : node.input())
    names.insert(input);
  forEachSubgraph(node, [&](const onnx::GraphProto &subgraph) {
    addReadsIn(subgraph, names);
  });
}

/// Removes the elements of `field` whose `keep` is false, in order.
template <class Field> void keepOnly(Field &field, std::vector<bool> &keep) {
  int kept = 0;
  for (int i = 0; i < field.size(); ++i)
    if (keep[i]) {
      if (kept != i)
        field.SwapElements(kept, i);
      ++kept;
    }
  field.DeleteSubrange(kept, field.size() - kept);
}

} // namespace

onnxfe::ValueNames::ValueNames(const onnx::GraphProto &graph) { add(graph); }

void onnxfe::ValueNames::add(const onnx::GraphProto &graph) {
  for (const auto &input : graph.input())
    names_.insert(input.name());
  for (const auto &tensor : graph.initializer())
    names_.insert(tensor.name());
  for (const auto &info : graph.value_info())
    names_.insert(info.name());
  for (const auto &node : graph.node()) {
    names_.insert(node.name());
    for (const std::string &output : node.output())
      names_.insert(output);
  }
  addReadsIn(graph, names_);
  for (const auto &node : graph.node())
    forEachSubgraph(node,
                    [&](const onnx::GraphProto &subgraph) { add(subgraph); });
}

std::string onnxfe::ValueNames::fresh(llvm::StringRef base) {
  std::string name = base.str();
  for (int n = 1; names_.contains(name); ++n)
    name = base.str() + "_" + std::to_string(n);
  names_.insert(name);
  return name;
}

void onnxfe::renameUses(onnx::GraphProto &graph, llvm::StringRef from,
                        llvm::StringRef to) {
  renameReads(graph, from, to, /*outputsToo=*/false);
}

void onnxfe::renameNodeOutput(onnx::GraphProto &graph, llvm::StringRef from,
                              llvm::StringRef to) {
  for (onnx::NodeProto &node : *graph.mutable_node())
    for (std::string &output : *node.mutable_output())
      if (output == from)
        output = to.str();
  for (auto &info : *graph.mutable_value_info())
    if (info.name() == from)
      info.set_name(to.str());
  renameUses(graph, from, to);
}

int32_t onnxfe::declaredElementType(const onnx::GraphProto &graph,
                                    llvm::StringRef value) {
  for (const auto *infos :
       {&graph.input(), &graph.output(), &graph.value_info()})
    for (const auto &info : *infos)
      if (info.name() == value && info.type().has_tensor_type() &&
          info.type().tensor_type().elem_type() != onnx::TensorProto::UNDEFINED)
        return info.type().tensor_type().elem_type();
  for (const auto &tensor : graph.initializer())
    if (tensor.name() == value)
      return tensor.data_type();
  for (const auto &node : graph.node()) {
    if (node.output_size() != 1 || node.output(0) != value)
      continue;
    for (const auto &attr : node.attribute()) {
      if (node.op_type() == "Cast" && attr.name() == "to")
        return static_cast<int32_t>(attr.i());
      if (node.op_type() == "Constant" && attr.name() == "value")
        return attr.t().data_type();
    }
  }
  return onnx::TensorProto::UNDEFINED;
}

onnx::NodeProto &onnxfe::appendNode(onnx::GraphProto &graph,
                                    llvm::StringRef type, llvm::StringRef name,
                                    llvm::ArrayRef<std::string> inputs,
                                    llvm::StringRef output) {
  onnx::NodeProto &node = *graph.add_node();
  node.set_op_type(type.str());
  node.set_name(name.str());
  for (const std::string &input : inputs)
    node.add_input(input);
  node.add_output(output.str());
  return node;
}

std::string onnxfe::appendStep(onnx::GraphProto &graph, ValueNames &names,
                               llvm::StringRef type, const llvm::Twine &base,
                               llvm::ArrayRef<std::string> inputs) {
  std::string value = names.fresh(base.str());
  appendNode(graph, type, value, inputs, value);
  return value;
}

void onnxfe::setAttribute(onnx::NodeProto &node, llvm::StringRef name,
                          int64_t value) {
  onnx::AttributeProto &attr = *node.add_attribute();
  attr.set_name(name.str());
  attr.set_type(onnx::AttributeProto::INT);
  attr.set_i(value);
}

void onnxfe::setAttribute(onnx::NodeProto &node, llvm::StringRef name,
                          llvm::ArrayRef<int64_t> values) {
  onnx::AttributeProto &attr = *node.add_attribute();
  attr.set_name(name.str());
  attr.set_type(onnx::AttributeProto::INTS);
  for (int64_t value : values)
    attr.add_ints(value);
}

/// The ONNX element type of a constant's values.
template <class T> constexpr int32_t constantType() {
  return std::is_same_v<T, float> ? onnx::TensorProto::FLOAT
                                  : onnx::TensorProto::INT64;
}

template <class T>
std::string onnxfe::addConstant(onnx::GraphProto &graph, ValueNames &names,
                                const llvm::Twine &base,
                                llvm::ArrayRef<int64_t> dims,
                                llvm::ArrayRef<T> values) {
  onnx::TensorProto &tensor = *graph.add_initializer();
  tensor.set_name(names.fresh(base.str()));
  tensor.set_data_type(constantType<T>());
  for (int64_t dim : dims)
    tensor.add_dims(dim);
  // raw_data is little-endian, as the host is.
  tensor.set_raw_data(values.data(), values.size() * sizeof(T));
  return tensor.name();
}

template std::string onnxfe::addConstant<float>(onnx::GraphProto &,
                                                ValueNames &,
                                                const llvm::Twine &,
                                                llvm::ArrayRef<int64_t>,
                                                llvm::ArrayRef<float>);
template std::string onnxfe::addConstant<int64_t>(onnx::GraphProto &,
                                                  ValueNames &,
                                                  const llvm::Twine &,
                                                  llvm::ArrayRef<int64_t>,
                                                  llvm::ArrayRef<int64_t>);

void onnxfe::moveLastNodesToFront(onnx::GraphProto &graph, int count) {
  auto nodes = graph.mutable_node()->pointer_begin();
  std::rotate(nodes, nodes + (graph.node_size() - count),
              nodes + graph.node_size());
}

void onnxfe::removeUnneededNodes(onnx::GraphProto &graph) {
  llvm::StringSet<> needed;
  for (const auto &output : graph.output())
    needed.insert(output.name());
  std::vector<bool> keepNode(graph.node_size(), false);
  // Nodes are topologically sorted in a valid model; sweeping until nothing
  // changes also covers one that is not.
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = graph.node_size() - 1; i >= 0; --i) {
      const onnx::NodeProto &node = graph.node(i);
      if (keepNode[i] || llvm::none_of(node.output(), [&](const auto &out) {
            return needed.contains(out);
          }))
        continue;
      keepNode[i] = changed = true;
      addReadsOf(node, needed);
    }
  }
  keepOnly(*graph.mutable_node(), keepNode);
  std::vector<bool> keepTensor;
  for (const auto &tensor : graph.initializer())
    keepTensor.push_back(needed.contains(tensor.name()));
  keepOnly(*graph.mutable_initializer(), keepTensor);
}
