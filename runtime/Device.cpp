//===- Device.cpp - Streams, events, enqueue and synchronize --------------===//
#include "runtime/Device.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <thread>

namespace geflow::rt {
namespace {

// How long a callback may wait for a report thread that serves nobody
// before a synchronize calls it a deadlock.
constexpr uint32_t kReportThreadIdleMs = 500;

bool envFlag(const char *name) {
  const char *v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

} // namespace

Status Device::create(const DeviceOptions &options,
                      std::unique_ptr<Device> *out) {
  if (!out)
    return makeStatus(StatusCode::kInvalidArgument, "create device: null out");
  SocSpec spec;
  if (options.spec) {
    spec = *options.spec;
    GEFLOW_RT_RETURN_IF_ERROR(validateSocSpec(spec));
  } else {
    GEFLOW_RT_RETURN_IF_ERROR(loadSocSpec(options.soc, spec));
  }
  out->reset(new Device(CostModel(spec), options));
  return Status::ok();
}

Device::Device(const CostModel &cost, const DeviceOptions &options)
    : cost_(cost), options_(options), pool_(options.memoryLimitBytes),
      workers_(options.workerThreads >= 0
                   ? static_cast<unsigned>(options.workerThreads)
                   : std::max(1u, std::thread::hardware_concurrency())),
      scheduler_(cost_, workers_,
                 [this](StreamId s) { return reportQueueFor(s); }) {
  scheduler_.setTraceEnabled(options.trace || envFlag("GEFLOW_RUNTIME_TRACE") ||
                             aclRuntimeTraceEnabled());
  if (options.sanitize || envFlag("GEFLOW_SANITIZE"))
    sanitizer_ = std::make_unique<StreamSanitizer>();
  pool_.setOracle([this](StreamId consumer, StreamId producer, uint64_t seq) {
    return orderedAfter(consumer, producer, seq);
  });
  defaultStream_ = newStream(0);
}

Device::~Device() {
  // Let queued work finish so no worker still runs a kernel of ours; a
  // deadlocked remainder is dropped.
  {
    std::unique_lock<std::mutex> lock(simMu_);
    std::vector<Stream *> streams = liveStreams();
    auto drained = [&] {
      for (Stream *s : streams)
        if (s->completed() < s->enqueued())
          return false;
      return true;
    };
    // A deadlocked remainder, or a callback no thread will run, is dropped:
    // callbacks own their functions, so nothing of ours dangles.
    (void)runPastCallbacks(lock, drained, /*waitForReportThreads=*/true);
  }
  if (envFlag("GEFLOW_RUNTIME_TRACE")) {
    const char *path = std::getenv("GEFLOW_RUNTIME_TRACE_FILE");
    (void)writeChromeTrace(scheduler_.records(),
                           path && *path ? path : "geflow-runtime-trace.json");
  }
  std::lock_guard<std::mutex> lock(registryMu_);
  for (void *p : hostAllocs_)
    std::free(p);
}

Stream *Device::newStream(int32_t priority) {
  std::lock_guard<std::mutex> lock(registryMu_);
  auto id = static_cast<StreamId>(streams_.size());
  streams_.push_back(std::make_unique<Stream>(id, priority));
  return streams_.back().get();
}

std::vector<Stream *> Device::liveStreams() {
  std::lock_guard<std::mutex> lock(registryMu_);
  std::vector<Stream *> out;
  out.reserve(streams_.size());
  for (auto &s : streams_)
    if (!s->destroyed_)
      out.push_back(s.get());
  return out;
}

uint64_t Device::enqueue(Stream *s, Task &&t,
                         const std::vector<MemoryAccess> *accesses) {
  if (!sanitizer_)
    return s->push(std::move(t));
  // Every push happens under the sanitizer's lock while it is on, so the seq
  // it checks the task as is the seq the stream gives it.
  std::unique_lock<std::mutex> lock = sanitizer_->lock();
  sanitizer_->onTask(s->id(), s->enqueued() + 1, t, accesses);
  return s->push(std::move(t));
}

std::unique_lock<std::mutex> Device::sanitizerLock() {
  return sanitizer_ ? sanitizer_->lock() : std::unique_lock<std::mutex>();
}

uint64_t Device::streamTarget(Stream *s, sanitizer::VectorClock *point) {
  std::unique_lock<std::mutex> noEnqueues = sanitizerLock();
  if (sanitizer_)
    *point = sanitizer_->streamPoint(s->id());
  return s->enqueued();
}

uint64_t Device::eventTarget(Event *event, sanitizer::VectorClock *point) {
  std::unique_lock<std::mutex> noEnqueues = sanitizerLock();
  if (sanitizer_)
    *point = sanitizer_->eventPoint(event->id());
  return event->recordsEnqueued();
}

Status Device::sanitizerReached(const sanitizer::VectorClock &point) {
  if (!sanitizer_)
    return Status::ok();
  sanitizer_->reached(point);
  return sanitizer_->takeNewFindings();
}

Status Device::createStream(int32_t priority, Stream **out) {
  if (!out)
    return makeStatus(StatusCode::kInvalidArgument, "create stream: null out");
  if (priority < 0)
    return makeStatus(StatusCode::kInvalidArgument,
                      "create stream: priority " + std::to_string(priority) +
                          " is negative; 0 is the highest");
  *out = newStream(priority);
  return Status::ok();
}

Status Device::destroyStream(Stream *stream) {
  if (!stream || stream == defaultStream_)
    return makeStatus(StatusCode::kInvalidArgument,
                      "destroy stream: the default stream cannot be destroyed");
  Status st = synchronizeStream(stream);
  if (sanitizer_)
    sanitizer_->onStreamDestroyed(stream->id());
  std::lock_guard<std::mutex> lock(registryMu_);
  stream->destroyed_ = true;
  return st;
}

Status Device::createEvent(Event **out) {
  if (!out)
    return makeStatus(StatusCode::kInvalidArgument, "create event: null out");
  std::lock_guard<std::mutex> lock(registryMu_);
  events_.push_back(
      std::make_unique<Event>(static_cast<uint32_t>(events_.size())));
  *out = events_.back().get();
  return Status::ok();
}

Status Device::destroyEvent(Event *event) {
  if (!event)
    return makeStatus(StatusCode::kInvalidArgument, "destroy event: null");
  if (sanitizer_)
    sanitizer_->onEventDestroyed(event->id());
  std::lock_guard<std::mutex> lock(registryMu_);
  event->destroyed_ = true;
  return Status::ok();
}

Status Device::launchKernel(Stream *stream, KernelLaunch launch) {
  if (launch.blockDim == 0)
    return makeStatus(StatusCode::kInvalidArgument,
                      "launch kernel '" + launch.name + "': block_dim is 0");
  // Ascend's limit. Past it a cost-only kernel would be simulated wave by
  // wave for hours (4e9 blocks on 48 cores).
  if (launch.blockDim > kMaxBlockDim)
    return makeStatus(StatusCode::kInvalidArgument,
                      "launch kernel '" + launch.name + "': block_dim " +
                          std::to_string(launch.blockDim) + " exceeds " +
                          std::to_string(kMaxBlockDim));
  if (cost_.engineCores(launch.engine) == 0)
    return makeStatus(StatusCode::kInvalidArgument,
                      "launch kernel '" + launch.name + "': engine " +
                          engineName(launch.engine) + " has no cores on " +
                          spec().socVersion);
  if (!(launch.cost.flops >= 0) || !(launch.cost.bytes >= 0) ||
      !std::isfinite(launch.cost.flops) || !std::isfinite(launch.cost.bytes))
    return makeStatus(StatusCode::kInvalidArgument,
                      "launch kernel '" + launch.name +
                          "': cost must be finite and >= 0");
  Task t;
  t.kind = TaskKind::kKernel;
  t.engine = launch.engine;
  t.blockDim = launch.blockDim;
  t.aicoreNum = launch.aicoreNum;
  t.vectorcoreNum = launch.vectorcoreNum;
  t.cost = launch.cost;
  t.fn = std::move(launch.fn);
  t.name = std::move(launch.name);
  t.opType = std::move(launch.opType);
  t.submitNs = now();
  enqueue(resolve(stream), std::move(t), &launch.accesses);
  return Status::ok();
}

Status Device::launchCallback(Stream *stream, HostFn fn, bool blocks) {
  return enqueueCallback(stream, std::move(fn), blocks,
                         /*onReportThread=*/true);
}

Status Device::launchHostFunc(Stream *stream, HostFn fn) {
  return enqueueCallback(stream, std::move(fn), /*blocks=*/true,
                         /*onReportThread=*/false);
}

Status Device::enqueueCallback(Stream *stream, HostFn fn, bool blocks,
                               bool onReportThread) {
  if (!fn)
    return makeStatus(StatusCode::kInvalidArgument, "callback: null function");
  Task t;
  t.kind = TaskKind::kCallback;
  t.callback = std::move(fn);
  t.callbackBlocks = blocks;
  t.callbackOnReportThread = onReportThread;
  t.submitNs = now();
  enqueue(resolve(stream), std::move(t));
  return Status::ok();
}

Status Device::recordEvent(Event *event, Stream *stream) {
  if (!event)
    return makeStatus(StatusCode::kInvalidArgument, "record event: null event");
  Stream *s = resolve(stream);
  std::lock_guard<std::mutex> lock(orderMu_);
  uint64_t rec = event->enqueued_.load(std::memory_order_relaxed) + 1;
  Task t;
  t.kind = TaskKind::kEventRecord;
  t.event = event;
  t.eventSeq = rec;
  t.submitNs = now();
  uint64_t seq = enqueue(s, std::move(t));
  // Whoever waits on this record is ordered after everything this stream is
  // ordered after, and after this stream up to the record itself.
  if (s->clock_.size() <= s->id())
    s->clock_.resize(s->id() + 1, 0);
  event->lastRecordClock_ = s->clock_;
  event->lastRecordClock_[s->id()] = seq;
  event->enqueued_.store(rec, std::memory_order_release);
  return Status::ok();
}

Status Device::streamWaitEvent(Stream *stream, Event *event) {
  if (!event)
    return makeStatus(StatusCode::kInvalidArgument, "wait event: null event");
  Stream *s = resolve(stream);
  std::lock_guard<std::mutex> lock(orderMu_);
  uint64_t recorded = event->enqueued_.load(std::memory_order_relaxed);
  Task t;
  t.kind = TaskKind::kEventWait;
  t.event = event;
  // Binds to the latest record enqueued so far, or to the first one to come.
  t.eventSeq = std::max<uint64_t>(recorded, 1);
  t.submitNs = now();
  enqueue(s, std::move(t));
  const std::vector<uint64_t> &rc = event->lastRecordClock_;
  if (s->clock_.size() < rc.size())
    s->clock_.resize(rc.size(), 0);
  for (size_t i = 0; i < rc.size(); ++i)
    s->clock_[i] = std::max(s->clock_[i], rc[i]);
  return Status::ok();
}

bool Device::orderedAfter(StreamId consumer, StreamId producer, uint64_t seq) {
  Stream *p = nullptr, *c = nullptr;
  {
    std::lock_guard<std::mutex> lock(registryMu_);
    if (producer < streams_.size())
      p = streams_[producer].get();
    if (consumer < streams_.size())
      c = streams_[consumer].get();
  }
  if (p && p->completed() >= seq)
    return true; // the free point already ran
  if (!c)
    return false;
  std::lock_guard<std::mutex> lock(orderMu_);
  return producer < c->clock_.size() && c->clock_[producer] >= seq;
}

Status Device::awaitCallback(HostJob &job) {
  if (job.helpable())
    job.work(); // no worker has taken it yet: run it here
  // One a thread runs is usually about to return: wait awake a little
  // first, as HostJob::join() does, since a sleep costs microseconds.
  const auto start = std::chrono::steady_clock::now();
  while (!job.done() && std::chrono::steady_clock::now() - start <
                            std::chrono::microseconds(50))
    std::this_thread::yield();
  while (!job.waitDone(10)) {
    if (job.started())
      continue; // a thread runs it: it will return
    const ReportQueue *q = job.reportQueue();
    if (!q)
      continue;
    if (q == currentReportQueue())
      return makeStatus(
          StatusCode::kDeadlock,
          "the callback on stream " + std::to_string(job.stream()) +
              " is queued for this thread's aclrtProcessReport, which is "
              "running a callback that waits for it");
    if (q->idleFor(kReportThreadIdleMs) &&
        std::chrono::steady_clock::now() - start >=
            std::chrono::milliseconds(kReportThreadIdleMs))
      return makeStatus(
          StatusCode::kDeadlock,
          "the callback on stream " + std::to_string(job.stream()) +
              " waits for host thread " + std::to_string(q->threadId()) +
              " (aclrtSubscribeReport), which has not called "
              "aclrtProcessReport for " +
              std::to_string(kReportThreadIdleMs) + " ms");
  }
  return Status::ok();
}

Status Device::runPastCallbacks(std::unique_lock<std::mutex> &lock,
                                const std::function<bool()> &done,
                                bool waitForReportThreads,
                                bool *callbackNeverReturns) {
  for (;;) {
    Status st = scheduler_.runUntil(done, liveStreams());
    hostNow_.store(scheduler_.now(), std::memory_order_relaxed);
    if (st.code() != StatusCode::kNotReady)
      return st;
    std::shared_ptr<HostJob> job = scheduler_.takeHostWait();
    if (!waitForReportThreads && !job->helpable())
      return st;
    lock.unlock();
    Status waited = awaitCallback(*job);
    lock.lock();
    if (!waited.isOk()) {
      if (callbackNeverReturns)
        *callbackNeverReturns = true;
      return waited;
    }
  }
}

Status Device::run(std::unique_lock<std::mutex> &lock,
                   const std::function<bool()> &done) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  for (;;) {
    bool callbackNeverReturns = false;
    Status st = runPastCallbacks(lock, done, /*waitForReportThreads=*/true,
                                 &callbackNeverReturns);
    // No other thread can start a callback whose report thread is gone.
    if (st.code() != StatusCode::kDeadlock || callbackNeverReturns)
      return st;
    // The grace period starts when the simulation first gets stuck.
    auto now = std::chrono::steady_clock::now();
    if (!deadline)
      deadline = now + std::chrono::milliseconds(options_.deadlockGraceMs);
    else if (now >= *deadline)
      return st;
    lock.unlock();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    lock.lock();
  }
}

Status Device::synchronizeStream(Stream *stream) {
  if (inKernelWork())
    return refuseInsideKernel("synchronize stream");
  Stream *s = resolve(stream);
  sanitizer::VectorClock point;
  uint64_t target = streamTarget(s, &point);
  std::unique_lock<std::mutex> lock(simMu_);
  Status st = run(lock, [&] { return s->completed() >= target; });
  if (!st.isOk())
    return makeStatus(st.code(), "synchronize stream " +
                                     std::to_string(s->id()) + ": " +
                                     st.message());
  Status err = std::move(s->error_);
  s->error_ = Status();
  Status races = sanitizerReached(point);
  return err.isOk() ? races : err;
}

Status Device::synchronizeDevice() {
  if (inKernelWork())
    return refuseInsideKernel("synchronize device");
  std::vector<Stream *> streams = liveStreams();
  std::vector<uint64_t> targets;
  sanitizer::VectorClock point;
  {
    std::unique_lock<std::mutex> noEnqueues = sanitizerLock();
    std::vector<StreamId> ids;
    for (Stream *s : streams) {
      targets.push_back(s->enqueued());
      ids.push_back(s->id());
    }
    if (sanitizer_)
      point = sanitizer_->devicePoint(ids);
  }
  std::unique_lock<std::mutex> lock(simMu_);
  Status st = run(lock, [&] {
    for (size_t i = 0; i < streams.size(); ++i)
      if (streams[i]->completed() < targets[i])
        return false;
    return true;
  });
  if (!st.isOk())
    return makeStatus(st.code(), "synchronize device: " + st.message());
  Status first;
  for (Stream *s : streams) {
    if (!s->error_.isOk() && first.isOk())
      first = s->error_;
    s->error_ = Status();
  }
  Status races = sanitizerReached(point);
  return first.isOk() ? races : first;
}

Status Device::synchronizeEvent(Event *event) {
  if (inKernelWork())
    return refuseInsideKernel("synchronize event");
  if (!event)
    return makeStatus(StatusCode::kInvalidArgument, "synchronize event: null");
  sanitizer::VectorClock point;
  uint64_t target = eventTarget(event, &point);
  if (target == 0)
    return Status::ok(); // nothing recorded: nothing to wait for
  std::unique_lock<std::mutex> lock(simMu_);
  Status st = run(lock, [&] { return event->isComplete(target); });
  if (!st.isOk())
    return makeStatus(st.code(), "synchronize event " +
                                     std::to_string(event->id()) + ": " +
                                     st.message());
  return sanitizerReached(point);
}

Status Device::queryEvent(Event *event, bool *complete) {
  if (inKernelWork())
    return refuseInsideKernel("query event");
  if (!event || !complete)
    return makeStatus(StatusCode::kInvalidArgument, "query event: null");
  *complete = false;
  sanitizer::VectorClock point;
  uint64_t target = eventTarget(event, &point);
  if (target == 0)
    return Status::ok();
  std::unique_lock<std::mutex> lock(simMu_);
  // A query never waits for another thread: no grace period, and a callback
  // on a report thread that has not returned yet leaves the event not
  // complete.
  Status st = runPastCallbacks(
      lock, [&] { return event->isComplete(target); },
      /*waitForReportThreads=*/false);
  *complete = st.isOk();
  // A completed query is a host synchronization too (a polling loop); its
  // findings wait for the next synchronize.
  if (*complete && sanitizer_)
    sanitizer_->reached(point);
  return Status::ok();
}

Status Device::eventElapsedMs(Event *start, Event *end, float *ms) {
  if (!start || !end || !ms)
    return makeStatus(StatusCode::kInvalidArgument, "elapsed time: null");
  std::lock_guard<std::mutex> lock(simMu_);
  for (Event *e : {start, end}) {
    uint64_t n = e->recordsEnqueued();
    if (n == 0 || !e->isComplete(n))
      return makeStatus(StatusCode::kNotReady,
                        "elapsed time: event " + std::to_string(e->id()) +
                            (n == 0 ? " was never recorded"
                                    : " has not completed; synchronize first"));
  }
  *ms = static_cast<float>(
      static_cast<double>(end->latestNs_ - start->latestNs_) / 1e6);
  return Status::ok();
}

std::vector<TaskRecord> Device::traceRecords() {
  std::lock_guard<std::mutex> lock(simMu_);
  return scheduler_.records();
}

void Device::clearTrace() {
  std::lock_guard<std::mutex> lock(simMu_);
  scheduler_.clearRecords();
}

Status Device::exportTrace(const std::string &path) {
  return writeChromeTrace(traceRecords(), path);
}

} // namespace geflow::rt
