//===- ModelExecutor.cpp - LoadedModel: load, bind, enqueue ---------------===//

#include "executor/runner/ModelExecutor.h"
#include "executor/model/OmFormat.h"
#include "runtime/Device.h"

#include <algorithm>
#include <map>

namespace geflow::exec {

namespace {

rt::Status fail(rt::StatusCode code, const std::string &msg) {
  return rt::makeStatus(code, msg);
}

/// "producer:k" -> (producer name, k). The loader has checked the form.
std::pair<std::string, int> splitRef(const std::string &ref) {
  size_t colon = ref.rfind(':');
  return {ref.substr(0, colon), std::stoi(ref.substr(colon + 1))};
}

rt::Engine toEngine(om::Engine e) {
  switch (e) {
  case om::AIC:
    return rt::Engine::kAic;
  case om::AIV:
    return rt::Engine::kAiv;
  case om::MIX:
    return rt::Engine::kMix;
  case om::DVPP:
    return rt::Engine::kDvpp;
  case om::AICPU:
  case om::HOST: // host kernels run where AICPU ones do in the simulation
  default:
    return rt::Engine::kAiCpu;
  }
}

TensorInfo infoOf(const std::string &name, const om::TensorDescriptor &d) {
  TensorInfo t;
  t.name = name;
  t.dtype = d.dtype();
  t.shape.assign(d.shape().begin(), d.shape().end());
  t.layout = d.layout();
  t.bytes = uint64_t(d.size());
  return t;
}

} // namespace

/// Where one kernel operand lives during an execution.
struct TensorBinding {
  enum Where : uint8_t { kAbsent, kWorkspace, kWeight } where = kAbsent;
  uint64_t offset = 0;
  const om::TensorDescriptor *desc = nullptr;
};

struct LoadedModel::KernelTask {
  const kernels::Kernel *kernel = nullptr; // null: not a KERNEL task
  rt::KernelLaunch launch;                 // everything but fn
  std::vector<TensorBinding> bindings;     // inputs, then outputs
  size_t numInputs = 0;
  size_t viewBase = 0; // first view in Execution::views
};

struct LoadedModel::Execution {
  uint8_t *workspace = nullptr;
  std::vector<kernels::TensorView> views;
  std::vector<rt::KernelFn> fns; // by task index; empty for non-kernel tasks
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

rt::Status LoadedModel::prepare(const LoadOptions &options) {
  const om::GraphDef &g = om_->graph();
  OpIndexByName byName;
  for (int i = 0; i < g.op_size(); ++i)
    byName[g.op(i).name()] = i;
  describeInputsAndOutputs(byName);
  GEFLOW_RT_RETURN_IF_ERROR(prepareKernels(options, byName));
  return createStreamsAndEvents();
}

/// Inputs and outputs as the caller sees them.
void LoadedModel::describeInputsAndOutputs(OpIndexByName &byName) {
  const om::GraphDef &g = om_->graph();
  for (const std::string &in : g.input())
    inputs_.push_back(infoOf(in, g.op(byName[in]).output_desc(0)));
  const om::OpDef *netOutput = nullptr;
  for (const om::OpDef &op : g.op())
    if (op.type() == om::kNetOutputType)
      netOutput = &op;
  std::vector<std::string> outputNames;
  if (netOutput) {
    auto it = netOutput->attr().find("output_names");
    if (it != netOutput->attr().end() &&
        it->second.value_case() == om::AttrDef::kList)
      outputNames.assign(it->second.list().s().begin(),
                         it->second.list().s().end());
  }
  for (int i = 0; i < g.output_size(); ++i) {
    auto [producer, k] = splitRef(g.output(i));
    std::string name = i < int(outputNames.size()) ? outputNames[i]
                       : k == 0                    ? producer
                                                   : g.output(i);
    outputs_.push_back(infoOf(name, g.op(byName[producer]).output_desc(k)));
  }
}

/// Kernels, once per op, in task order, with where each operand lives.
rt::Status LoadedModel::prepareKernels(const LoadOptions &options,
                                       OpIndexByName &byName) {
  const om::GraphDef &g = om_->graph();
  const om::ModelTaskDef &td = om_->taskDef();
  // Where every op output lives.
  std::map<std::pair<int, int>, const om::TensorPlacement *> placed;
  for (const om::TensorPlacement &p : om_->memoryPlan().placement())
    placed[{int(p.op_index()), int(p.output_index())}] = &p;
  auto bindingOf = [&](int op, int k, const om::TensorDescriptor *desc) {
    TensorBinding b;
    b.desc = desc;
    const om::TensorPlacement *p = placed.at({op, k});
    b.where = p->location().kind() == om::MemRef::WEIGHT
                  ? TensorBinding::kWeight
                  : TensorBinding::kWorkspace;
    b.offset = uint64_t(p->location().offset());
    return b;
  };

  KernelFactory factory = options.kernelFactory
                              ? options.kernelFactory
                              : KernelFactory(&kernels::createKernel);
  kernels_.resize(g.op_size());
  kernelTasks_.resize(td.task_size());
  for (int i = 0; i < td.task_size(); ++i) {
    const om::TaskDef &t = td.task(i);
    if (t.type() != om::KERNEL)
      continue;
    const om::OpDef &op = g.op(t.op_index());
    KernelTask &kt = kernelTasks_[i];
    std::vector<const void *> constants;
    int j = 0;
    for (const std::string &in : op.input()) {
      if (!in.empty() && in[0] == '^')
        continue;
      const om::TensorDescriptor *desc = &op.input_desc(j++);
      if (in.empty()) {
        TensorBinding absent;
        absent.desc = desc;
        kt.bindings.push_back(absent);
        constants.push_back(nullptr);
        continue;
      }
      auto [producer, k] = splitRef(in);
      int p = byName[producer];
      kt.bindings.push_back(bindingOf(p, k, desc));
      const om::OpDef &pop = g.op(p);
      const void *c = nullptr;
      if (pop.type() == om::kConstType)
        c = om_->weights() + pop.attr().at("weight_offset").i();
      constants.push_back(c);
    }
    kt.numInputs = kt.bindings.size();
    for (int k = 0; k < op.output_desc_size(); ++k)
      kt.bindings.push_back(
          bindingOf(int(t.op_index()), k, &op.output_desc(k)));
    if (!kernels_[t.op_index()]) {
      kernels::KernelSpec spec;
      spec.op = &op;
      spec.constantInputs = std::move(constants);
      rt::Status st = factory(spec, &kernels_[t.op_index()]);
      if (!st.isOk())
        return fail(st.code(), name_ + ": " + st.message());
      if (!kernels_[t.op_index()])
        return fail(rt::StatusCode::kInternal,
                    name_ + ": node '" + op.name() + "' (" + op.type() +
                        "): kernel factory returned no kernel");
    }
    kt.kernel = kernels_[t.op_index()].get();
    kt.launch.name = op.name();
    kt.launch.opType = op.type();
    kt.launch.engine = toEngine(t.engine());
    kt.launch.blockDim = t.block_dim();
    kt.launch.cost = {t.flops(), t.bytes()};
    kt.launch.aicoreNum = t.aicore_num();
    kt.launch.vectorcoreNum = t.vectorcore_num();
    kt.viewBase = viewCount_;
    viewCount_ += kt.bindings.size();
  }
  return rt::Status::ok();
}

/// Streams, events, and the events that join the caller's stream.
rt::Status LoadedModel::createStreamsAndEvents() {
  const om::ModelTaskDef &td = om_->taskDef();
  for (uint32_t s = 0; s < td.stream_num(); ++s) {
    rt::Stream *stream = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(
        target_->createStream(td.stream_priority(int(s)), &stream));
    streams_.push_back(stream);
    target_->nameStream(stream, name_ + " stream " + std::to_string(s));
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

rt::Status LoadedModel::checkBuffers(const std::vector<Buffer> &inputs,
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
  GEFLOW_RT_RETURN_IF_ERROR(check(inputs, inputs_, "input"));
  return check(outputs, outputs_, "output");
}

rt::Status LoadedModel::enqueue(const std::vector<Buffer> &inputs,
                                const std::vector<Buffer> &outputs,
                                rt::Stream *caller, bool relayErrors,
                                rt::Event *t0,
                                const std::vector<rt::Event *> *ends,
                                std::shared_ptr<Execution> *out) {
  GEFLOW_RT_RETURN_IF_ERROR(checkBuffers(inputs, outputs));
  const om::ModelTaskDef &td = om_->taskDef();
  auto exec = std::make_shared<Execution>();
  exec->views.resize(viewCount_);
  exec->fns.resize(td.task_size());

  std::lock_guard<std::mutex> lock(enqueueMu_);
  const uint64_t wsSize = workspaceSize();
  if (wsSize > 0) {
    void *ws = nullptr;
    rt::Status st = target_->mallocAsync(wsSize, caller, &ws);
    if (!st.isOk())
      return fail(st.code(), name_ + ": workspace of " +
                                 std::to_string(wsSize) +
                                 " bytes: " + st.message());
    exec->workspace = static_cast<uint8_t *>(ws);
  }
  // Bind this execution's views.
  uint8_t *weights = const_cast<uint8_t *>(om_->weights());
  for (const KernelTask &kt : kernelTasks_) {
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
      const KernelTask &kt = kernelTasks_[i];
      const kernels::TensorView *in = &e->views[kt.viewBase];
      const kernels::TensorView *outViews = in + kt.numInputs;
      const kernels::Kernel *kernel = kt.kernel;
      // A kernel's failure is kept with its execution and reported by it,
      // not left sticky on a model stream that later executions share.
      e->fns[i] = [e, kernel, in, outViews](uint32_t idx, uint32_t dim) {
        try {
          rt::Status st = kernel->run(in, outViews, idx, dim);
          if (!st.isOk())
            e->recordError(st);
        } catch (const std::exception &ex) {
          e->recordError(
              rt::makeStatus(rt::StatusCode::kKernelFailed,
                             std::string("kernel threw: ") + ex.what()));
        }
        return rt::Status::ok();
      };
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
    e->relay = [e](uint32_t, uint32_t) { return e->error(); };
    rt::KernelLaunch end;
    end.name = name_ + "/end";
    end.opType = "ModelEnd";
    end.engine = target_->hasAiCpu() ? rt::Engine::kAiCpu : rt::Engine::kAic;
    keep(target_->launchKernel(caller, end, &e->relay, nullptr));
  }
  if (exec->workspace)
    keep(target_->freeAsync(exec->workspace, caller));
  // The execution (views, closures) lives until the caller's stream is here.
  keep(target_->launchCallback(caller,
                               [hold = exec]() mutable { hold.reset(); }));
  if (!first.isOk())
    return fail(first.code(), name_ + ": " + first.message());
  if (out)
    *out = std::move(exec);
  return rt::Status::ok();
}

rt::Status LoadedModel::executeAsync(const std::vector<Buffer> &inputs,
                                     const std::vector<Buffer> &outputs,
                                     rt::Stream *stream) {
  return enqueue(inputs, outputs, stream, /*relayErrors=*/true, nullptr,
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
                                ExecutionStats *stats) {
  SyncSlot slot;
  GEFLOW_RT_RETURN_IF_ERROR(acquireSlot(&slot));
  std::shared_ptr<Execution> exec;
  rt::Status st = enqueue(inputs, outputs, slot.stream, /*relayErrors=*/false,
                          slot.t0, &slot.ends, &exec);
  if (st.isOk())
    st = target_->synchronizeStream(slot.stream);
  else
    (void)target_->synchronizeStream(slot.stream);
  if (st.isOk() && exec)
    st = exec->error();
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
