//===- OmGearValidation.cpp - a model's gears, as the loader checks them --===//
//
// What the executor relies on when it picks a gear: each gear is a complete
// static program, the table says truthfully which shapes it takes and gives,
// and the shared streams, events and workspace are large enough for every
// gear.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmGearValidation.h"
#include "executor/model/OmFormat.h"

#include <algorithm>
#include <map>
#include <set>

namespace geflow::om {
namespace {

constexpr int kMinGears = 2, kMaxGears = 100;

std::string shapeText(const ShapeDef &s) {
  std::string t = "[";
  for (int i = 0; i < s.dim_size(); ++i)
    t += (i ? "," : "") + std::to_string(s.dim(i));
  return t + "]";
}

bool sameDims(const ShapeDef &s,
              const google::protobuf::RepeatedField<int64_t> &dims) {
  return s.dim_size() == dims.size() &&
         std::equal(s.dim().begin(), s.dim().end(), dims.begin());
}

class GearChecker {
public:
  GearChecker(const ModelDef &m, const ModelTaskDef &t, const MemoryPlan &mem,
              uint64_t weightsSize, const std::string &src,
              const OmLimits &limits)
      : model_(m), table_(m.gears()), tasks_(t), mem_(mem),
        weightsSize_(weightsSize), src_(src), limits_(limits) {}

  rt::Status run() {
    if (table_.mode() == GearTable::RUNTIME_SHAPES) {
      // H3's run-time shapes: only the source model is required here.
      if (model_.source_model().empty())
        return bad("gear mode RUNTIME_SHAPES without a source_model");
      return rt::Status::ok();
    }
    GEFLOW_RT_RETURN_IF_ERROR(checkCounts());
    GEFLOW_RT_RETURN_IF_ERROR(checkTemplate());
    std::set<std::vector<int64_t>> seen;
    for (int i = 0; i < table_.gear_size(); ++i) {
      std::string src = src_ + ": " + gearName(i);
      GEFLOW_RT_RETURN_IF_ERROR(validateGearProgram(
          model_, i, tasks_.gear(i), mem_.gear(i), weightsSize_, src, limits_));
      GEFLOW_RT_RETURN_IF_ERROR(checkGear(i));
      const auto &dims = table_.gear(i).dims();
      if (!seen.insert({dims.begin(), dims.end()}).second)
        return bad(gearName(i) + ": repeats the dims of an earlier gear");
    }
    return rt::Status::ok();
  }

private:
  rt::Status bad(const std::string &msg) const {
    return rt::makeStatus(rt::StatusCode::kInvalidSpec, src_ + ": " + msg);
  }
  std::string gearName(int i) const {
    std::string label = table_.gear(i).label();
    for (char &c : label)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        c = '?';
    return "gear " + std::to_string(i) + " '" + label + "'";
  }

  /// One graph, one task list and one memory plan per gear, 2..100 of them,
  /// and nothing at the top level but what the gears share.
  rt::Status checkCounts() const {
    if (table_.mode() == GearTable::STATIC)
      return bad("a STATIC model with gear sections (" +
                 std::to_string(model_.graph_size()) + " graphs, " +
                 std::to_string(table_.gear_size()) + " gears, " +
                 std::to_string(tasks_.gear_size()) + " gear task lists, " +
                 std::to_string(mem_.gear_size()) + " gear memory plans)");
    if (table_.mode() > GearTable::DYNAMIC_DIMS)
      return bad("gear table: mode " + std::to_string(table_.mode()) +
                 " is unknown");
    int n = table_.gear_size();
    if (n < kMinGears || n > kMaxGears)
      return bad("gear table: " + std::to_string(n) + " gears (must be " +
                 std::to_string(kMinGears) + ".." + std::to_string(kMaxGears) +
                 ")");
    auto count = [&](const char *what, int have) {
      return bad("gear table: " + std::to_string(n) + " gears but " +
                 std::to_string(have) + " " + what);
    };
    if (model_.graph_size() != n)
      return count("graphs in MODEL_DEF", model_.graph_size());
    if (tasks_.gear_size() != n)
      return count("gear task lists in TASK_INFO", tasks_.gear_size());
    if (mem_.gear_size() != n)
      return count("gear memory plans in MEMORY", mem_.gear_size());
    if (tasks_.task_size() != 0)
      return bad("TASK_INFO has " + std::to_string(tasks_.task_size()) +
                 " top-level tasks; with gears each gear has its own");
    if (mem_.placement_size() != 0)
      return bad("MEMORY has " + std::to_string(mem_.placement_size()) +
                 " top-level placements; with gears each gear has its own");
    if (uint32_t(tasks_.stream_priority_size()) != tasks_.stream_num())
      return bad("TASK_INFO has " +
                 std::to_string(tasks_.stream_priority_size()) +
                 " stream priorities for " +
                 std::to_string(tasks_.stream_num()) + " streams");
    if (mem_.workspace_size() > limits_.maxWorkspaceBytes)
      return bad("MEMORY plans a workspace of " +
                 std::to_string(mem_.workspace_size()) +
                 " bytes, over the limit of " +
                 std::to_string(limits_.maxWorkspaceBytes) +
                 " (--max-workspace-bytes)");
    return rt::Status::ok();
  }

  /// The -1s sit where the mode says; values_ is what a gear gives.
  rt::Status checkTemplate() {
    int open = 0;
    for (int j = 0; j < table_.input_size(); ++j) {
      const ShapeDef &s = table_.input(j);
      std::string where =
          "gear table: input " + std::to_string(j) + " " + shapeText(s);
      int inputOpen = 0;
      for (int d = 0; d < s.dim_size(); ++d) {
        if (s.dim(d) < -1)
          return bad(where + ": dim " + std::to_string(d) + " is negative");
        if (s.dim(d) != -1)
          continue;
        ++inputOpen;
        if (table_.mode() == GearTable::DYNAMIC_BATCH && d != 0)
          return bad(where + ": DYNAMIC_BATCH has its -1 at dim 0 only");
      }
      if (table_.mode() == GearTable::DYNAMIC_IMAGE_SIZE && inputOpen &&
          (s.dim_size() != 4 || inputOpen != 2 || s.dim(2) != -1 ||
           s.dim(3) != -1))
        return bad(where + ": DYNAMIC_IMAGE_SIZE has its -1s at H and W of "
                           "a 4-D input");
      open += inputOpen;
    }
    if (open == 0)
      return bad("gear table: no input has a -1");
    values_ = table_.mode() == GearTable::DYNAMIC_BATCH        ? 1
              : table_.mode() == GearTable::DYNAMIC_IMAGE_SIZE ? 2
                                                               : open;
    return rt::Status::ok();
  }

  /// The template filled with gear i's dims.
  std::vector<ShapeDef> filled(const Gear &gear) const {
    std::vector<ShapeDef> shapes(table_.input().begin(), table_.input().end());
    int next = 0;
    for (ShapeDef &s : shapes)
      for (int d = 0; d < s.dim_size(); ++d)
        if (s.dim(d) == -1)
          s.set_dim(d, table_.mode() == GearTable::DYNAMIC_BATCH ? gear.dims(0)
                       : table_.mode() == GearTable::DYNAMIC_IMAGE_SIZE
                           ? gear.dims(d - 2)
                           : gear.dims(next++));
    return shapes;
  }

  const OpDef *producer(const GraphDef &g, const std::string &ref,
                        int *k) const {
    size_t colon = ref.rfind(':');
    std::string name = ref.substr(0, colon);
    *k = std::stoi(ref.substr(colon + 1));
    for (const OpDef &op : g.op())
      if (op.name() == name)
        return &op;
    return nullptr;
  }

  /// Gear i's entry against its program (already validated) and the
  /// top-level sections.
  rt::Status checkGear(int i) const {
    const Gear &gear = table_.gear(i);
    const GraphDef &g = model_.graph(i);
    const std::string name = gearName(i);
    if (gear.dims_size() != values_)
      return bad(name + ": " + std::to_string(gear.dims_size()) +
                 " dims for the template's " + std::to_string(values_));
    for (int64_t v : gear.dims())
      if (v <= 0)
        return bad(name + ": dim value " + std::to_string(v) +
                   " is not positive");
    if (gear.input_shape_size() != table_.input_size() ||
        g.input_size() != table_.input_size())
      return bad(name + ": " + std::to_string(gear.input_shape_size()) +
                 " input shapes and " + std::to_string(g.input_size()) +
                 " graph inputs for the template's " +
                 std::to_string(table_.input_size()));
    std::vector<ShapeDef> want = filled(gear);
    for (int j = 0; j < g.input_size(); ++j) {
      const ShapeDef &s = gear.input_shape(j);
      if (!sameDims(s, want[j].dim()))
        return bad(name + ": input " + std::to_string(j) + " shape " +
                   shapeText(s) + " is not the template filled with its dims " +
                   shapeText(want[j]));
      for (const OpDef &op : g.op())
        if (op.type() == kDataType && op.name() == g.input(j) &&
            !sameDims(s, op.output_desc(0).shape()))
          return bad(name + ": input " + std::to_string(j) + " shape " +
                     shapeText(s) + " differs from its Data op's descriptor");
    }
    if (gear.output_shape_size() != g.output_size())
      return bad(name + ": " + std::to_string(gear.output_shape_size()) +
                 " output shapes for " + std::to_string(g.output_size()) +
                 " graph outputs");
    for (int j = 0; j < g.output_size(); ++j) {
      int k;
      const OpDef *op = producer(g, g.output(j), &k);
      if (!op || !sameDims(gear.output_shape(j), op->output_desc(k).shape()))
        return bad(name + ": output " + std::to_string(j) + " shape " +
                   shapeText(gear.output_shape(j)) +
                   " differs from the graph's output descriptor");
    }
    const ModelTaskDef &t = tasks_.gear(i);
    if (t.stream_num() > tasks_.stream_num() ||
        t.event_num() > tasks_.event_num())
      return bad(name + ": " + std::to_string(t.stream_num()) + " streams, " +
                 std::to_string(t.event_num()) + " events, over the model's " +
                 std::to_string(tasks_.stream_num()) + " and " +
                 std::to_string(tasks_.event_num()));
    if (mem_.gear(i).workspace_size() > mem_.workspace_size())
      return bad(name + ": workspace of " +
                 std::to_string(mem_.gear(i).workspace_size()) +
                 " bytes, over the model's " +
                 std::to_string(mem_.workspace_size()));
    return rt::Status::ok();
  }

  const ModelDef &model_;
  const GearTable &table_;
  const ModelTaskDef &tasks_;
  const MemoryPlan &mem_;
  const uint64_t weightsSize_;
  const std::string &src_;
  const OmLimits &limits_;
  int values_ = 0;
};

} // namespace

bool hasGearSections(const ModelDef &modelDef, const ModelTaskDef &tasks,
                     const MemoryPlan &memory) {
  return modelDef.has_gears() || modelDef.graph_size() > 1 ||
         tasks.gear_size() > 0 || memory.gear_size() > 0 ||
         !modelDef.source_model().empty();
}

rt::Status validateGears(const ModelDef &modelDef, const ModelTaskDef &tasks,
                         const MemoryPlan &memory, uint64_t weightsSize,
                         const std::string &sourceName,
                         const OmLimits &limits) {
  return GearChecker(modelDef, tasks, memory, weightsSize, sourceName, limits)
      .run();
}

} // namespace geflow::om
