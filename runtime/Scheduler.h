//===- Scheduler.h - The simulated hardware scheduler ---------------------===//
//
// A discrete-event simulation in virtual time. Each round looks at the head
// task of every stream that may have become dispatchable, higher priority
// first, then round robin from the stream after the last one served. A task
// dispatches when its wait is met and its engine has a free core. A kernel
// runs in waves: each wave takes min(blocks left, core limit, free cores)
// cores and runs one block on each, and the next wave asks again, as the
// hardware hands blocks to whichever cores are free. Tasks of different
// streams run at once on disjoint cores.
//
// The simulation is lazy: it advances only inside a synchronize (or query)
// call, on the calling thread, and stops as soon as what that call waits for
// has completed. Since host submissions between two synchronize calls all
// carry the same device time, the timeline depends on the program alone,
// never on thread timing.
//
// Thread ownership: every member is owned by the holder of Device::simMu_,
// except traceEnabled_ (any thread, relaxed).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SCHEDULER_H
#define GEFLOW_RUNTIME_SCHEDULER_H

#include "runtime/Event.h"
#include "runtime/HostWorkers.h"
#include "runtime/Stream.h"
#include "runtime/Trace.h"
#include "runtime/soc/CostModel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <queue>
#include <vector>

namespace geflow::rt {

class Scheduler {
public:
  /// The report queue of the thread `stream` is subscribed to, or null.
  using ReportRoute = std::function<std::shared_ptr<ReportQueue>(StreamId)>;

  Scheduler(const CostModel &cost, WorkerPool &workers, ReportRoute route);

  /// Simulates until `done()` holds, looking at `streams` (every live stream).
  /// When nothing runs, nothing can dispatch and no task has arrived, returns
  /// a kDeadlock status naming the blocked streams and the events they wait
  /// on. (The Device gives other host threads a grace period before it
  /// believes that.)
  ///
  /// Returns kNotReady when the next completion is a callback still running
  /// on the host (hostWait() is its job): the caller waits for it without
  /// the simulation's lock, since the callback may itself synchronize, then
  /// calls again. A callback that synchronizes does not wait for itself: its
  /// own completion is put aside and done once it has returned, so its
  /// stream holds while the rest of the device goes on.
  Status runUntil(const std::function<bool()> &done,
                  const std::vector<Stream *> &streams);
  /// The callback job runUntil stopped at (kNotReady), handed over once.
  std::shared_ptr<HostJob> takeHostWait() { return std::move(hostWait_); }

  VirtualNs now() const { return now_; }
  uint32_t freeCores(CoreGroup g) const { return free_[static_cast<int>(g)]; }

  void setTraceEnabled(bool on) {
    traceEnabled_.store(on, std::memory_order_relaxed);
  }
  bool traceEnabled() const {
    return traceEnabled_.load(std::memory_order_relaxed);
  }
  const std::vector<TaskRecord> &records() const { return records_; }
  void clearRecords() { records_.clear(); }

private:
  struct Completion {
    VirtualNs end;
    uint64_t order; // dispatch order breaks ties, so pops are deterministic
    Stream *stream;
    bool operator>(const Completion &o) const {
      return end != o.end ? end > o.end : order > o.order;
    }
  };

  void markDirty(Stream *s);
  void round();
  /// Starts the head task of `s` (or its kernel's next wave) unless the
  /// stream runs, waits, or has nothing queued.
  void tryDispatch(Stream *s);
  // tryDispatch's steps. Those returning no time have parked the stream on
  // an event or on cores instead.
  std::optional<VirtualNs> passEventWait(Stream *s, Task &t);
  std::optional<VirtualNs> dispatchKernelWave(Stream *s, Task &t,
                                              bool skipWork);
  void waitForCores(Stream *s, const Task &t);
  /// The first wave of a kernel: its timing state and its host job.
  void startKernel(Stream *s, Task &t, uint32_t cores, bool skipWork);
  void startKernelJob(Stream *s, Task &t, uint32_t cores);
  /// Blocks left and core time after a wave on `cores` cores for `dur`.
  void accountWave(Stream *s, const Task &t, uint32_t cores, VirtualNs dur);
  VirtualNs copyMemory(const Task &t, bool skipWork);
  VirtualNs startCallback(Stream *s, Task &t, bool skipWork);
  /// Marks `s` running until now + `dur` and queues its completion.
  void startRunning(Stream *s, const Task &t, VirtualNs dur);
  /// Cores for a kernel; 0 if it must wait. Takes them from the free pools.
  uint32_t grant(Stream *s, const Task &t, uint32_t want);
  /// Returns the cores of `s`'s running wave to the pools.
  void releaseCores(Stream *s, const Task &t);
  void complete(Stream *s);
  /// Completes the put-aside callbacks that have returned, at now_.
  void completeReturnedCallbacks();
  /// What runUntil does when nothing else can run: wait for a put-aside
  /// callback, or report that a callback waits for itself.
  Status waitForPutAsideCallback();
  void wakeCoreWaiters(CoreGroup g);
  /// Has a stream received tasks the scheduler has not looked at yet?
  static bool hasUnseenTasks(Stream *s);
  Status diagnoseDeadlock(const std::vector<Stream *> &streams);

  const CostModel &cost_;
  WorkerPool &workers_;
  ReportRoute route_;

  VirtualNs now_ = 0;
  uint64_t dispatchOrder_ = 0;
  StreamId rrNext_ = 0; // round robin starts at this stream id
  uint32_t free_[kNumCoreGroups] = {};
  uint32_t liveJobs_ = 0; // streams with a HostJob not joined yet
  std::priority_queue<Completion, std::vector<Completion>,
                      std::greater<Completion>>
      heap_;
  std::vector<Stream *> dirty_, batch_;
  std::vector<Stream *> coreWaiters_[kNumCoreGroups];
  // Streams whose callback reached its virtual end while still running on
  // the thread that drives the simulation from inside it.
  std::vector<Stream *> putAside_;
  std::shared_ptr<HostJob> hostWait_;
  std::vector<TaskRecord> records_;
  std::atomic<bool> traceEnabled_{false};
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SCHEDULER_H
