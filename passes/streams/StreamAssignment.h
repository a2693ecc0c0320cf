//===- StreamAssignment.h - logical streams for a task graph ----*- C++ -*-===//
//
// Pipeline step 6 (docs/architecture.md) without MLIR: which logical stream
// each node goes to.
//
//   single  every node on stream 0.
//   label   one stream per user label (same tag, same stream), the rest on 0.
//   auto    labels first; nodes of engines that run apart from the AI cores
//           (AICPU, DVPP) on a stream per engine; then GE's assignment by
//           dependency, critical path first: a node continues the stream of
//           a predecessor whose heir it is (the successor with the longest
//           path to the end), otherwise it opens a stream (at most
//           `maxParallelPerEngine` per engine, after which the one whose
//           work ends first is reused). Inside a label
//           whose `_enable_inner_parallel` is true the split opens streams of
//           that label. Then, as GE's OptimizeIneffectiveMultiStreamPass,
//           every opened stream is merged back into the stream it forked from
//           unless it shortens the predicted makespan by at least `minGain`
//           of its own work (the sum of its kernels' times alone), and the
//           whole split is dropped unless it beats the labels-only
//           assignment by `minGain`: `auto` is never predicted slower.
//           Last, twice: each join moves onto the stream of the input the
//           simulation ends last (all at once, then the longest-waiting
//           ones one at a time), and kernels with slack get fewer blocks
//           (passes/streams/BlockDims.h), each kept only where it pays.
//
// Ids are compacted at the end: the main stream is 0, the others follow in
// order of their first node.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_STREAMASSIGNMENT_H
#define GEFLOW_PASSES_STREAMS_STREAMASSIGNMENT_H

#include "passes/StreamMode.h"
#include "passes/streams/MakespanPredictor.h"
#include "passes/streams/TaskGraph.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace geflow::passes {

struct StreamAssignmentOptions {
  StreamMode mode = StreamMode::kAuto;
  /// At most this many streams (0: no cap); auto merges its own streams to
  /// fit, user labels that do not fit are an error.
  uint32_t maxStreams = 0;
  /// GE's max_parallel_num: streams the dependency split may open per engine.
  uint32_t maxParallelPerEngine = 8;
  /// Smallest relative makespan gain for which auto keeps a stream.
  double minGain = 0.02;
  /// How many joins, the longest-waiting first, auto tries to move onto
  /// their latest input's stream one at a time (per round of rejoins).
  size_t singleRejoins = 4;
};

struct StreamAssignment {
  std::vector<int> streamOf; // per node, compacted to 0..streamCount-1
  int streamCount = 0;
  /// Auto only, when fewer blocks pay (passes/streams/BlockDims.h): each
  /// node's block dim; empty keeps the planned ones.
  std::vector<uint32_t> blockDimOf;
  /// Predicted makespans (auto only; 0 otherwise): everything on one
  /// stream, labels only, and the chosen assignment.
  double singleNs = 0;
  double labelsOnlyNs = 0;
  double chosenNs = 0;
};

/// Errors are one line without a location; the caller adds the node.
llvm::Expected<StreamAssignment>
assignStreams(const TaskGraph &graph, const StreamAssignmentOptions &options,
              MakespanPredictor &predictor);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_STREAMASSIGNMENT_H
