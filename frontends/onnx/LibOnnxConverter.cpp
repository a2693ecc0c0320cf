//===- LibOnnxConverter.cpp - what the version converter would change ---===//
//
// The question "would the converter change this node" is answered from the
// converter's own tables (its schemas by op and version, its adapters by
// step), walked the way DefaultVersionConverter::convert_version walks them.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/LibOnnxConverter.h"

#include "onnx/defs/schema.h"
#include "onnx/version_converter/adapters/compatible.h"

using namespace geflow;
using namespace geflow::onnxfe;

const LibOnnxConverter &LibOnnxConverter::get() {
  static const LibOnnxConverter converter;
  return converter;
}

bool LibOnnxConverter::adapts(const onnx::NodeProto &node, int64_t from,
                              int64_t to) const {
  // The converter refuses versions outside its range; downgrades have
  // adapters of their own.
  const auto &range =
      onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map().at("");
  if (from >= to || from < range.first || to > range.second ||
      !node.domain().empty())
    return true;
  for (const onnx::AttributeProto &attr : node.attribute())
    if (attr.has_g() || attr.graphs_size() > 0)
      return true;
  auto schemas = all_schemas.find(node.op_type());
  if (schemas == all_schemas.end())
    return true;
  auto versions = schemas->second.find("");
  if (versions == schemas->second.end())
    return true;
  auto opAdapters = adapters.find(node.op_type());
  for (int64_t version = from; version < to; ++version) {
    // The converter adapts a node at each step up to a version its op has a
    // schema for.
    if (!versions->second.count(version + 1))
      continue;
    if (opAdapters == adapters.end())
      return true;
    auto stepsFrom = opAdapters->second.find(onnx::OpSetID(version).toString());
    if (stepsFrom == opAdapters->second.end())
      return true;
    auto step = stepsFrom->second.find(onnx::OpSetID(version + 1).toString());
    if (step == stepsFrom->second.end() ||
        !dynamic_cast<const onnx::version_conversion::CompatibleAdapter *>(
            step->second.get()))
      return true;
  }
  return false;
}

bool LibOnnxConverter::adaptsAny(const onnx::ModelProto &model, int64_t from,
                                 int64_t to) const {
  for (const onnx::NodeProto &node : model.graph().node())
    if (adapts(node, from, to))
      return true;
  return false;
}
