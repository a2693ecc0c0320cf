//===- HappensBefore.cpp - vector clocks over a task list -----------------===//

#include "passes/streams/HappensBefore.h"

#include <algorithm>
#include <cassert>

namespace geflow::passes {

HappensBefore::HappensBefore(uint32_t numStreams)
    : streamClock_(std::max<uint32_t>(numStreams, 1),
                   Clock(std::max<uint32_t>(numStreams, 1), 0)) {}

void HappensBefore::join(Clock &into, const Clock &from) {
  for (size_t s = 0; s < into.size(); ++s)
    into[s] = std::max(into[s], from[s]);
}

bool HappensBefore::covers(const Clock &clock, TaskId task) const {
  return clock[taskStream_[task]] >= taskSeq_[task];
}

HappensBefore::Clock HappensBefore::completionClock(TaskId task) const {
  Clock clock = taskStart_[task];
  clock[taskStream_[task]] = taskSeq_[task];
  return clock;
}

HappensBefore::TaskId HappensBefore::addTask(uint32_t stream) {
  assert(stream < numStreams() && "stream out of range");
  Clock &clock = streamClock_[stream];
  TaskId id = numTasks();
  taskStream_.push_back(stream);
  taskSeq_.push_back(clock[stream] + 1);
  taskStart_.push_back(clock);
  // A stream runs its tasks one after another.
  clock[stream] += 1;
  return id;
}

void HappensBefore::recordEvent(uint32_t stream, int64_t event) {
  assert(stream < numStreams() && "stream out of range");
  latestRecord_[event] = streamClock_[stream];
}

bool HappensBefore::waitEvent(uint32_t stream, int64_t event) {
  assert(stream < numStreams() && "stream out of range");
  auto it = latestRecord_.find(event);
  if (it == latestRecord_.end())
    return false;
  join(streamClock_[stream], it->second);
  return true;
}

void HappensBefore::waitForTask(uint32_t stream, TaskId task) {
  assert(stream < numStreams() && task < numTasks() && "out of range");
  join(streamClock_[stream], completionClock(task));
}

bool HappensBefore::orderBeforeNext(TaskId task, uint32_t stream) {
  if (completesBeforeNext(task, stream))
    return false;
  waitForTask(stream, task);
  return true;
}

bool HappensBefore::completesBefore(TaskId earlier, TaskId later) const {
  assert(earlier < numTasks() && later < numTasks() && "task out of range");
  return covers(taskStart_[later], earlier);
}

bool HappensBefore::completesBeforeNext(TaskId task, uint32_t stream) const {
  assert(stream < numStreams() && task < numTasks() && "out of range");
  return covers(streamClock_[stream], task);
}

} // namespace geflow::passes
