//===- BlockDims.h - fewer blocks for kernels that have slack ---*- C++ -*-===//
//
// A kernel's launch holds every core it is granted (runtime/Scheduler.h), so
// the block dim that makes a kernel fastest alone -- usually all the cores --
// is the worst one beside parallel branches: each kernel of an inception
// module would take the whole chip for its launch, one after another. `auto`
// therefore gives a kernel off the critical path the fewest blocks that
// still finish it within its share of the slack, leaving the rest of the
// cores to the kernels beside it. The makespan predictor decides whether the
// result is faster (passes/streams/StreamAssignment.cpp); the lower bound
// keeps the planner's block dims.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_BLOCKDIMS_H
#define GEFLOW_PASSES_STREAMS_BLOCKDIMS_H

#include "passes/streams/TaskGraph.h"

#include "runtime/soc/CostModel.h"

#include <cstdint>
#include <vector>

namespace geflow::passes {

/// Per node, the longest path from its start to the end of the graph, given
/// each node's time alone (`alone`, e.g. from aloneTimesNs).
std::vector<double> bottomLevelsNs(const TaskGraph &graph,
                                   const std::vector<double> &alone);

struct BlockDimPolicy {
  /// How far (0..1) a kernel may end from its earliest finish towards its
  /// latest one that keeps the critical path (computed at the planned block
  /// dims with unlimited cores, less one event latency for the join).
  double slackShare = 0.5;
  /// The most of its engine's cores (0..1] a cube kernel with others beside
  /// it may take, critical or not.
  double coreShare = 1.0;
};

/// Block dims for `graph`, at most each node's planned one: walking in op
/// order with the times chosen so far, a kernel on an AI core engine gets
/// the fewest blocks that end it within the policy's slack share.
std::vector<uint32_t> stretchBlockDims(const TaskGraph &graph,
                                       const std::vector<double> &alone,
                                       const rt::CostModel &cost,
                                       const BlockDimPolicy &policy);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_BLOCKDIMS_H
