//===- LowerBound.h - no schedule of a task graph is faster than this -*- C++
//-*-===//
//
// `geflow compile` and `geflow profile` say how far a schedule is from the
// best possible: efficiency = makespan / bound, 1.0 at best. The
// bound takes the makespan predictor's own cost model (the runtime's
// CostModel and SoC), so bound and prediction are comparable, and is the
// larger of two bounds that hold for any stream assignment and event list:
//
//   critical path  the longest dependency chain, each kernel timed alone on
//                  the chip at its block dim (the cost model's best split,
//                  chosen by ge-emit-tasks) with its launch latency: the
//                  fixed cost no schedule avoids. Event latency is not
//                  counted: one stream needs no events.
//   engine work    per core group, the core time of its kernels (each block
//                  once, plus one core for each launch) over the group's
//                  cores, within the global core limits.
//   segments       per segment between cuts -- nodes that every other node
//                  is ordered with (a join every path passes, such as an
//                  inception module's Concat) -- the shortest interval that
//                  holds its critical path and, per core group, every kernel
//                  at the least core time that still ends it in time (a
//                  kernel that must be quick takes one wave, and holds every
//                  core of it through the launch). A segment runs between its
//                  cuts, so the makespan is at least the sum of those
//                  intervals plus each cut alone.
//
// No-task ops (views) cost nothing. docs/streams.md has the definition and
// the figures.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_LOWERBOUND_H
#define GEFLOW_PASSES_STREAMS_LOWERBOUND_H

#include "passes/streams/TaskGraph.h"

#include "runtime/soc/SocSpec.h"

#include <algorithm>
#include <vector>

namespace geflow::passes {

struct LowerBound {
  double criticalPathNs = 0;
  double engineWorkNs = 0; // the busiest core group's
  double segmentsNs = 0;
  int cuts = 0;
  double ns() const {
    return std::max({criticalPathNs, engineWorkNs, segmentsNs});
  }
};

/// Per node, whether it is a cut: ordered with every other node (all nodes
/// before it in op order reach it, it reaches all after it).
std::vector<bool> findCuts(const TaskGraph &graph);

/// Each node's time alone on the chip at its block dim, launch included (0
/// for no-task ops): what the critical path adds up.
std::vector<double> aloneTimesNs(const TaskGraph &graph,
                                 const rt::SocSpec &spec,
                                 uint32_t aicoreNum = 0,
                                 uint32_t vectorcoreNum = 0);

/// `aicoreNum`/`vectorcoreNum`: the global core limits (0: the chip's).
LowerBound lowerBound(const TaskGraph &graph, const rt::SocSpec &spec,
                      uint32_t aicoreNum = 0, uint32_t vectorcoreNum = 0);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_LOWERBOUND_H
