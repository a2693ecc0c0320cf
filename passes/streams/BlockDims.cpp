//===- BlockDims.cpp - fewer blocks for kernels that have slack -----------===//

#include "passes/streams/BlockDims.h"

#include "passes/streams/LowerBound.h"

#include <algorithm>

namespace geflow::passes {

std::vector<double> bottomLevelsNs(const TaskGraph &graph,
                                   const std::vector<double> &alone) {
  size_t n = graph.nodes.size();
  std::vector<double> tail(n, 0), bottom(n, 0);
  for (size_t j = n; j-- > 0;) {
    bottom[j] = alone[j] + tail[j];
    for (int dep : graph.nodes[j].deps)
      tail[dep] = std::max(tail[dep], bottom[j]);
  }
  return bottom;
}

std::vector<uint32_t> stretchBlockDims(const TaskGraph &graph,
                                       const std::vector<double> &alone,
                                       const rt::CostModel &cost,
                                       const BlockDimPolicy &policy) {
  size_t n = graph.nodes.size();
  std::vector<double> bottom = bottomLevelsNs(graph, alone);
  std::vector<bool> cut = findCuts(graph);
  double criticalPath = 0;
  for (double b : bottom)
    criticalPath = std::max(criticalPath, b);
  // A non-critical branch that ends later than this before its join makes
  // the join wait for its event.
  double margin = double(cost.eventLatencyNs());

  std::vector<uint32_t> blockDims(n);
  std::vector<double> finish(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const TaskNode &node = graph.nodes[i];
    uint32_t planned = std::max<uint32_t>(node.blockDim, 1);
    blockDims[i] = planned;
    double start = 0;
    for (int dep : node.deps)
      start = std::max(start, finish[dep]);
    finish[i] = start + alone[i];
    bool aiCore = node.engine == rt::Engine::kAic ||
                  node.engine == rt::Engine::kAiv ||
                  node.engine == rt::Engine::kMix;
    if (node.noTask || !aiCore || planned == 1)
      continue;
    // A kernel with others beside it leaves them a share of the cores even
    // on the critical path; a cut has nothing beside it.
    uint32_t most = planned;
    if (!cut[i] && node.engine != rt::Engine::kAiv)
      most = std::max<uint32_t>(
          1, std::min(planned, uint32_t(policy.coreShare *
                                        cost.engineCores(node.engine))));
    // Ending by `latest` keeps every path through the node within the
    // critical path; the walk so far has kept start <= latest - alone.
    double latest = criticalPath - (bottom[i] - alone[i]) - margin;
    double budget =
        alone[i] + policy.slackShare * std::max(0.0, latest - finish[i]);
    blockDims[i] = most;
    finish[i] =
        start + double(cost.kernelTimeNs(node.engine, node.cost, most, most));
    for (uint32_t b = 1; b < most; ++b) {
      double ns = double(cost.kernelTimeNs(node.engine, node.cost, b, b));
      if (ns <= budget) {
        blockDims[i] = b;
        finish[i] = start + ns;
        break;
      }
    }
  }
  return blockDims;
}

} // namespace geflow::passes
