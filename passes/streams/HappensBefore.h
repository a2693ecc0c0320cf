//===- HappensBefore.h - which tasks complete before which start -*- C++
//-*-===//
//
// The order a task list guarantees on the device (docs/architecture.md,
// "The runtime and the simulated device"):
// tasks are enqueued in one global order, each on a stream; a stream runs its
// tasks one after another; an event record marks the point its stream has
// reached; a wait holds its stream until the record it binds to, the latest
// record of that event enqueued before the wait.
//
// Vector clocks answer "does task X complete before task Y starts" in O(1):
// each stream keeps, per stream, how many of that stream's tasks are known to
// have completed at its current point. Free of MLIR so it is easy to test;
// event insertion (ge-insert-events) and the stream-aware memory plan
// (ge-plan-memory) both ask it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_HAPPENSBEFORE_H
#define GEFLOW_PASSES_STREAMS_HAPPENSBEFORE_H

#include <cstdint>
#include <map>
#include <vector>

namespace geflow::passes {

class HappensBefore {
public:
  using TaskId = uint32_t;

  explicit HappensBefore(uint32_t numStreams = 1);

  uint32_t numStreams() const { return uint32_t(streamClock_.size()); }
  uint32_t numTasks() const { return uint32_t(taskStream_.size()); }
  uint32_t streamOf(TaskId task) const { return taskStream_[task]; }

  /// Enqueues a task on `stream` (< numStreams()). It starts after the
  /// stream's earlier tasks and after whatever the stream's waits ordered.
  TaskId addTask(uint32_t stream);

  /// Enqueues a record of `event` on `stream`, after its latest task.
  void recordEvent(uint32_t stream, int64_t event);

  /// Enqueues a wait for `event` on `stream`; it binds to the latest record
  /// enqueued before it. False (and nothing ordered) when there is none: the
  /// runtime would bind it to a later record, which no task list of ours has.
  bool waitEvent(uint32_t stream, int64_t event);

  /// Enqueues, on `stream`, a wait for a record placed right after `task` on
  /// the task's own stream: what event insertion adds for a dependency.
  void waitForTask(uint32_t stream, TaskId task);

  /// Orders `task` before the next task enqueued on `stream`. True when that
  /// takes a new wait (waitForTask); false when stream order and the
  /// stream's earlier waits already imply it (GE's event reduction).
  bool orderBeforeNext(TaskId task, uint32_t stream);

  /// True when `earlier` completes before `later` starts.
  bool completesBefore(TaskId earlier, TaskId later) const;

  /// How many of `stream`'s tasks (a prefix, in its own order) are known to
  /// complete before `task` starts.
  uint32_t completedBefore(TaskId task, uint32_t stream) const {
    return taskStart_[task][stream];
  }

  /// True when `task` completes before the next task enqueued on `stream`
  /// would start.
  bool completesBeforeNext(TaskId task, uint32_t stream) const;

private:
  /// Per stream: how many of its tasks (in its own order) have completed.
  using Clock = std::vector<uint32_t>;

  static void join(Clock &into, const Clock &from);
  bool covers(const Clock &clock, TaskId task) const;
  Clock completionClock(TaskId task) const;

  std::vector<Clock> streamClock_; // what a task enqueued now would start after
  std::vector<uint32_t> taskStream_;
  std::vector<uint32_t> taskSeq_; // 1-based position on its stream
  std::vector<Clock> taskStart_;
  std::map<int64_t, Clock> latestRecord_;
};

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_HAPPENSBEFORE_H
