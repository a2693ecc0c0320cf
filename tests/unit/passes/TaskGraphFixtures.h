//===- TaskGraphFixtures.h - hand-built stream-test graphs ------*- C++ -*-===//
//
// The nodes the stream-pass unit tests (LowerBound, BlockDims) build their
// small graphs from.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_PASSES_TASKGRAPHFIXTURES_H
#define GEFLOW_TESTS_UNIT_PASSES_TASKGRAPHFIXTURES_H

#include "passes/streams/TaskGraph.h"

#include <vector>

namespace geflow::passes::fixtures {

/// A cube kernel of `flops` planned on `blockDim` blocks after `deps`; with
/// `noTask`, a view or in-place join that launches nothing.
inline TaskNode cubeKernel(std::vector<int> deps, double flops = 1e9,
                           uint32_t blockDim = 1, bool noTask = false) {
  TaskNode node;
  node.engine = rt::Engine::kAic;
  node.cost.flops = flops;
  node.blockDim = blockDim;
  node.deps = std::move(deps);
  node.noTask = noTask;
  return node;
}

} // namespace geflow::passes::fixtures

#endif // GEFLOW_TESTS_UNIT_PASSES_TASKGRAPHFIXTURES_H
