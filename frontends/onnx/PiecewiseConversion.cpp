//===- PiecewiseConversion.cpp - version conversion in bounded pieces -----===//

#include "frontends/onnx/PiecewiseConversion.h"
#include "frontends/onnx/LibOnnxConverter.h"
#include "frontends/onnx/Opsets.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>

using namespace geflow;
using namespace geflow::onnxfe;

namespace {

bool hasSubgraphs(const onnx::GraphProto &graph) {
  for (const onnx::NodeProto &node : graph.node())
    for (const onnx::AttributeProto &attr : node.attribute())
      if (attr.has_g() || attr.graphs_size() > 0)
        return true;
  return false;
}

onnx::ValueInfoProto describeTensor(const onnx::TensorProto &tensor) {
  onnx::ValueInfoProto info;
  info.set_name(tensor.name());
  auto *type = info.mutable_type()->mutable_tensor_type();
  type->set_elem_type(tensor.data_type());
  auto *shape = type->mutable_shape();
  for (int64_t dim : tensor.dims())
    shape->add_dim()->set_dim_value(dim);
  return info;
}

/// What the whole model says about its values, looked up per piece.
class ModelValues {
public:
  explicit ModelValues(const onnx::ModelProto &model) : graph_(model.graph()) {
    for (const auto &info : graph_.input()) {
      infos_[info.name()] = &info;
      graphInputs_.insert(info.name());
    }
    for (const auto &info : graph_.value_info())
      infos_.try_emplace(info.name(), &info);
    for (const auto &info : graph_.output())
      infos_.try_emplace(info.name(), &info);
    for (int i = 0; i < graph_.initializer_size(); ++i)
      initializers_.try_emplace(graph_.initializer(i).name(), i);
    for (const auto &[name, info] : infos_)
      names_.insert(name);
    for (const auto &tensor : graph_.initializer())
      names_.insert(tensor.name());
    for (const auto &node : graph_.node())
      for (const std::string &output : node.output())
        names_.insert(output);
    listsInitializerInputs_ = model.ir_version() < 4;
  }

  /// Declares `name`, read by the piece but made before it, in `piece`.
  void addPieceInput(onnx::GraphProto &piece, const std::string &name) const {
    if (auto it = initializers_.find(name); it != initializers_.end()) {
      const onnx::TensorProto &tensor = graph_.initializer(it->second);
      *piece.add_initializer() = tensor;
      // The converter's IR knows an initializer of IR version < 4 only as a
      // graph input; others are inputs only if the model lists them.
      if (listsInitializerInputs_ || graphInputs_.contains(name))
        *piece.add_input() = describeTensor(tensor);
      return;
    }
    addInfo(piece.add_input(), name);
  }

  void addInfo(onnx::ValueInfoProto *info, const std::string &name) const {
    if (const onnx::ValueInfoProto *known = infos_.lookup(name))
      *info = *known;
    else
      info->set_name(name);
  }

  /// A name no value of the model has, for a value the converter added.
  std::string freshName(const std::string &suggested) {
    std::string name = "geflow_converted_" + suggested;
    for (int i = 1; names_.contains(name); ++i)
      name = "geflow_converted_" + suggested + "_" + std::to_string(i);
    names_.insert(name);
    return name;
  }

private:
  const onnx::GraphProto &graph_;
  llvm::StringMap<const onnx::ValueInfoProto *> infos_;
  llvm::StringMap<int> initializers_;
  llvm::StringSet<> graphInputs_;
  llvm::StringSet<> names_;
  bool listsInitializerInputs_ = false;
};

/// The nodes [begin, end) of `model` as a model of their own.
onnx::ModelProto buildPiece(const onnx::ModelProto &model,
                            const ModelValues &values, int begin, int end,
                            llvm::StringSet<> &pieceNames) {
  onnx::ModelProto piece;
  piece.set_ir_version(model.ir_version());
  *piece.mutable_opset_import() = model.opset_import();
  onnx::GraphProto &graph = *piece.mutable_graph();
  graph.set_name(model.graph().name());
  for (int i = begin; i < end; ++i) {
    const onnx::NodeProto &node = model.graph().node(i);
    for (const std::string &input : node.input())
      if (!input.empty() && pieceNames.insert(input).second)
        values.addPieceInput(graph, input);
    *graph.add_node() = node;
    // Every value made here is a graph output: a reader may follow the
    // piece, and the converter keeps a graph output's name.
    for (const std::string &output : node.output())
      if (!output.empty() && pieceNames.insert(output).second)
        values.addInfo(graph.add_output(), output);
  }
  return piece;
}

} // namespace

llvm::Error onnxfe::convertPiecewise(onnx::ModelProto &model, int64_t target,
                                     WholeModelConversion convert,
                                     int pieceNodes) {
  onnx::GraphProto &graph = *model.mutable_graph();
  if (graph.node_size() <= pieceNodes || hasSubgraphs(graph))
    return convert(model);
  int64_t opset = getDefaultOpset(model);
  const LibOnnxConverter &converter = LibOnnxConverter::get();
  ModelValues values(model);
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  std::vector<onnx::TensorProto> addedInitializers;
  for (int begin = 0; begin < graph.node_size(); begin += pieceNodes) {
    int end = std::min(graph.node_size(), begin + pieceNodes);
    bool changes = false;
    for (int i = begin; i < end && !changes; ++i)
      changes = converter.adapts(graph.node(i), opset, target);
    if (!changes) {
      for (int i = begin; i < end; ++i)
        *nodes.Add() = graph.node(i);
      continue;
    }
    llvm::StringSet<> pieceNames;
    onnx::ModelProto piece = buildPiece(model, values, begin, end, pieceNames);
    if (llvm::Error err = convert(piece))
      return err;
    // The converter names what it adds by a counter of its own, which the
    // next piece starts again.
    llvm::StringMap<std::string> renamed;
    auto rename = [&](std::string &name) {
      if (name.empty() || pieceNames.contains(name))
        return;
      auto [it, inserted] = renamed.try_emplace(name);
      if (inserted)
        it->second = values.freshName(name);
      name = it->second;
    };
    onnx::GraphProto &converted = *piece.mutable_graph();
    for (onnx::TensorProto &tensor : *converted.mutable_initializer())
      if (!pieceNames.contains(tensor.name())) {
        rename(*tensor.mutable_name());
        addedInitializers.push_back(std::move(tensor));
      }
    for (onnx::NodeProto &node : *converted.mutable_node()) {
      for (std::string &input : *node.mutable_input())
        rename(input);
      for (std::string &output : *node.mutable_output())
        rename(output);
      *nodes.Add() = std::move(node);
    }
  }
  graph.mutable_node()->Swap(&nodes);
  for (onnx::TensorProto &tensor : addedInitializers)
    *graph.add_initializer() = std::move(tensor);
  setDefaultOpset(model, target);
  return llvm::Error::success();
}
