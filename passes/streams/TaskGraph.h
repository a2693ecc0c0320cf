//===- TaskGraph.h - the compute ops as stream assignment sees them -*- C++
//-*-===//
//
// Stream assignment and the makespan predictor work on this MLIR-free view of
// a function: one node per compute op, in op order (a topological order), with
// what the hardware scheduler needs to time it and the nodes it must follow.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_TASKGRAPH_H
#define GEFLOW_PASSES_STREAMS_TASKGRAPH_H

#include "runtime/soc/CostModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::passes {

struct TaskNode {
  std::string name; // for error messages
  rt::Engine engine = rt::Engine::kAiv;
  uint32_t blockDim = 1;
  rt::KernelCost cost;
  /// The op's own core limits (0: none).
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  /// Earlier nodes whose results (or, through npu_wait_tensor, whose
  /// completion) this node waits for; block arguments and constants are not
  /// nodes.
  std::vector<int> deps;
  /// Index into TaskGraph::labels, or -1 for ops outside every user stream.
  int label = -1;
  /// `_enable_inner_parallel`: the automatic split may use several streams
  /// inside the label's scope.
  bool innerParallel = true;
  int64_t priority = 0;
  /// A view or in-place op (passes/emit/NoTaskOps.h): no kernel, only the
  /// ordering its position on the stream gives.
  bool noTask = false;
};

struct TaskGraph {
  std::vector<TaskNode> nodes;
  /// User stream labels in order of first appearance.
  std::vector<std::string> labels;
};

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_TASKGRAPH_H
