//===- StreamSanitizer.h - Unordered accesses across streams --------------===//
//
// The bug class multi-stream code is known for: a missing wait, a wait on the
// wrong event, a buffer reused by another stream too early. With the
// sanitizer on (DeviceOptions::sanitize or GEFLOW_SANITIZE=1 at device
// creation) the Device hands it every task as it is enqueued, with the memory
// the task reads and writes (KernelLaunch::accesses; a memcpy's src and dst).
//
// Happens-before is the program's, not the simulated timeline's: a vector
// clock per stream advances with stream order, an event wait joins the clock
// its bound record (Task::eventSeq) had, and a host synchronize (stream,
// device, event, a completed query) orders every task enqueued after it after
// what it waited for. Since every edge points from an earlier enqueue to a
// later one, tasks are checked in enqueue order, before the device runs them:
// each access is compared with the range's last write and the reads since it
// (ShadowMemory). An unordered pair is a finding naming both tasks, their
// streams, the buffer and the byte range; so are an access to memory after a
// stream-ordered free, a free that an access on another stream is not ordered
// before, and a read of allocated bytes nothing wrote since the allocation.
// Memory the device pool did not hand out (host buffers, mapped weights) is
// checked for races only.
//
// Findings make the next synchronize fail with StatusCode::kDataRace and a
// one-line message; findings() lists them all.
//
// A wait enqueued before its record (it binds to the first record to come)
// holds back the checks of its stream's later tasks until that record is
// enqueued.
//
// Locks: lock() is taken after Device::orderMu_ and before Stream::mu_; the
// Device holds it from predicting a task's seq to pushing it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SANITIZER_STREAMSANITIZER_H
#define GEFLOW_RUNTIME_SANITIZER_STREAMSANITIZER_H

#include "runtime/Task.h"
#include "runtime/sanitizer/ShadowMemory.h"
#include "runtime/support/Status.h"

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace geflow::rt {

struct SanitizerStats {
  uint64_t findings = 0;        // all of them, also those past the list's cap
  uint64_t accessesChecked = 0; // byte ranges compared with the shadow
  uint64_t tasksChecked = 0;
  uint64_t unboundWaits = 0; // waits whose record is no longer remembered
  double checkSeconds = 0;   // host time spent inside the sanitizer
};

class StreamSanitizer {
public:
  /// Most findings kept as text; the count goes on.
  static constexpr size_t kMaxListed = 1000;

  /// Held from predicting a task's seq to pushing it, so tasks are checked
  /// in the order their streams receive them.
  std::unique_lock<std::mutex> lock() {
    return std::unique_lock<std::mutex>(mu_);
  }

  // --- with lock() held ----------------------------------------------------
  /// `task` is about to become task `seq` of `stream`.
  void onTask(StreamId stream, uint64_t seq, const Task &task,
              const std::vector<MemoryAccess> *accesses);
  /// A host synchronization target: the clock of `stream` at its latest
  /// task, of every stream in `streams`, or of event `event`'s latest record.
  sanitizer::VectorClock streamPoint(StreamId stream);
  sanitizer::VectorClock devicePoint(const std::vector<StreamId> &streams);
  sanitizer::VectorClock eventPoint(uint32_t event);

  // --- taking the lock themselves -------------------------------------------
  /// How findings call `stream` ("moe stream 3"); default "stream <id>".
  void nameStream(StreamId stream, std::string name);
  /// Drop the clocks of a stream (synchronized) or event that is gone, so a
  /// device loading model after model keeps a bounded state.
  void onStreamDestroyed(StreamId stream);
  void onEventDestroyed(uint32_t event);
  /// The host has seen `point` complete: later tasks are ordered after it.
  void reached(const sanitizer::VectorClock &point);
  void onAllocate(const void *ptr, size_t size);
  /// A free at the current end of `stream` (kNoStream: a synchronous free,
  /// which must come after everything that used the block).
  void onFree(const void *ptr, StreamId stream);

  /// A kDataRace status for the findings no synchronize has reported yet.
  Status takeNewFindings();
  std::vector<std::string> findings() const;
  SanitizerStats stats() const;

private:
  /// A task behind a wait whose record is not enqueued yet: what checking
  /// it needs (no kernel function).
  struct PendingTask {
    uint64_t seq = 0;
    Task task;
    std::vector<MemoryAccess> accesses;
  };
  struct StreamState {
    std::string name; // empty: "stream <id>"
    sanitizer::VectorClock clock;
    uint64_t hostGen = 0; // the host clock generation joined so far
    std::deque<PendingTask> pending;
  };
  struct RecordState {
    uint64_t seq = 0; // the record's number
    sanitizer::VectorClock clock;
  };
  /// Records remembered per event: a wait that came before its record binds
  /// to an older one than the latest by the time that record arrives.
  static constexpr size_t kRecordsKept = 8;
  struct Allocation {
    size_t size = 0;
    bool live = true;
  };

  /// The stream's clock state, with what the host synchronized with joined.
  StreamState &stateOf(StreamId s);
  /// Advances `stream`'s clock over task `seq` and checks its accesses;
  /// false (nothing done) for a wait whose record is not enqueued yet.
  bool apply(StreamId stream, uint64_t seq, const Task &task,
             const std::vector<MemoryAccess> *accesses);
  /// Applies the pending tasks that records have unblocked.
  void drainBlocked();
  /// The index of `name` in names_, adding it the first time.
  uint32_t nameId(const std::string &name);
  /// Checks one access range of the current task.
  void check(const MemoryAccess &access, const sanitizer::Epoch &self,
             const sanitizer::VectorClock &clock);
  void report(const sanitizer::Conflict &c, const sanitizer::Epoch &self,
              AccessMode mode);
  std::string describeTask(const sanitizer::Epoch &e) const;
  std::string describeRange(uintptr_t begin, uintptr_t end) const;
  void addFinding(std::string message);
  void maybePrune();

  mutable std::mutex mu_;            // guards everything below
  std::vector<StreamState> streams_; // index = StreamId
  std::map<uint32_t, std::deque<RecordState>> records_; // by event id
  std::set<StreamId> blocked_;  // streams with pending tasks
  sanitizer::VectorClock host_; // what the host has synchronized with
  uint64_t hostGen_ = 0;        // bumped when host_ grows
  sanitizer::ShadowMemory shadow_;
  size_t pruneAt_ = 1024; // shadow size that triggers a prune
  std::map<uintptr_t, Allocation> allocations_; // by base address
  std::vector<std::string> names_; // op names of checked tasks, once each
  std::unordered_map<std::string, uint32_t> nameIds_;
  std::vector<sanitizer::Conflict> conflicts_; // scratch of one access
  std::vector<std::string> findings_;          // the first kMaxListed
  uint64_t reportedFindings_ = 0; // how many a synchronize has returned
  SanitizerStats stats_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SANITIZER_STREAMSANITIZER_H
