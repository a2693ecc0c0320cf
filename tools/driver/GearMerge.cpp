//===- GearMerge.cpp - one compile per gear -> one OM with gears ----------===//
//
// Each gear's compile is a complete static model. The merge keeps its graph,
// tasks and memory plan as they are, except for the WEIGHTS offsets: the
// gears mostly share their constants (a batch gear changes no weight), so
// each distinct constant is stored once and every gear's Const ops, WEIGHT
// placements and WEIGHT MemRefs are moved to where it now lives.
//
//===----------------------------------------------------------------------===//

#include "tools/driver/Gears.h"

#include "executor/model/OmFormat.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>

namespace geflow::driver {
namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

uint64_t alignUp(uint64_t v) {
  return (v + om::kWeightAlignment - 1) / om::kWeightAlignment *
         om::kWeightAlignment;
}

/// Model attributes that describe one gear's program, not the model: they
/// move to the gear's graph.
constexpr const char *kPerGearModelAttrs[] = {
    "predicted_makespan_ns",        "predicted_makespan_single_stream_ns",
    "events_before_reduction",      "lower_bound_ns",
    "lower_bound_critical_path_ns", "lower_bound_engine_work_ns",
    "lower_bound_segments_ns"};

/// The compiled gears whose constants the merged model stores, alive as long
/// as it: its borrowed weights point into their `weights` and into what their
/// keepAlive holds.
struct GearModels {
  std::vector<om::OmModel> models;
};

/// A constant's bytes in `model`: in `weights` or one borrowed piece.
llvm::Expected<std::string_view> constantBytes(const om::OmModel &model,
                                               uint64_t offset, uint64_t size) {
  if (offset + size <= model.weights.size())
    return std::string_view(
        reinterpret_cast<const char *>(model.weights.data()) + offset, size);
  for (const om::BorrowedWeight &w : model.borrowedWeights)
    if (w.offset == offset && w.bytes.size() >= size)
      return w.bytes.substr(0, size);
  return fail(
      llvm::formatv("internal error: no weights at [{0}, +{1})", offset, size)
          .str());
}

int64_t intAttr(const om::OpDef &op, const char *name) {
  auto it = op.attr().find(name);
  return it == op.attr().end() ? -1 : it->second.i();
}

/// WEIGHTS of the merged model: every distinct constant once, in first-use
/// order, each a borrowed piece.
class WeightsMerger {
public:
  explicit WeightsMerger(om::OmModel &merged) : merged_(merged) {}

  /// Moves the constants of `source` (a gear's compile) into the merged
  /// WEIGHTS and rewrites every WEIGHT offset of its copied graph, tasks and
  /// memory plan. `tookBytes`: whether any constant of `source` is new, so
  /// that the merged model must keep `source`'s memory.
  llvm::Error addGear(const om::OmModel &source, const std::string &label,
                      om::GraphDef &graph, om::ModelTaskDef &tasks,
                      om::MemoryPlan &memory, bool *tookBytes) {
    *tookBytes = false;
    // Old constant start -> (size, new start).
    std::map<uint64_t, std::pair<uint64_t, uint64_t>> moved;
    for (om::OpDef &op : *graph.mutable_op()) {
      if (op.type() != om::kConstType)
        continue;
      int64_t offset = intAttr(op, "weight_offset");
      int64_t size = intAttr(op, "weight_size");
      if (offset < 0 || size < 0)
        return fail(label + ": internal error: Const '" + op.name() +
                    "' without weight_offset / weight_size");
      auto bytes = constantBytes(source, offset, size);
      if (!bytes)
        return bytes.takeError();
      uint64_t at = place(*bytes, tookBytes);
      moved[offset] = {uint64_t(size), at};
      (*op.mutable_attr())["weight_offset"].set_i(at);
    }
    auto remap = [&](om::MemRef &ref) -> llvm::Error {
      if (ref.kind() != om::MemRef::WEIGHT)
        return llvm::Error::success();
      auto it = moved.upper_bound(ref.offset());
      if (it == moved.begin())
        return fail(label + ": internal error: WEIGHT offset " +
                    llvm::Twine(ref.offset()) + " is in no constant");
      --it;
      uint64_t delta = ref.offset() - it->first;
      if (delta > it->second.first)
        return fail(label + ": internal error: WEIGHT offset " +
                    llvm::Twine(ref.offset()) + " is in no constant");
      ref.set_offset(it->second.second + delta);
      return llvm::Error::success();
    };
    for (om::TensorPlacement &p : *memory.mutable_placement())
      if (llvm::Error err = remap(*p.mutable_location()))
        return err;
    for (om::TaskDef &t : *tasks.mutable_task()) {
      if (t.has_src())
        if (llvm::Error err = remap(*t.mutable_src()))
          return err;
      if (t.has_dst())
        if (llvm::Error err = remap(*t.mutable_dst()))
          return err;
    }
    return llvm::Error::success();
  }

private:
  /// Where `bytes` live in the merged WEIGHTS; appended when new.
  uint64_t place(std::string_view bytes, bool *fresh) {
    auto [it, inserted] = offsets_.emplace(bytes, next_);
    if (inserted) {
      *fresh = true;
      merged_.borrowedWeights.push_back({next_, bytes});
      next_ = alignUp(next_ + bytes.size());
    }
    return it->second;
  }

  om::OmModel &merged_;
  std::unordered_map<std::string_view, uint64_t> offsets_;
  uint64_t next_ = 0;
};

/// Marks graph `graph` and each of its ops with GE's batch label, and takes
/// the model attributes that describe the gear alone.
void labelGraph(om::GraphDef &graph, const std::string &label,
                const om::ModelDef &gearModel) {
  (*graph.mutable_attr())["_batch_label"].set_s(label);
  for (om::OpDef &op : *graph.mutable_op())
    (*op.mutable_attr())["_batch_label"].set_s(label);
  for (const char *name : kPerGearModelAttrs)
    if (auto it = gearModel.attr().find(name); it != gearModel.attr().end())
      (*graph.mutable_attr())[name] = it->second;
}

/// The shape of each of `graph`'s outputs ("producer:k").
llvm::Expected<std::vector<om::ShapeDef>>
outputShapes(const om::GraphDef &graph, const std::string &label) {
  std::map<std::string, const om::OpDef *> byName;
  for (const om::OpDef &op : graph.op())
    byName[op.name()] = &op;
  std::vector<om::ShapeDef> shapes;
  for (const std::string &ref : graph.output()) {
    size_t colon = ref.rfind(':');
    auto it = byName.find(ref.substr(0, colon));
    int k = colon == std::string::npos ? -1 : std::atoi(&ref[colon + 1]);
    if (it == byName.end() || k < 0 || k >= it->second->output_desc_size())
      return fail(label + ": internal error: graph output '" + ref +
                  "' does not resolve");
    om::ShapeDef shape;
    for (int64_t d : it->second->output_desc(k).shape())
      shape.add_dim(d);
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

om::ShapeDef shapeDef(const std::vector<int64_t> &dims) {
  om::ShapeDef shape;
  for (int64_t d : dims)
    shape.add_dim(d);
  return shape;
}

} // namespace

struct GearMerger::State {
  const GearPlan &plan;
  std::string name;
  om::OmModel merged;
  std::shared_ptr<GearModels> held = std::make_shared<GearModels>();
  WeightsMerger weights{merged};
  std::vector<int32_t> priorities;
  size_t added = 0;

  State(const GearPlan &plan, llvm::StringRef name)
      : plan(plan), name(name.str()) {}
};

GearMerger::GearMerger(const GearPlan &plan, llvm::StringRef name)
    : state_(std::make_unique<State>(plan, name)) {}
GearMerger::~GearMerger() = default;

llvm::Error GearMerger::add(om::OmModel gear) {
  State &st = *state_;
  if (st.added >= st.plan.gears.size())
    return fail("internal error: more compiled gears than the plan has");
  const GearPlan::Gear &planned = st.plan.gears[st.added++];
  if (gear.modelDef.graph_size() != 1 || gear.modelDef.has_gears())
    return fail(planned.label +
                ": internal error: a gear's compile is not a static model");
  om::OmModel &merged = st.merged;
  om::ModelDef &def = merged.modelDef;
  if (st.added == 1) {
    merged.socName = gear.socName;
    def.set_name(st.name);
    def.set_version(gear.modelDef.version());
    def.set_custom_version(gear.modelDef.custom_version());
    *def.mutable_attr() = gear.modelDef.attr();
    for (const char *attr : kPerGearModelAttrs)
      def.mutable_attr()->erase(attr);
    om::GearTable &table = *def.mutable_gears();
    table.set_mode(st.plan.mode);
    for (const std::vector<int64_t> &dims : st.plan.inputTemplate)
      *table.add_input() = shapeDef(dims);
  }

  om::GraphDef &graph = *def.add_graph();
  graph = gear.modelDef.graph(0);
  om::ModelTaskDef &tasks = *merged.taskDef.add_gear();
  tasks = gear.taskDef;
  om::MemoryPlan &memory = *merged.memoryPlan.add_gear();
  memory = gear.memoryPlan;
  bool tookBytes;
  if (llvm::Error err = st.weights.addGear(gear, planned.label, graph, tasks,
                                           memory, &tookBytes))
    return err;
  labelGraph(graph, planned.label, gear.modelDef);

  om::Gear &entry = *def.mutable_gears()->add_gear();
  entry.mutable_dims()->Add(planned.dims.begin(), planned.dims.end());
  entry.set_label(planned.label);
  for (const std::vector<int64_t> &dims : planned.inputShapes)
    *entry.add_input_shape() = shapeDef(dims);
  auto outputs = outputShapes(graph, planned.label);
  if (!outputs)
    return outputs.takeError();
  for (om::ShapeDef &shape : *outputs)
    *entry.add_output_shape() = std::move(shape);

  // The gears share streams and event ids; a stream's priority is the one
  // the first gear that has the stream gives it.
  om::ModelTaskDef &top = merged.taskDef;
  top.set_stream_num(std::max(top.stream_num(), tasks.stream_num()));
  top.set_event_num(std::max(top.event_num(), tasks.event_num()));
  for (int s = st.priorities.size(); s < tasks.stream_priority_size(); ++s)
    st.priorities.push_back(tasks.stream_priority(s));
  om::MemoryPlan &plan = merged.memoryPlan;
  plan.set_workspace_size(
      std::max(plan.workspace_size(), memory.workspace_size()));
  plan.set_workspace_size_without_reuse(
      std::max(plan.workspace_size_without_reuse(),
               memory.workspace_size_without_reuse()));
  // A gear whose constants all repeat earlier gears' (a batch gear's do)
  // is released here, so memory stays that of one or two compiles.
  if (tookBytes)
    st.held->models.push_back(std::move(gear));
  return llvm::Error::success();
}

llvm::Expected<om::OmModel> GearMerger::finish() {
  State &st = *state_;
  if (st.added != st.plan.gears.size() || st.added == 0)
    return fail(llvm::formatv("internal error: {0} compiled gears for {1} in "
                              "the plan",
                              st.added, st.plan.gears.size())
                    .str());
  om::OmModel merged = std::move(st.merged);
  for (int32_t priority : st.priorities)
    merged.taskDef.add_stream_priority(priority);
  merged.keepAlive = std::move(st.held);
  rt::Status valid = om::validateOmModel(merged, st.name);
  if (!valid.isOk())
    return fail("internal error: the merged gears are not a valid model: " +
                valid.message());
  return merged;
}

llvm::Expected<om::OmModel> mergeGears(const GearPlan &plan,
                                       std::vector<om::OmModel> gears,
                                       llvm::StringRef name) {
  GearMerger merger(plan, name);
  for (om::OmModel &gear : gears)
    if (llvm::Error err = merger.add(std::move(gear)))
      return std::move(err);
  return merger.finish();
}

} // namespace geflow::driver
