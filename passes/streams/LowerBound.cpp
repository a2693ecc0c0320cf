//===- LowerBound.cpp - no schedule of a task graph is faster than this ---===//

#include "passes/streams/LowerBound.h"

#include "runtime/soc/CostModel.h"

#include <algorithm>
#include <array>

namespace geflow::passes {

LowerBound lowerBound(const TaskGraph &graph, const rt::SocSpec &spec,
                      uint32_t aicoreNum, uint32_t vectorcoreNum) {
  rt::CostModel cost(spec);
  auto limited = [](uint32_t cores, uint32_t limit) {
    return limit ? std::min(cores, limit) : cores;
  };
  std::array<double, rt::kNumCoreGroups> groupCores{};
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    groupCores[g] = cost.groupSize(rt::CoreGroup(g));
  groupCores[int(rt::CoreGroup::kCube)] =
      limited(uint32_t(groupCores[int(rt::CoreGroup::kCube)]), aicoreNum);
  groupCores[int(rt::CoreGroup::kVector)] =
      limited(uint32_t(groupCores[int(rt::CoreGroup::kVector)]), vectorcoreNum);

  LowerBound bound;
  std::array<double, rt::kNumCoreGroups> work{};
  std::vector<double> finish(graph.nodes.size(), 0);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const TaskNode &node = graph.nodes[i];
    double start = 0;
    for (int dep : node.deps)
      start = std::max(start, finish[dep]);
    finish[i] = start;
    if (node.noTask)
      continue;
    // The cores the kernel may use: the engine's, within its own limit (an
    // op's limit wins over the global one, as at run time).
    uint32_t cores = cost.engineCores(node.engine);
    bool vector = node.engine == rt::Engine::kAiv;
    bool cube =
        node.engine == rt::Engine::kAic || node.engine == rt::Engine::kMix;
    if (vector)
      cores = limited(cores,
                      node.vectorcoreNum ? node.vectorcoreNum : vectorcoreNum);
    if (cube)
      cores = limited(cores, node.aicoreNum ? node.aicoreNum : aicoreNum);
    uint32_t blocks = std::max<uint32_t>(node.blockDim, 1);
    finish[i] += double(cost.kernelTimeNs(node.engine, node.cost, blocks,
                                          std::max<uint32_t>(cores, 1)));
    bound.criticalPathNs = std::max(bound.criticalPathNs, finish[i]);

    double blockCoreNs =
        double(blocks) *
            double(cost.blockTimeNs(node.engine, node.cost, blocks)) +
        double(cost.launchLatencyNs());
    // Each engine's own group; MIX also takes mixVectorRatio() vector cores
    // per cube core.
    rt::CoreGroup group =
        node.engine == rt::Engine::kAiv     ? rt::CoreGroup::kVector
        : node.engine == rt::Engine::kAiCpu ? rt::CoreGroup::kAiCpu
        : node.engine == rt::Engine::kDvpp  ? rt::CoreGroup::kDvpp
                                            : rt::CoreGroup::kCube;
    work[int(group)] += blockCoreNs;
    if (node.engine == rt::Engine::kMix)
      work[int(rt::CoreGroup::kVector)] += blockCoreNs * cost.mixVectorRatio();
  }
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    if (groupCores[g] > 0)
      bound.engineWorkNs =
          std::max(bound.engineWorkNs, work[g] / groupCores[g]);
  return bound;
}

} // namespace geflow::passes
