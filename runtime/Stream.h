//===- Stream.h - A FIFO of tasks with a priority -------------------------===//
//
// Two sides share a stream. Host threads append to `pending_` under `mu_`. The
// scheduler, which runs on whichever host thread holds Device's simulation
// lock, swaps `pending_` into `active_` when it has consumed everything and
// walks `active_` in order; it alone touches the fields marked "sim".
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_STREAM_H
#define GEFLOW_RUNTIME_STREAM_H

#include "runtime/Task.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace geflow::rt {

class HostJob;

class Stream {
public:
  Stream(StreamId id, int32_t priority) : id_(id), priority_(priority) {}
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  StreamId id() const { return id_; }
  /// Lower value = served first, as in AscendCL (0 is the highest).
  int32_t priority() const { return priority_; }
  /// Tasks enqueued so far; the seq of the latest one.
  uint64_t enqueued() const {
    return enqueued_.load(std::memory_order_acquire);
  }
  /// Tasks the simulation has completed, in order.
  uint64_t completed() const {
    return completed_.load(std::memory_order_acquire);
  }

private:
  friend class Device;
  friend class Scheduler;

  /// Host side: appends `t`, giving it the next seq. Returns that seq.
  uint64_t push(Task &&t) {
    std::lock_guard<std::mutex> lock(mu_);
    uint64_t seq = enqueued_.load(std::memory_order_relaxed) + 1;
    t.seq = seq;
    pending_.push_back(std::move(t));
    // Release: a reader that sees the count also sees the task queued.
    enqueued_.store(seq, std::memory_order_release);
    return seq;
  }

  /// Sim side: the task at the head, pulling pending tasks in if needed.
  Task *head() {
    if (head_ < active_.size())
      return &active_[head_];
    active_.clear();
    head_ = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::swap(active_, pending_);
    }
    return active_.empty() ? nullptr : &active_[0];
  }

  const StreamId id_;
  const int32_t priority_;

  // Host side, guarded by mu_.
  std::mutex mu_;
  std::vector<Task> pending_;
  // Written under mu_ (release), read anywhere (acquire).
  std::atomic<uint64_t> enqueued_{0};
  // Guarded by Device::orderMu_: for each stream id, the highest seq of that
  // stream that this stream's future tasks are ordered after through events.
  std::vector<uint64_t> clock_;
  bool destroyed_ = false; // guarded by Device::registryMu_

  // Sim side: owned by the holder of Device::simMu_.
  std::vector<Task> active_;
  size_t head_ = 0;
  bool running_ = false;
  bool queued_ = false; // in the scheduler's dirty list
  // The event or core group this stream is registered as waiting on, so a
  // blocked stream registers once however often it is looked at.
  const void *blockedOn_ = nullptr;
  uint32_t grantCube_ = 0, grantVector_ = 0, grantOther_ = 0;
  // A kernel runs wave by wave, taking the cores free at each wave: the
  // blocks it has not started, whether its first wave ran, the most cores a
  // wave held and the core-time its waves held (for the trace).
  uint32_t blocksLeft_ = 0;
  bool kernelStarted_ = false;
  uint32_t peakGrant_ = 0, peakGrantVector_ = 0;
  VirtualNs coreTimeNs_ = 0, vectorCoreTimeNs_ = 0;
  std::shared_ptr<HostJob> job_;
  VirtualNs readyNs_ = 0, startNs_ = 0, endNs_ = 0, lastEndNs_ = 0;
  Status error_; // sticky until a synchronize reports it
  // Published by the scheduler (release) after each completion.
  std::atomic<uint64_t> completed_{0};
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_STREAM_H
