//===- Event.h - Record / wait synchronisation between streams ------------===//
//
// Each record enqueued on an event gets the next number (1, 2, ...). A wait
// binds, when enqueued, to the latest record enqueued before it; if there is
// none yet it binds to the first record to come, so a wait on an event that
// is never recorded can never be met and shows up as a deadlock.
//
// The SoC's event latency is the time from a record to the wake-up of a wait
// on it (SocSpec::eventLatencyUs), so the sim keeps the completion times of
// the records that may still be inside that window: a wait bound to one ends
// at its record's time plus the latency, and a wait bound to an older record
// costs nothing (docs/streams.md, "Event waits").
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_EVENT_H
#define GEFLOW_RUNTIME_EVENT_H

#include "runtime/Task.h"
#include "runtime/soc/CostModel.h"

#include <atomic>
#include <cstdint>
#include <map>
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

  /// Sim side: when a wait bound to the completed record `seq` can end, at
  /// the earliest: the record's time plus `latency`, or 0 when the record is
  /// older than the last `latency` window.
  VirtualNs wakeNs(uint64_t seq, VirtualNs latency) const {
    auto it = recentNs_.find(seq);
    return it == recentNs_.end() ? 0 : addNs(it->second, latency);
  }
  /// Sim side: has record number `seq` run?
  bool isComplete(uint64_t seq) const {
    return seq <= watermark_ || outOfOrder_.count(seq) != 0;
  }
  /// Sim side: record `seq` ran at `now`; records done `latency` or more
  /// before `now` are forgotten (a wait on them has nothing left to wait).
  void markComplete(uint64_t seq, VirtualNs now, VirtualNs latency) {
    for (auto it = recentNs_.begin(); it != recentNs_.end();)
      it = addNs(it->second, latency) <= now ? recentNs_.erase(it) : ++it;
    recentNs_[seq] = now;
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
  std::map<uint64_t, VirtualNs> recentNs_; // seq -> completion, see wakeNs
  std::vector<Stream *> waiters_;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_EVENT_H
