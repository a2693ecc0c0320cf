//===- ShadowMemory.h - Who last touched each byte range ------------------===//
//
// The stream sanitizer's memory state: an interval map from address ranges
// to the last write, the reads since it (the latest per stream: reads on one
// stream are ordered among themselves), whether the bytes lie in a live
// allocation, were written since it, or were freed. Ranges split only where
// accesses differ and merge back when neighbours agree, so a tensor written
// by one kernel is one entry however large it is; no per-byte shadow.
//
// Thread ownership: the StreamSanitizer's lock holder.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SANITIZER_SHADOWMEMORY_H
#define GEFLOW_RUNTIME_SANITIZER_SHADOWMEMORY_H

#include "runtime/Task.h"

#include <cstdint>
#include <map>
#include <vector>

namespace geflow::rt::sanitizer {

/// For each stream, the highest task seq of that stream a point of the
/// program is ordered after (stream order, event record -> wait, host
/// synchronization).
class VectorClock {
public:
  uint64_t get(StreamId s) const { return s < seqs_.size() ? seqs_[s] : 0; }
  void advance(StreamId s, uint64_t seq) {
    if (s >= seqs_.size())
      seqs_.resize(s + 1, 0);
    if (seqs_[s] < seq)
      seqs_[s] = seq;
  }
  void join(const VectorClock &o) {
    if (seqs_.size() < o.seqs_.size())
      seqs_.resize(o.seqs_.size(), 0);
    for (size_t i = 0; i < o.seqs_.size(); ++i)
      if (seqs_[i] < o.seqs_[i])
        seqs_[i] = o.seqs_[i];
  }

private:
  std::vector<uint64_t> seqs_; // index = StreamId
};

/// One access as the shadow remembers it: (stream, seq) decide ordering and
/// say which task it was; `name` is its op name in a report (an index into
/// the sanitizer's table of names).
struct Epoch {
  StreamId stream = kNoStream;
  uint32_t name = 0;
  uint64_t seq = 0; // 0: no access
  bool valid() const { return seq != 0; }
  /// True when this access happens before anything holding `clock`.
  bool orderedBefore(const VectorClock &clock) const {
    return clock.get(stream) >= seq;
  }
  bool operator==(const Epoch &o) const {
    return stream == o.stream && seq == o.seq && name == o.name;
  }
};

enum class Hazard : uint8_t {
  kReadAfterWrite,
  kWriteAfterRead,
  kWriteAfterWrite,
  kUseAfterFree,
  kFreeWhileInUse,
  kUninitializedRead,
};
/// "read-after-write", "use-after-free", ...
const char *hazardName(Hazard h);

/// An access that clashed with what a range held.
struct Conflict {
  Hazard hazard;
  Epoch other; // the earlier access or the free; invalid for kUninitializedRead
  uintptr_t begin = 0, end = 0;
};

class ShadowMemory {
public:
  /// Checks an access of [begin, end) by `self`, whose position in the
  /// program is `clock`, against what the range holds, appends what clashes
  /// to `out`, then remembers the access.
  void access(uintptr_t begin, uintptr_t end, AccessMode mode,
              const Epoch &self, const VectorClock &clock,
              std::vector<Conflict> &out);
  /// A new allocation: tracked, nothing written yet, no history.
  void allocate(uintptr_t begin, uintptr_t end);
  /// A free at `freePoint` (`clock`): appends every access of the range not
  /// ordered before it, then marks the range freed.
  void release(uintptr_t begin, uintptr_t end, const Epoch &freePoint,
               const VectorClock &clock, std::vector<Conflict> &out);
  /// Forgets the accesses every task from now on is ordered after (`host`:
  /// what the host has synchronized with), keeping what allocation state
  /// needs.
  void prune(const VectorClock &host);
  size_t numRanges() const { return ranges_.size(); }

private:
  struct State {
    Epoch write;
    std::vector<Epoch> reads; // sorted by stream, one per stream
    Epoch freedBy;            // valid while freed and not allocated again
    bool tracked = false;     // inside an allocation we saw being made
    bool written = false;     // written since that allocation
    bool operator==(const State &o) const {
      return write == o.write && reads == o.reads && freedBy == o.freedBy &&
             tracked == o.tracked && written == o.written;
    }
    bool empty() const {
      return !write.valid() && reads.empty() && !freedBy.valid() && !tracked;
    }
  };
  struct Range {
    uintptr_t end;
    State state;
  };
  using Map = std::map<uintptr_t, Range>;

  /// Map insertion and erasure through spare_.
  Map::iterator insertRange(Map::iterator hint, uintptr_t begin, Range range);
  Map::iterator eraseRange(Map::iterator it);
  /// Makes [begin, end) one range holding `state`.
  void replace(uintptr_t begin, uintptr_t end, State state);
  /// Makes `at` a range boundary if a range spans it.
  void splitAt(uintptr_t at);
  /// Covers [begin, end) with ranges (gaps get a default state) and returns
  /// the first of them.
  Map::iterator cover(uintptr_t begin, uintptr_t end);
  /// Merges equal neighbours from the range before `begin` to the one at
  /// `end`.
  void mergeAround(uintptr_t begin, uintptr_t end);

  Map ranges_; // key: begin; ranges never overlap
  // Nodes of erased ranges, for the next insertions: a workspace allocated
  // again at every execution has its ranges rebuilt each time.
  static constexpr size_t kSpareNodes = 4096;
  std::vector<Map::node_type> spare_;
};

} // namespace geflow::rt::sanitizer

#endif // GEFLOW_RUNTIME_SANITIZER_SHADOWMEMORY_H
