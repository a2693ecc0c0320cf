//===- ModelExecutor.cpp - LoadedModel: load, bind, enqueue ---------------===//

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

struct LoadedModel::Execution {
  size_t gear = 0;
  uint8_t *workspace = nullptr; // this execution's, from the pool
  bool bound = false;           // the views point into boundTo
  uint8_t *boundTo = nullptr;
  std::vector<kernels::TensorView> views;
  // By task index; empty for non-kernel tasks. They point at views, which
  // never move, so they are built once.
  std::vector<rt::KernelFn> fns;
  rt::KernelFn relay;
  std::mutex mu; // guards firstError
  rt::Status firstError;

  void recordError(const rt::Status &st) {
    std::lock_guard<std::mutex> lock(mu);
    if (firstError.isOk())
      firstError = rt::makeStatus(rt::StatusCode::kKernelFailed, st.message());
  }
  rt::Status error() {
    std::lock_guard<std::mutex> lock(mu);
    return firstError;
  }
};

/// Executions that ran to the end, kept for the next one of their gear.
/// Any host thread: callbacks return asynchronous executions.
struct LoadedModel::ExecutionCache {
  std::mutex mu; // guards idle
  std::vector<std::shared_ptr<Execution>> idle;

  std::shared_ptr<Execution> take(size_t gear) {
    std::lock_guard<std::mutex> lock(mu);
    for (size_t i = idle.size(); i-- > 0;)
      if (idle[i]->gear == gear) {
        std::shared_ptr<Execution> e = std::move(idle[i]);
        idle.erase(idle.begin() + i);
        return e;
      }
    return nullptr;
  }
  void put(std::shared_ptr<Execution> e) {
    // A burst of asynchronous executions leaves as many behind; keep what a
    // few concurrent callers need.
    constexpr size_t kMaxIdle = 8;
    std::lock_guard<std::mutex> lock(mu);
    if (idle.size() < kMaxIdle)
      idle.push_back(std::move(e));
  }
};

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
  m->executions_ = std::make_shared<ExecutionCache>();
  m->target_ = std::move(target);
  m->om_ = std::move(om);
  m->name_ = m->om_->modelDef().name().empty() ? sourceName
                                               : m->om_->modelDef().name();
  m->skipTask_ = options.skipTask;
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
  m->executions_ = std::make_shared<ExecutionCache>();
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
  if (startEvent_)
    (void)target_->destroyEvent(startEvent_);
}

rt::Status LoadedModel::checkBuffers(const GearProgram &program,
                                     const std::vector<Buffer> &inputs,
                                     const std::vector<Buffer> &outputs) const {
  auto check = [&](const std::vector<Buffer> &bufs,
                   const std::vector<TensorInfo> &infos, const char *what) {
    if (bufs.size() != infos.size())
      return fail(rt::StatusCode::kInvalidArgument,
                  name_ + ": " + std::to_string(bufs.size()) + " " + what +
                      " buffers given, the model has " +
                      std::to_string(infos.size()));
    for (size_t i = 0; i < bufs.size(); ++i) {
      if (infos[i].bytes == 0)
        continue;
      if (!bufs[i].data || bufs[i].size < infos[i].bytes)
        return fail(rt::StatusCode::kInvalidArgument,
                    name_ + ": " + what + " " + std::to_string(i) + " '" +
                        infos[i].name + "': buffer has " +
                        (bufs[i].data ? std::to_string(bufs[i].size) + " bytes"
                                      : std::string("no data")) +
                        ", needs " + std::to_string(infos[i].bytes));
    }
    return rt::Status::ok();
  };
  GEFLOW_RT_RETURN_IF_ERROR(check(inputs, program.inputs(), "input"));
  return check(outputs, program.outputs(), "output");
}

rt::Status LoadedModel::enqueue(size_t gear, const std::vector<Buffer> &inputs,
                                const std::vector<Buffer> &outputs,
                                rt::Stream *caller, bool relayErrors,
                                rt::Event *t0,
                                const std::vector<rt::Event *> *ends,
                                std::shared_ptr<Execution> *out) {
  if (gear >= gears_.size())
    return fail(rt::StatusCode::kInvalidArgument,
                name_ + ": gear " + std::to_string(gear) +
                    " out of range: the model has " +
                    std::to_string(gears_.size()) + " (" + describeGears() +
                    ")");
  const GearProgram &program = *gears_[gear];
  GEFLOW_RT_RETURN_IF_ERROR(checkBuffers(program, inputs, outputs));
  const om::ModelTaskDef &td = program.taskDef();
  const std::vector<KernelTask> &kernelTasks = program.kernelTasks();
  std::shared_ptr<Execution> exec = takeExecution(gear);

  std::lock_guard<std::mutex> lock(enqueueMu_);
  const uint64_t wsSize = program.workspaceSize();
  exec->workspace = nullptr;
  if (wsSize > 0) {
    void *ws = nullptr;
    rt::Status st = target_->mallocAsync(wsSize, caller, &ws);
    if (!st.isOk())
      return fail(st.code(), name_ + ": workspace of " +
                                 std::to_string(wsSize) +
                                 " bytes: " + st.message());
    exec->workspace = static_cast<uint8_t *>(ws);
  }
  // The pool mostly hands the same block back: rebind only when it did not.
  uint8_t *weights = const_cast<uint8_t *>(om_->weights());
  if (!exec->bound || exec->boundTo != exec->workspace) {
    exec->bound = true;
    exec->boundTo = exec->workspace;
    for (const KernelTask &kt : kernelTasks) {
      for (size_t b = 0; b < kt.bindings.size(); ++b) {
        const TensorBinding &tb = kt.bindings[b];
        kernels::TensorView &v = exec->views[kt.viewBase + b];
        v.desc = tb.desc;
        v.data = tb.where == TensorBinding::kWorkspace
                     ? exec->workspace + tb.offset
                 : tb.where == TensorBinding::kWeight ? weights + tb.offset
                                                      : nullptr;
      }
    }
  }

  // Everything from here on keeps the streams balanced: after a failure the
  // joins at the end are still enqueued, so no stream is left waiting.
  rt::Status first;
  auto keep = [&](rt::Status st) {
    if (first.isOk() && !st.isOk())
      first = st;
  };
  if (t0)
    keep(target_->recordEvent(t0, caller));
  keep(target_->recordEvent(startEvent_, caller));
  for (rt::Stream *s : streams_)
    keep(target_->streamWaitEvent(s, startEvent_));

  Execution *e = exec.get();
  const bool sanitize = target_->sanitizing();
  std::vector<rt::MemoryAccess> accesses; // one kernel's, reused
  for (int i = 0; i < td.task_size() && first.isOk(); ++i) {
    if (skipTask_ && skipTask_(i))
      continue;
    const om::TaskDef &t = td.task(i);
    rt::Stream *s = streams_[t.stream_id()];
    switch (t.type()) {
    case om::KERNEL: {
      const KernelTask &kt = kernelTasks[i];
      const kernels::TensorView *in = &e->views[kt.viewBase];
      if (sanitize) {
        // Inputs read, outputs written, where this execution put them;
        // constants live in WEIGHTS, which nothing writes.
        accesses.clear();
        for (size_t b = 0; b < kt.bindings.size(); ++b)
          if (kt.bindings[b].where == TensorBinding::kWorkspace)
            accesses.push_back(
                {in[b].data,
                 uint64_t(std::max<int64_t>(0, kt.bindings[b].desc->size())),
                 b < kt.numInputs ? rt::AccessMode::kRead
                                  : rt::AccessMode::kWrite});
      }
      keep(target_->launchKernel(s, kt.launch, &e->fns[i],
                                 sanitize ? &accesses : nullptr));
      break;
    }
    case om::EVENT_RECORD:
      keep(target_->recordEvent(events_[t.event_id()], s));
      break;
    case om::EVENT_WAIT:
      keep(target_->streamWaitEvent(s, events_[t.event_id()]));
      break;
    case om::MEMCPY_ASYNC: {
      auto addr = [&](const om::MemRef &m) -> uint8_t * {
        switch (m.kind()) {
        case om::MemRef::WORKSPACE:
          return e->workspace + m.offset();
        case om::MemRef::WEIGHT:
          return weights + m.offset();
        case om::MemRef::INPUT:
          return static_cast<uint8_t *>(inputs[m.index()].data) + m.offset();
        case om::MemRef::OUTPUT:
          return static_cast<uint8_t *>(outputs[m.index()].data) + m.offset();
        default:
          return nullptr;
        }
      };
      if (t.size() > 0)
        keep(target_->memcpyAsync(s, addr(t.dst()), t.size(), addr(t.src()),
                                  t.size()));
      break;
    }
    default:
      break;
    }
  }

  const std::vector<rt::Event *> &endEvents = ends ? *ends : endEvents_;
  for (size_t i = 0; i < streams_.size(); ++i) {
    keep(target_->recordEvent(endEvents[i], streams_[i]));
    keep(target_->streamWaitEvent(caller, endEvents[i]));
  }
  if (relayErrors) {
    // GE ends a model with a task on the caller's stream; ours turns a kernel
    // failure of this execution into the caller's stream failing.
    rt::KernelLaunch end;
    end.name = name_ + "/end";
    end.opType = "ModelEnd";
    end.engine = target_->hasAiCpu() ? rt::Engine::kAiCpu : rt::Engine::kAic;
    keep(target_->launchKernel(caller, end, &e->relay, nullptr));
  }
  if (exec->workspace)
    keep(target_->freeAsync(exec->workspace, caller));
  // The execution (views, closures) lives until the caller's stream is here.
  // An asynchronous one then goes back to the cache; execute() returns its
  // own once it has read the execution's error.
  if (relayErrors)
    keep(target_->launchCallback(caller,
                                 [cache = executions_, hold = exec]() mutable {
                                   cache->put(std::move(hold));
                                   cache.reset();
                                 }));
  else
    keep(target_->launchCallback(caller,
                                 [hold = exec]() mutable { hold.reset(); }));
  if (!first.isOk())
    return fail(first.code(), name_ + ": " + first.message());
  if (out)
    *out = std::move(exec);
  return rt::Status::ok();
}

std::shared_ptr<LoadedModel::Execution>
LoadedModel::takeExecution(size_t gear) {
  std::shared_ptr<Execution> e = executions_->take(gear);
  if (e) {
    e->firstError = rt::Status::ok(); // no task of it is queued any more
    return e;
  }
  const GearProgram &program = *gears_[gear];
  const std::vector<KernelTask> &kernelTasks = program.kernelTasks();
  e = std::make_shared<Execution>();
  e->gear = gear;
  e->views.resize(program.viewCount());
  e->fns.resize(kernelTasks.size());
  Execution *raw = e.get();
  for (size_t i = 0; i < kernelTasks.size(); ++i) {
    const KernelTask &kt = kernelTasks[i];
    if (!kt.kernel)
      continue;
    const kernels::TensorView *in = &raw->views[kt.viewBase];
    const kernels::TensorView *outViews = in + kt.numInputs;
    const kernels::Kernel *kernel = kt.kernel;
    // A kernel's failure is kept with its execution and reported by it,
    // not left sticky on a model stream that later executions share.
    raw->fns[i] = [raw, kernel, in, outViews](uint32_t idx, uint32_t dim) {
      try {
        rt::Status st = kernel->run(in, outViews, idx, dim);
        if (!st.isOk())
          raw->recordError(st);
      } catch (const std::exception &ex) {
        raw->recordError(
            rt::makeStatus(rt::StatusCode::kKernelFailed,
                           std::string("kernel threw: ") + ex.what()));
      }
      return rt::Status::ok();
    };
  }
  raw->relay = [raw](uint32_t, uint32_t) { return raw->error(); };
  return e;
}

rt::Status LoadedModel::executeAsync(const std::vector<Buffer> &inputs,
                                     const std::vector<Buffer> &outputs,
                                     rt::Stream *stream, size_t gear) {
  return enqueue(gear, inputs, outputs, stream, /*relayErrors=*/true, nullptr,
                 nullptr, nullptr);
}

rt::Status LoadedModel::acquireSlot(SyncSlot *out) {
  {
    std::lock_guard<std::mutex> lock(slotMu_);
    if (!freeSlots_.empty()) {
      *out = freeSlots_.back();
      freeSlots_.pop_back();
      return rt::Status::ok();
    }
  }
  SyncSlot slot;
  GEFLOW_RT_RETURN_IF_ERROR(target_->createStream(0, &slot.stream));
  target_->nameStream(slot.stream, name_ + " caller stream");
  GEFLOW_RT_RETURN_IF_ERROR(target_->createEvent(&slot.t0));
  for (size_t i = 0; i < streams_.size(); ++i) {
    rt::Event *end = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(target_->createEvent(&end));
    slot.ends.push_back(end);
  }
  std::lock_guard<std::mutex> lock(slotMu_);
  allSlots_.push_back(slot);
  *out = slot;
  return rt::Status::ok();
}

void LoadedModel::releaseSlot(const SyncSlot &slot) {
  std::lock_guard<std::mutex> lock(slotMu_);
  freeSlots_.push_back(slot);
}

rt::Status LoadedModel::execute(const std::vector<Buffer> &inputs,
                                const std::vector<Buffer> &outputs,
                                ExecutionStats *stats, size_t gear) {
  SyncSlot slot;
  GEFLOW_RT_RETURN_IF_ERROR(acquireSlot(&slot));
  std::shared_ptr<Execution> exec;
  rt::Status st = enqueue(gear, inputs, outputs, slot.stream,
                          /*relayErrors=*/false, slot.t0, &slot.ends, &exec);
  if (st.isOk())
    st = target_->synchronizeStream(slot.stream);
  else
    (void)target_->synchronizeStream(slot.stream);
  if (st.isOk() && exec) {
    st = exec->error();
    // Every task of it has run (the stream is synchronized): the next
    // execution may reuse it. After a failed synchronize some may not have.
    executions_->put(std::move(exec));
  }
  if (st.isOk() && stats) {
    // The last model stream to finish ends the execution; the caller's
    // joins after it are not the model's time.
    float longest = 0;
    for (rt::Event *end : slot.ends) {
      float ms = 0;
      st = target_->eventElapsedMs(slot.t0, end, &ms);
      if (!st.isOk())
        break;
      longest = std::max(longest, ms);
    }
    stats->deviceTimeNs = rt::VirtualNs(double(longest) * 1e6 + 0.5);
  }
  releaseSlot(slot);
  if (!st.isOk() && st.message().rfind(name_ + ": ", 0) != 0)
    return fail(st.code(), name_ + ": " + st.message());
  return st;
}

} // namespace geflow::exec
