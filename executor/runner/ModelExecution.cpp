//===- ModelExecution.cpp - LoadedModel: bind, enqueue, execute -----------===//
//
// One execution of a loaded model: its workspace and views, its tasks on the
// model's streams between the joins with the caller's stream, and the cache
// of executions kept for the next one of the same gear.
//
//===----------------------------------------------------------------------===//

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"

#include <algorithm>
#include <mutex>

namespace geflow::exec {

namespace {

rt::Status fail(rt::StatusCode code, const std::string &msg) {
  return rt::makeStatus(code, msg);
}

/// The first failure of a run of steps that must all be enqueued anyway.
struct FirstError {
  rt::Status status;
  void keep(const rt::Status &st) {
    if (status.isOk() && !st.isOk())
      status = st;
  }
  bool isOk() const { return status.isOk(); }
};

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

LoadedModel::LoadedModel() : executions_(std::make_shared<ExecutionCache>()) {}

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

rt::Status LoadedModel::enqueue(const EnqueueRequest &request,
                                std::shared_ptr<Execution> *out) {
  GEFLOW_RT_RETURN_IF_ERROR(checkGear(request.gear));
  const GearProgram &program = *gears_[request.gear];
  GEFLOW_RT_RETURN_IF_ERROR(
      checkBuffers(program, request.inputs, request.outputs));
  std::shared_ptr<Execution> exec = takeExecution(request.gear);

  std::lock_guard<std::mutex> lock(enqueueMu_);
  GEFLOW_RT_RETURN_IF_ERROR(allocateWorkspace(program, request.caller, *exec));
  bindViews(program, *exec);
  // Everything from here on keeps the streams balanced: after a failure the
  // joins at the end are still enqueued, so no stream is left waiting.
  FirstError first;
  first.keep(startModelStreams(request));
  if (first.isOk())
    first.keep(enqueueTasks(program, request, *exec));
  first.keep(joinCallerStream(request));
  first.keep(finishOnCallerStream(request, exec));
  if (!first.isOk())
    return fail(first.status.code(), name_ + ": " + first.status.message());
  if (out)
    *out = std::move(exec);
  return rt::Status::ok();
}

rt::Status LoadedModel::checkGear(size_t gear) const {
  if (gear < gears_.size())
    return rt::Status::ok();
  return fail(rt::StatusCode::kInvalidArgument,
              name_ + ": gear " + std::to_string(gear) +
                  " out of range: the model has " +
                  std::to_string(gears_.size()) + " (" + describeGears() + ")");
}

rt::Status LoadedModel::allocateWorkspace(const GearProgram &program,
                                          rt::Stream *caller, Execution &exec) {
  const uint64_t wsSize = program.workspaceSize();
  exec.workspace = nullptr;
  if (wsSize == 0)
    return rt::Status::ok();
  if (placedWorkspace_) {
    exec.workspace = placedWorkspace_;
    return rt::Status::ok();
  }
  void *ws = nullptr;
  rt::Status st = target_->mallocAsync(wsSize, caller, &ws);
  if (!st.isOk())
    return fail(st.code(), name_ + ": workspace of " + std::to_string(wsSize) +
                               " bytes: " + st.message());
  exec.workspace = static_cast<uint8_t *>(ws);
  return rt::Status::ok();
}

void LoadedModel::bindViews(const GearProgram &program, Execution &exec) {
  // The pool mostly hands the same block back: rebind only when it did not.
  if (exec.bound && exec.boundTo == exec.workspace)
    return;
  uint8_t *weights = const_cast<uint8_t *>(om_->weights());
  exec.bound = true;
  exec.boundTo = exec.workspace;
  for (const KernelTask &kt : program.kernelTasks()) {
    for (size_t b = 0; b < kt.bindings.size(); ++b) {
      const TensorBinding &tb = kt.bindings[b];
      kernels::TensorView &v = exec.views[kt.viewBase + b];
      v.desc = tb.desc;
      v.data = tb.where == TensorBinding::kWorkspace
                   ? exec.workspace + tb.offset
               : tb.where == TensorBinding::kWeight ? weights + tb.offset
                                                    : nullptr;
    }
  }
}

rt::Status LoadedModel::startModelStreams(const EnqueueRequest &request) {
  FirstError first;
  if (request.t0)
    first.keep(target_->recordEvent(request.t0, request.caller));
  // One placed workspace: the previous execution must have ended on every
  // model stream before this one starts on any.
  if (placedEndsRecorded_)
    for (rt::Event *end : placedEnds_)
      first.keep(target_->streamWaitEvent(request.caller, end));
  first.keep(target_->recordEvent(startEvent_, request.caller));
  for (rt::Stream *s : streams_)
    first.keep(target_->streamWaitEvent(s, startEvent_));
  return first.status;
}

rt::Status LoadedModel::enqueueTasks(const GearProgram &program,
                                     const EnqueueRequest &request,
                                     Execution &exec) {
  const om::ModelTaskDef &td = program.taskDef();
  const bool sanitize = target_->sanitizing();
  std::vector<rt::MemoryAccess> accesses; // one kernel's, reused
  for (int i = 0; i < td.task_size(); ++i) {
    if (skipTask_ && skipTask_(i))
      continue;
    const om::TaskDef &t = td.task(i);
    rt::Stream *s = streams_[t.stream_id()];
    rt::Status st;
    switch (t.type()) {
    case om::KERNEL:
      st = launchKernelTask(s, program.kernelTasks()[i], i, exec,
                            sanitize ? &accesses : nullptr);
      break;
    case om::EVENT_RECORD:
      st = target_->recordEvent(events_[t.event_id()], s);
      break;
    case om::EVENT_WAIT:
      st = target_->streamWaitEvent(s, events_[t.event_id()]);
      break;
    case om::MEMCPY_ASYNC:
      st = enqueueCopy(s, t, request, exec);
      break;
    default:
      break;
    }
    if (!st.isOk())
      return st;
  }
  return rt::Status::ok();
}

rt::Status
LoadedModel::launchKernelTask(rt::Stream *stream, const KernelTask &task,
                              int taskIndex, Execution &exec,
                              std::vector<rt::MemoryAccess> *accesses) {
  if (accesses) {
    // Inputs read, outputs written, where this execution put them;
    // constants live in WEIGHTS, which nothing writes.
    const kernels::TensorView *in = &exec.views[task.viewBase];
    accesses->clear();
    for (size_t b = 0; b < task.bindings.size(); ++b)
      if (task.bindings[b].where == TensorBinding::kWorkspace)
        accesses->push_back(
            {in[b].data,
             uint64_t(std::max<int64_t>(0, task.bindings[b].desc->size())),
             b < task.numInputs ? rt::AccessMode::kRead
                                : rt::AccessMode::kWrite});
  }
  return target_->launchKernel(stream, task.launch, &exec.fns[taskIndex],
                               accesses);
}

rt::Status LoadedModel::enqueueCopy(rt::Stream *stream, const om::TaskDef &task,
                                    const EnqueueRequest &request,
                                    Execution &exec) {
  if (task.size() == 0)
    return rt::Status::ok();
  uint8_t *weights = const_cast<uint8_t *>(om_->weights());
  auto addr = [&](const om::MemRef &m) -> uint8_t * {
    switch (m.kind()) {
    case om::MemRef::WORKSPACE:
      return exec.workspace + m.offset();
    case om::MemRef::WEIGHT:
      return weights + m.offset();
    case om::MemRef::INPUT:
      return static_cast<uint8_t *>(request.inputs[m.index()].data) +
             m.offset();
    case om::MemRef::OUTPUT:
      return static_cast<uint8_t *>(request.outputs[m.index()].data) +
             m.offset();
    default:
      return nullptr;
    }
  };
  return target_->memcpyAsync(stream, addr(task.dst()), task.size(),
                              addr(task.src()), task.size());
}

rt::Status LoadedModel::joinCallerStream(const EnqueueRequest &request) {
  FirstError first;
  const std::vector<rt::Event *> &endEvents =
      request.ends ? *request.ends : endEvents_;
  for (size_t i = 0; i < streams_.size(); ++i) {
    first.keep(target_->recordEvent(endEvents[i], streams_[i]));
    first.keep(target_->streamWaitEvent(request.caller, endEvents[i]));
  }
  for (size_t i = 0; i < placedEnds_.size(); ++i)
    first.keep(target_->recordEvent(placedEnds_[i], streams_[i]));
  placedEndsRecorded_ = !placedEnds_.empty();
  return first.status;
}

rt::Status
LoadedModel::finishOnCallerStream(const EnqueueRequest &request,
                                  const std::shared_ptr<Execution> &exec) {
  FirstError first;
  rt::Stream *caller = request.caller;
  if (request.relayErrors) {
    // GE ends a model with a task on the caller's stream; ours turns a kernel
    // failure of this execution into the caller's stream failing.
    rt::KernelLaunch end;
    end.name = name_ + "/end";
    end.opType = "ModelEnd";
    end.engine = target_->hasAiCpu() ? rt::Engine::kAiCpu : rt::Engine::kAic;
    first.keep(target_->launchKernel(caller, end, &exec->relay, nullptr));
  }
  if (exec->workspace && !placedWorkspace_)
    first.keep(target_->freeAsync(exec->workspace, caller));
  // The execution (views, closures) lives until the caller's stream is here.
  // An asynchronous one then goes back to the cache; execute() returns its
  // own once it has read the execution's error.
  if (request.relayErrors)
    first.keep(target_->launchHostFunc(
        caller, [cache = executions_, hold = exec]() mutable {
          cache->put(std::move(hold));
          cache.reset();
        }));
  else
    first.keep(target_->launchHostFunc(
        caller, [hold = exec]() mutable { hold.reset(); }));
  return first.status;
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
  EnqueueRequest request{gear, inputs, outputs, stream};
  request.relayErrors = true;
  return enqueue(request, nullptr);
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
  EnqueueRequest request{gear, inputs, outputs, slot.stream};
  request.t0 = slot.t0;
  request.ends = &slot.ends;
  rt::Status st = enqueue(request, &exec);
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
