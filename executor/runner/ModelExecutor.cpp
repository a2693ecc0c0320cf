//===- ModelExecutor.cpp - LoadedModel: load and prepare ------------------===//
//
// Loading an OM onto a device: its programs, streams and events, the
// contexts that share them, and what callers ask of the model. Executions
// are in ModelExecution.cpp.
//
//===----------------------------------------------------------------------===//

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"

#include <algorithm>
#include <map>

namespace geflow::exec {

namespace {

rt::Status fail(rt::StatusCode code, const std::string &msg) {
  return rt::makeStatus(code, msg);
}

} // namespace

rt::Status LoadedModel::load(rt::Device &device, const std::string &path,
                             std::unique_ptr<LoadedModel> *out,
                             const LoadOptions &options) {
  std::unique_ptr<om::LoadedOm> om;
  GEFLOW_RT_RETURN_IF_ERROR(om::loadOmFile(path, &om));
  return create(makeDeviceTarget(device), std::move(om), path, out, options);
}

rt::Status LoadedModel::create(std::shared_ptr<DeviceTarget> target,
                               std::unique_ptr<om::LoadedOm> om,
                               const std::string &sourceName,
                               std::unique_ptr<LoadedModel> *out,
                               const LoadOptions &options) {
  if (!target || !om || !out)
    return fail(rt::StatusCode::kInvalidArgument,
                "LoadedModel::create: null argument");
  // Its stages are compiled per execution, above the executor
  // (tools/driver/RuntimeShapesModel.h); the executor runs compiled programs.
  if (om->modelDef().gears().mode() == om::GearTable::RUNTIME_SHAPES)
    return fail(rt::StatusCode::kFailedPrecondition,
                sourceName + ": the model's shapes are resolved at run time "
                             "(RUNTIME_SHAPES); run it with geflow run, this "
                             "loader runs compiled programs only");
  std::unique_ptr<LoadedModel> m(new LoadedModel());
  m->target_ = std::move(target);
  m->om_ = std::move(om);
  m->name_ = m->om_->modelDef().name().empty() ? sourceName
                                               : m->om_->modelDef().name();
  m->skipTask_ = options.skipTask;
  m->placedWorkspace_ = static_cast<uint8_t *>(options.workspace);
  GEFLOW_RT_RETURN_IF_ERROR(m->prepare(options));
  *out = std::move(m);
  return rt::Status::ok();
}

std::vector<rt::StreamId> LoadedModel::streamIds() const {
  std::vector<rt::StreamId> ids;
  for (const rt::Stream *stream : streams_)
    ids.push_back(stream->id());
  return ids;
}

uint64_t LoadedModel::workspaceSize() const {
  return om_->memoryPlan().workspace_size();
}

bool LoadedModel::hasGears() const {
  return om_->modelDef().gears().gear_size() > 0;
}

std::string LoadedModel::gearLabel(size_t gear) const {
  const om::GearTable &table = om_->modelDef().gears();
  if (gear >= size_t(table.gear_size()))
    return "";
  return table.gear(int(gear)).label();
}

/// Every gear's input or output shapes, by gear.
static std::vector<Shapes>
shapesByGear(const std::vector<std::shared_ptr<const GearProgram>> &gears,
             const std::vector<TensorInfo> &(GearProgram::*tensors)() const) {
  std::vector<Shapes> shapes(gears.size());
  for (size_t g = 0; g < gears.size(); ++g)
    for (const TensorInfo &t : (gears[g].get()->*tensors)())
      shapes[g].push_back(t.shape);
  return shapes;
}

std::vector<Shapes> LoadedModel::gearInputShapes() const {
  return shapesByGear(gears_, &GearProgram::inputs);
}

std::vector<Shapes> LoadedModel::gearOutputShapes() const {
  return shapesByGear(gears_, &GearProgram::outputs);
}

int LoadedModel::findGear(const Shapes &inputShapes) const {
  // Called per execution: compare in place, without building every gear's
  // shapes.
  for (size_t g = 0; g < gears_.size(); ++g) {
    const std::vector<TensorInfo> &in = gears_[g]->inputs();
    if (in.size() != inputShapes.size())
      continue;
    bool same = true;
    for (size_t i = 0; i < in.size() && same; ++i)
      same = in[i].shape == inputShapes[i];
    if (same)
      return int(g);
  }
  return -1;
}

std::string LoadedModel::describeGears() const {
  std::string text;
  std::vector<Shapes> shapes = gearInputShapes();
  for (size_t g = 0; g < shapes.size(); ++g) {
    std::string label = gearLabel(g);
    text += (g ? ", " : "") +
            (label.empty() ? "gear " + std::to_string(g) : label) + " " +
            shapesText(shapes[g]);
  }
  return text;
}

/// Every gear's program, then the streams and events they share.
rt::Status LoadedModel::prepare(const LoadOptions &options) {
  KernelFactory factory = options.kernelFactory
                              ? options.kernelFactory
                              : KernelFactory(&kernels::createKernel);
  for (size_t g = 0; g < om_->gearCount(); ++g) {
    std::unique_ptr<GearProgram> program;
    GEFLOW_RT_RETURN_IF_ERROR(
        GearProgram::create(om_->gear(g), factory, name_, &program));
    gears_.push_back(std::move(program));
  }
  contextCount_ = std::make_shared<std::atomic<int>>(0);
  return createStreamsAndEvents(-1, name_);
}

rt::Status LoadedModel::createContext(int32_t priority,
                                      std::unique_ptr<LoadedModel> *out) const {
  if (!out)
    return fail(rt::StatusCode::kInvalidArgument,
                "LoadedModel::createContext: null argument");
  std::unique_ptr<LoadedModel> m(new LoadedModel());
  m->target_ = target_;
  m->om_ = om_;
  m->name_ = name_;
  m->gears_ = gears_;
  m->skipTask_ = skipTask_;
  m->contextCount_ = contextCount_;
  int number = contextCount_->fetch_add(1, std::memory_order_relaxed) + 1;
  GEFLOW_RT_RETURN_IF_ERROR(m->createStreamsAndEvents(
      priority, name_ + " context " + std::to_string(number)));
  *out = std::move(m);
  return rt::Status::ok();
}

/// Streams, events, and the events that join the caller's stream.
rt::Status LoadedModel::createStreamsAndEvents(int32_t priority,
                                               const std::string &label) {
  const om::ModelTaskDef &td = om_->taskDef();
  for (uint32_t s = 0; s < td.stream_num(); ++s) {
    rt::Stream *stream = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(target_->createStream(
        priority >= 0 ? priority : td.stream_priority(int(s)), &stream));
    streams_.push_back(stream);
    target_->nameStream(stream, label + " stream " + std::to_string(s));
    rt::Event *end = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(target_->createEvent(&end));
    endEvents_.push_back(end);
    if (placedWorkspace_) {
      GEFLOW_RT_RETURN_IF_ERROR(target_->createEvent(&end));
      placedEnds_.push_back(end);
    }
  }
  for (uint32_t e = 0; e < td.event_num(); ++e) {
    rt::Event *event = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(target_->createEvent(&event));
    events_.push_back(event);
  }
  return target_->createEvent(&startEvent_);
}

LoadedModel::~LoadedModel() {
  if (!target_)
    return;
  // destroyStream waits for the stream, so no kernel of ours is still queued
  // when the kernels and the mapping go away.
  for (rt::Stream *s : streams_)
    (void)target_->destroyStream(s);
  for (const SyncSlot &slot : allSlots_) {
    (void)target_->destroyStream(slot.stream);
    (void)target_->destroyEvent(slot.t0);
    for (rt::Event *e : slot.ends)
      (void)target_->destroyEvent(e);
  }
  for (rt::Event *e : events_)
    (void)target_->destroyEvent(e);
  for (rt::Event *e : endEvents_)
    (void)target_->destroyEvent(e);
  for (rt::Event *e : placedEnds_)
    (void)target_->destroyEvent(e);
  if (startEvent_)
    (void)target_->destroyEvent(startEvent_);
}

} // namespace geflow::exec
