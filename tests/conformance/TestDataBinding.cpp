//===- TestDataBinding.cpp ------------------------------------------------===//

#include "tests/conformance/TestDataBinding.h"
#include "tools/driver/ShapeOperands.h"

#include <fstream>
#include <set>

using namespace geflow;
namespace fs = std::filesystem;

bool conformance::needsBinding(const std::string &importError) {
  return driver::isShapeNotStaticError(importError);
}

static std::set<std::string> initializerNames(const onnx::GraphProto &graph) {
  std::set<std::string> names;
  for (const auto &init : graph.initializer())
    names.insert(init.name());
  return names;
}

std::vector<int>
conformance::runtimeInputPositions(const onnx::ModelProto &model) {
  std::set<std::string> initializers = initializerNames(model.graph());
  std::vector<int> positions;
  int k = 0;
  for (const auto &input : model.graph().input())
    if (!initializers.count(input.name()))
      positions.push_back(k++);
  return positions;
}

std::vector<int> conformance::bindShapeInputs(onnx::ModelProto &model,
                                              const fs::path &dataSet,
                                              bool alsoIntegerInputs) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::set<std::string> shapeInputs;
  for (const auto &node : graph.node())
    for (int i = 0; i < node.input_size(); ++i)
      if (driver::isShapeOperand(node.op_type(), i))
        shapeInputs.insert(node.input(i));
  std::set<std::string> initializers = initializerNames(graph);

  std::vector<onnx::ValueInfoProto> kept;
  std::vector<int> positions;
  int k = 0;
  for (const onnx::ValueInfoProto &input : graph.input()) {
    if (initializers.count(input.name())) {
      kept.push_back(input);
      continue;
    }
    int position = k++;
    int32_t type = input.type().tensor_type().elem_type();
    bool bind = shapeInputs.count(input.name()) ||
                (alsoIntegerInputs && (type == onnx::TensorProto::INT64 ||
                                       type == onnx::TensorProto::INT32));
    onnx::TensorProto tensor;
    std::ifstream in(dataSet / ("input_" + std::to_string(position) + ".pb"),
                     std::ios::binary);
    if (bind && in && tensor.ParseFromIstream(&in)) {
      tensor.set_name(input.name());
      *graph.add_initializer() = std::move(tensor);
      continue;
    }
    kept.push_back(input);
    positions.push_back(position);
  }
  graph.clear_input();
  for (auto &input : kept)
    *graph.add_input() = std::move(input);
  return positions;
}
