//===- RuntimeShapesValidation.cpp - checks of a RUNTIME_SHAPES OM --------===//
//
// Such a model carries no program: its stages are compiled per execution
// from ModelDef.source_model. What the loader can check is that nothing
// else is there and that its description of the inputs and outputs is sound.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"

#include <set>

using namespace geflow;
using namespace geflow::om;

namespace {

rt::Status bad(const std::string &source, const std::string &message) {
  return rt::makeStatus(rt::StatusCode::kInvalidSpec, source + ": " + message);
}

/// A descriptor of a graph input or output: a known type, dims >= -1 (or
/// the single -2 of an unknown rank), no bytes.
bool describesValue(const TensorDescriptor &desc) {
  if (dataTypeBytes(desc.dtype()) == 0 || desc.size() != 0)
    return false;
  if (desc.shape_size() == 1 && desc.shape(0) == -2)
    return true;
  for (int64_t d : desc.shape())
    if (d < -1)
      return false;
  return true;
}

} // namespace

rt::Status om::validateRuntimeShapesModel(const ModelDef &modelDef,
                                          const ModelTaskDef &tasks,
                                          const MemoryPlan &memory,
                                          uint64_t weightsSize,
                                          const std::string &src,
                                          const OmLimits &limits) {
  if (modelDef.source_model().empty())
    return bad(src, "a RUNTIME_SHAPES model without source_model");
  if (modelDef.source_model().size() > limits.maxModelBytes)
    return bad(src, "source_model of " +
                        std::to_string(modelDef.source_model().size()) +
                        " bytes, over the limit of " +
                        std::to_string(limits.maxModelBytes) +
                        " (--max-model-bytes)");
  if (modelDef.graph_size() != 1)
    return bad(src, "a RUNTIME_SHAPES model has " +
                        std::to_string(modelDef.graph_size()) +
                        " graphs (expected 1, its description)");
  if (modelDef.gears().gear_size() != 0)
    return bad(src, "a RUNTIME_SHAPES model with compiled gears is not "
                    "supported");
  if (tasks.task_size() != 0 || tasks.gear_size() != 0 ||
      memory.placement_size() != 0 || memory.gear_size() != 0 ||
      weightsSize != 0)
    return bad(src, "a RUNTIME_SHAPES model carries no tasks, memory plan "
                    "or weights; its stages are compiled at run time");
  const GraphDef &g = modelDef.graph(0);
  int netOutputs = 0, data = 0;
  std::set<std::string> names;
  for (int i = 0; i < g.op_size(); ++i) {
    const OpDef &op = g.op(i);
    std::string where = "op " + std::to_string(i) + " '" + op.name() + "'";
    if (op.name().empty() || !names.insert(op.name()).second)
      return bad(src, where + ": missing or duplicate name");
    if (op.type() == kDataType) {
      auto index = op.attr().find("index");
      if (index == op.attr().end() || index->second.i() != data ||
          data >= g.input_size() || g.input(data) != op.name())
        return bad(src, where + ": Data op out of graph input order");
      ++data;
      if (op.output_desc_size() != 1 || !describesValue(op.output_desc(0)))
        return bad(src, where + ": Data needs 1 descriptor of a known type "
                                "and dims >= -1");
    } else if (op.type() == kNetOutputType) {
      ++netOutputs;
      auto names = op.attr().find("output_names");
      if (names == op.attr().end() ||
          names->second.list().s_size() != op.input_desc_size())
        return bad(src, where + ": one output name per output descriptor");
      for (const TensorDescriptor &desc : op.input_desc())
        if (!describesValue(desc))
          return bad(src, where + ": output descriptors need a known type "
                                  "and dims >= -1");
    } else {
      return bad(src, where +
                          ": a RUNTIME_SHAPES description holds only "
                          "Data and NetOutput ops, not " +
                          op.type());
    }
  }
  if (netOutputs != 1 || data != g.input_size() ||
      modelDef.gears().input_size() != data)
    return bad(src, "a RUNTIME_SHAPES description needs one NetOutput and "
                    "one Data op and gear-table input per graph input");
  return rt::Status::ok();
}
