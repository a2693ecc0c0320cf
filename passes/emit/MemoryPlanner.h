//===- MemoryPlanner.h - offsets in one workspace, reusing dead buffers -*- C++
//-*-===//
//
// The algorithm of ge-plan-memory, free of MLIR so it is easy to test and to
// reuse. A buffer is a size and a lifetime in task positions: written at
// `def`, last read at `lastUse` (inclusive). Two buffers may share memory
// only when one is ordered entirely before the other; that question is one
// predicate, so a multi-stream plan (pipeline step 8: "a buffer is reused
// across streams only when an event orders its last reader before the new
// writer") replaces it without touching the placement.
//
// Placement is greedy by size with best fit: buffers are placed largest
// first (ties: earlier def), each at the aligned offset of the smallest gap
// between the already placed buffers it conflicts with, or above them all.
//
// Only pairs whose spans [horizon, lastUse] overlap can conflict, so each
// buffer is compared with those found by an interval query, not with every
// placed buffer: planning takes O(n log n + overlapping pairs).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_MEMORYPLANNER_H
#define GEFLOW_PASSES_EMIT_MEMORYPLANNER_H

#include "passes/streams/HappensBefore.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace geflow::passes {

struct BufferRequest {
  uint64_t size = 0;
  int64_t def = 0;     // position of the writer
  int64_t lastUse = 0; // position of the last reader (>= def)
  /// For stream-aware orderings: the tasks (HappensBefore ids) that write
  /// and read the buffer.
  HappensBefore::TaskId writer = 0;
  /// Further writers of disjoint slices (an in-place Concat's producers,
  /// passes/emit/NoTaskOps.h); `writer` is the one at `def`.
  std::vector<HappensBefore::TaskId> moreWriters;
  std::vector<HappensBefore::TaskId> readers;
  /// A position before which every use of an earlier buffer orders it before
  /// this one: a buffer whose lastUse < horizon never conflicts with it. It
  /// bounds which pairs the planner compares. `def` on one stream; on
  /// several, where the writer's vector clock stops covering some stream
  /// (orderedHorizon). 0 promises nothing: every pair is compared.
  int64_t horizon = 0;
};

/// True when every use of `earlier` completes before `later` is written, so
/// `later` may take `earlier`'s memory.
using OrderedBefore = std::function<bool(const BufferRequest &earlier,
                                         const BufferRequest &later)>;

/// One stream: positions are the execution order.
bool orderedOnOneStream(const BufferRequest &earlier,
                        const BufferRequest &later);

/// Several streams: `earlier`'s writers and readers complete before each of
/// `later`'s writers starts, by stream order or events (pipeline step 8).
/// `order` must outlive the predicate.
OrderedBefore orderedByHappensBefore(const HappensBefore &order);

struct MemoryPlanOptions {
  bool reuse = true;
  uint64_t alignment = 64;
  OrderedBefore orderedBefore = orderedOnOneStream;
};

struct MemoryPlanResult {
  std::vector<uint64_t> offsets; // one per request, in request order
  uint64_t workspaceSize = 0;
  uint64_t workspaceSizeWithoutReuse = 0; // sum of the aligned sizes
};

/// The horizon (BufferRequest::horizon) of a buffer written by `writer`:
/// the smallest position of a task not known to complete before `writer`
/// starts. `streamPositions[s]` lists the positions of stream s's tasks in
/// stream order (non-decreasing).
int64_t
orderedHorizon(const HappensBefore &order, HappensBefore::TaskId writer,
               const std::vector<std::vector<int64_t>> &streamPositions);

/// The bytes a buffer occupies: `size` rounded up to `alignment`, at least one
/// alignment unit (so every buffer has an address of its own).
uint64_t alignedBufferSize(uint64_t size, uint64_t alignment);

MemoryPlanResult planBuffers(const std::vector<BufferRequest> &requests,
                             const MemoryPlanOptions &options = {});

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_MEMORYPLANNER_H
