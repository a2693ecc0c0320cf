//===- Device.h - One simulated NPU: streams, events, memory, time --------===//
//
// The C++ face of the runtime. The executor and the aclrt* C API both call
// it. Every call returns a Status; nothing throws across it.
//
// Enqueue calls (launchKernel, memcpyAsync, recordEvent, ...) only append to
// a stream and return; the simulated device runs when the host synchronizes
// (see Scheduler.h). Streams and events stay allocated until the Device dies,
// so a destroyed handle never dangles inside the simulation.
//
// Locks, in the order they may nest: MemoryPool's lock, registryMu_,
// orderMu_, the sanitizer's lock, Stream::mu_. simMu_ is taken alone, or
// before the sanitizer's lock or Stream::mu_.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_DEVICE_H
#define GEFLOW_RUNTIME_DEVICE_H

#include "runtime/Event.h"
#include "runtime/HostWorkers.h"
#include "runtime/Scheduler.h"
#include "runtime/Stream.h"
#include "runtime/Task.h"
#include "runtime/Trace.h"
#include "runtime/memory/MemoryPool.h"
#include "runtime/sanitizer/StreamSanitizer.h"
#include "runtime/soc/CostModel.h"
#include "runtime/soc/SocSpec.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <vector>

namespace geflow::rt {

/// The most blocks one kernel launch may have (Ascend's block_dim limit).
inline constexpr uint32_t kMaxBlockDim = 65535;

struct DeviceOptions {
  /// A preset name or an INI path; ignored when `spec` is set.
  std::string soc = kDefaultSocPreset;
  std::optional<SocSpec> spec;
  /// Device memory limit in bytes; 0 = only host RAM limits it.
  uint64_t memoryLimitBytes = 0;
  /// Host threads running kernels' blocks; -1 = one per hardware thread.
  int workerThreads = -1;
  /// Record a trace; GEFLOW_RUNTIME_TRACE=1 also turns it on.
  bool trace = false;
  /// Check every task's memory accesses for unordered pairs across streams
  /// (sanitizer/StreamSanitizer.h); GEFLOW_SANITIZE=1 also turns it on.
  bool sanitize = false;
  /// How long a stuck simulation waits for another host thread to enqueue
  /// something before it reports a deadlock.
  uint32_t deadlockGraceMs = 100;
};

class Device {
public:
  static Status create(const DeviceOptions &options,
                       std::unique_ptr<Device> *out);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  const SocSpec &spec() const { return cost_.spec(); }
  const CostModel &costModel() const { return cost_; }
  /// The stream a null aclrtStream means. Priority 0.
  Stream *defaultStream() { return defaultStream_; }

  // --- streams and events -------------------------------------------------
  /// Lower `priority` is served first; 0 is the highest.
  Status createStream(int32_t priority, Stream **out);
  /// Synchronizes the stream, then retires it; returns the sync status.
  Status destroyStream(Stream *stream);
  Status createEvent(Event **out);
  Status destroyEvent(Event *event);

  // --- enqueue (null stream = default stream) -----------------------------
  Status launchKernel(Stream *stream, KernelLaunch launch);
  Status memcpyAsync(Stream *stream, void *dst, size_t dstMax, const void *src,
                     size_t count, MemcpyKind kind);
  /// A host callback. It runs on the thread subscribed to the stream
  /// (subscribeReport) or on a worker, and holds its stream until it returns
  /// unless `blocks` is false and a report thread runs it. It may call
  /// synchronous APIs, as in CANN: the device waits for it without holding
  /// the simulation.
  Status launchCallback(Stream *stream, HostFn fn, bool blocks = true);
  /// aclrtLaunchHostFunc: a host function holding its stream, always run by
  /// the runtime's own threads, never by a report thread.
  Status launchHostFunc(Stream *stream, HostFn fn);
  /// aclrtMemcpy and aclrtMemset: done when they return. From the host, a
  /// task on the default stream, waited for. From a callback, done at once
  /// on its thread: its stream already waits for it, and a stream could wait
  /// for the callback itself. From a kernel function, refused before
  /// anything is queued: a copy left queued would run later, into memory
  /// the caller may have freed by then.
  Status memcpySync(void *dst, size_t dstMax, const void *src, size_t count,
                    MemcpyKind kind);
  Status memsetSync(void *dst, size_t dstMax, int value, size_t count);
  /// Stream-ordered fill (aclrtMemsetAsync).
  Status memsetAsync(Stream *stream, void *dst, size_t dstMax, int value,
                     size_t count);
  Status recordEvent(Event *event, Stream *stream);
  Status streamWaitEvent(Stream *stream, Event *event);

  // --- synchronize ----------------------------------------------------------
  /// Runs the device until every task enqueued on `stream` so far has
  /// completed. Returns (and clears) the stream's first kernel failure, or a
  /// deadlock naming streams and events.
  Status synchronizeStream(Stream *stream);
  Status synchronizeEvent(Event *event);
  Status synchronizeDevice();
  /// Runs the device as far as the event's latest record; *complete says
  /// whether it could get there. An event never recorded is not complete.
  Status queryEvent(Event *event, bool *complete);
  /// Virtual time between the latest records of two completed events.
  Status eventElapsedMs(Event *start, Event *end, float *ms);

  // --- memory ---------------------------------------------------------------
  Status malloc(size_t size, void **out);
  /// The caller guarantees no queued task still uses the block.
  Status free(void *ptr);
  /// Stream-ordered: usable by tasks enqueued on `stream` from now on.
  Status mallocAsync(size_t size, Stream *stream, void **out);
  /// Stream-ordered: reusable by `stream` at once, by another stream once an
  /// event orders it after this point.
  Status freeAsync(void *ptr, Stream *stream);
  Status mallocHost(size_t size, void **out);
  Status freeHost(void *ptr);
  MemoryPool &memoryPool() { return pool_; }
  PoolStats memoryStats() const { return pool_.stats(); }

  // --- host callbacks (aclrtSubscribeReport / aclrtProcessReport) ---------
  Status subscribeReport(uint64_t threadId, Stream *stream);
  Status unsubscribeReport(uint64_t threadId, Stream *stream);
  /// Whether a host thread is subscribed to `stream`.
  bool hasReportThread(Stream *stream) {
    return reportQueueFor(resolve(stream)->id()) != nullptr;
  }
  /// Runs callbacks of the streams subscribed to `threadId`.
  Status processReport(uint64_t threadId, int32_t timeoutMs);

  // --- time and trace -------------------------------------------------------
  /// Device time the host has observed (end of the last synchronize).
  VirtualNs now() const { return hostNow_.load(std::memory_order_relaxed); }
  void setTraceEnabled(bool on) { scheduler_.setTraceEnabled(on); }
  bool traceEnabled() const { return scheduler_.traceEnabled(); }
  std::vector<TaskRecord> traceRecords();
  void clearTrace();
  Status exportTrace(const std::string &path);

  /// The stream sanitizer, or null when it is off.
  const StreamSanitizer *sanitizer() const { return sanitizer_.get(); }
  /// How the sanitizer's findings call `stream` ("moe stream 3": the model's
  /// numbering); no effect when it is off.
  void nameStream(Stream *stream, std::string name) {
    if (sanitizer_)
      sanitizer_->nameStream(resolve(stream)->id(), std::move(name));
  }

private:
  Device(const CostModel &cost, const DeviceOptions &options);
  Stream *resolve(Stream *s) { return s ? s : defaultStream_; }
  /// Appends `t` to `s`; with the sanitizer on, lets it check the task first
  /// (`accesses`: a kernel's declared memory). Returns the task's seq.
  uint64_t enqueue(Stream *s, Task &&t,
                   const std::vector<MemoryAccess> *accesses = nullptr);
  /// The sanitizer's lock (no lock when it is off): a synchronize reads its
  /// target and the sanitizer's clock of it with no enqueue in between.
  std::unique_lock<std::mutex> sanitizerLock();
  /// What a synchronize of `s` (the seq of its latest task) or of `event`
  /// (its latest record) waits for; `point` gets the sanitizer's clock there.
  uint64_t streamTarget(Stream *s, sanitizer::VectorClock *point);
  uint64_t eventTarget(Event *event, sanitizer::VectorClock *point);
  /// Joins what a successful synchronize waited for into the sanitizer's
  /// host clock and returns its new findings (ok when it is off).
  Status sanitizerReached(const sanitizer::VectorClock &point);
  Stream *newStream(int32_t priority);
  std::vector<Stream *> liveStreams();
  /// runPastCallbacks, but a stuck simulation is only called a deadlock after
  /// options_.deadlockGraceMs during which simMu_ is released, so other host
  /// threads can synchronize and enqueue the record everyone waits for.
  Status run(std::unique_lock<std::mutex> &lock,
             const std::function<bool()> &done);
  /// Runs the scheduler until `done()`, with `lock` holding simMu_; at each
  /// callback it stops at, waits for it without simMu_ (a callback may
  /// synchronize). A query passes `waitForReportThreads` false: it returns
  /// kNotReady at a callback only a report thread may run. A callback that
  /// can never return (awaitCallback's deadlock) sets *callbackNeverReturns.
  Status runPastCallbacks(std::unique_lock<std::mutex> &lock,
                          const std::function<bool()> &done,
                          bool waitForReportThreads,
                          bool *callbackNeverReturns = nullptr);
  /// Waits, without simMu_, for a callback the simulation stopped at. A
  /// callback queued for a report thread that has stopped serving (or is
  /// this thread, busy in another callback) is a deadlock, reported within
  /// about half a second instead of hanging.
  Status awaitCallback(HostJob &job);
  Status enqueueCallback(Stream *stream, HostFn fn, bool blocks,
                         bool onReportThread);
  bool orderedAfter(StreamId consumer, StreamId producer, uint64_t seq);
  std::shared_ptr<ReportQueue> reportQueueFor(StreamId stream);

  const CostModel cost_;
  const DeviceOptions options_;
  // Publishes the scheduler's time to enqueuing threads (relaxed: it only
  // stamps submit times, ordering comes from the stream locks).
  std::atomic<VirtualNs> hostNow_{0};

  MemoryPool pool_;    // its own lock
  WorkerPool workers_; // its own lock
  std::mutex simMu_;   // owns scheduler_ state and all sim fields
  Scheduler scheduler_;

  std::mutex registryMu_; // guards streams_, events_, hostAllocs_
  std::vector<std::unique_ptr<Stream>> streams_; // index = StreamId
  std::vector<std::unique_ptr<Event>> events_;   // index = event id
  std::unordered_set<void *> hostAllocs_;
  Stream *defaultStream_ = nullptr;

  std::mutex orderMu_; // guards Stream::clock_, Event record state

  std::unique_ptr<StreamSanitizer> sanitizer_; // its own lock; null = off

  std::mutex reportMu_; // guards the two maps below
  std::map<uint64_t, std::shared_ptr<ReportQueue>> reportQueues_;
  std::map<StreamId, uint64_t> subscriptions_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_DEVICE_H
