//===- Event.h - Record / wait synchronisation between streams ------------===//
//
// Each record enqueued on an event gets the next number (1, 2, ...). A wait
// binds, when enqueued, to the latest record enqueued before it; if there is
// none yet it binds to the first record to come, so a wait on an event that
// is never recorded can never be met and shows up as a deadlock.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_EVENT_H
#define GEFLOW_RUNTIME_EVENT_H

#include "runtime/Task.h"
#include "runtime/soc/CostModel.h"

#include <atomic>
#include <cstdint>
#include <set>
#include <vector>

namespace geflow::rt {

class Stream;

class Event {
public:
  explicit Event(uint32_t id) : id_(id) {}
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  uint32_t id() const { return id_; }
  /// Records enqueued so far.
  uint64_t recordsEnqueued() const {
    return enqueued_.load(std::memory_order_acquire);
  }

private:
  friend class Device;
  friend class Scheduler;

  /// Sim side: has record number `seq` run?
  bool isComplete(uint64_t seq) const {
    return seq <= watermark_ || outOfOrder_.count(seq) != 0;
  }
  /// Sim side: record `seq` ran at `now`.
  void markComplete(uint64_t seq, VirtualNs now) {
    if (seq >= latestSeq_) {
      latestSeq_ = seq;
      latestNs_ = now;
    }
    // Records on different streams may finish out of order.
    if (seq == watermark_ + 1) {
      ++watermark_;
      while (!outOfOrder_.empty() && *outOfOrder_.begin() == watermark_ + 1) {
        outOfOrder_.erase(outOfOrder_.begin());
        ++watermark_;
      }
    } else {
      outOfOrder_.insert(seq);
    }
  }

  const uint32_t id_;

  // Host side, guarded by Device::orderMu_.
  std::atomic<uint64_t> enqueued_{0}; // also read without the lock (acquire)
  std::vector<uint64_t> lastRecordClock_; // clock of the recording stream
  bool destroyed_ = false;                // guarded by Device::registryMu_

  // Sim side: owned by the holder of Device::simMu_.
  uint64_t watermark_ = 0;
  std::set<uint64_t> outOfOrder_;
  uint64_t latestSeq_ = 0;
  VirtualNs latestNs_ = 0;
  std::vector<Stream *> waiters_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_EVENT_H
