//===- LowerBound.cpp - no schedule of a task graph is faster than this ---===//

#include "passes/streams/LowerBound.h"

#include "runtime/soc/CostModel.h"

#include <algorithm>
#include <array>

namespace geflow::passes {

namespace {

using GroupWork = std::array<double, rt::kNumCoreGroups>;

uint32_t limited(uint32_t cores, uint32_t limit) {
  return limit ? std::min(cores, limit) : cores;
}

/// What one node costs at the least in any schedule: its time alone on the
/// chip and the core time it occupies in each group.
struct NodeCost {
  double aloneNs = 0;
  GroupWork coreNs{};
};

/// The critical path and busiest group of a run of nodes, as one interval
/// must hold them.
struct Span {
  std::vector<double> finish; // per node, 0 outside the span
  double pathNs = 0;
  GroupWork work{};

  double ns(const GroupWork &groupCores) const {
    double ns = pathNs;
    for (int g = 0; g < rt::kNumCoreGroups; ++g)
      if (groupCores[g] > 0)
        ns = std::max(ns, work[g] / groupCores[g]);
    return ns;
  }
};

} // namespace

// A cut is a node every other node is ordered with: all before it in op
// order reach it, and it reaches all after it. Then no schedule starts
// anything after it before it ends, or it before everything ahead of it
// ends. In a topological order that holds exactly when no edge jumps over
// the node, no node before it is a sink and no node after it a source:
// following successors (predecessors) from any node then stays on the near
// side and ends at the cut.
std::vector<bool> findCuts(const TaskGraph &graph) {
  size_t n = graph.nodes.size();
  std::vector<size_t> lastSuccessor(n, 0);
  std::vector<bool> hasSuccessor(n, false);
  for (size_t i = 0; i < n; ++i)
    for (int dep : graph.nodes[i].deps) {
      lastSuccessor[dep] = std::max(lastSuccessor[dep], i);
      hasSuccessor[dep] = true;
    }
  std::vector<bool> sourceAfter(n + 1, false);
  for (size_t i = n; i-- > 0;)
    sourceAfter[i] = sourceAfter[i + 1] || graph.nodes[i].deps.empty();
  std::vector<bool> cut(n, false);
  size_t reach = 0;
  bool sinkBefore = false;
  for (size_t i = 0; i < n; ++i) {
    cut[i] = reach <= i && !sinkBefore && !sourceAfter[i + 1];
    reach = std::max(reach, lastSuccessor[i]);
    sinkBefore = sinkBefore || !hasSuccessor[i];
  }
  return cut;
}

std::vector<double> aloneTimesNs(const TaskGraph &graph,
                                 const rt::SocSpec &spec, uint32_t aicoreNum,
                                 uint32_t vectorcoreNum) {
  rt::CostModel cost(spec);
  std::vector<double> alone(graph.nodes.size(), 0);
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    const TaskNode &node = graph.nodes[i];
    if (node.noTask)
      continue;
    // The cores the kernel may use: the engine's, within its own limit (an
    // op's limit wins over the global one, as at run time).
    uint32_t cores = cost.engineCores(node.engine);
    if (node.engine == rt::Engine::kAiv)
      cores = limited(cores,
                      node.vectorcoreNum ? node.vectorcoreNum : vectorcoreNum);
    if (node.engine == rt::Engine::kAic || node.engine == rt::Engine::kMix)
      cores = limited(cores, node.aicoreNum ? node.aicoreNum : aicoreNum);
    alone[i] = double(cost.kernelTimeNs(node.engine, node.cost,
                                        std::max<uint32_t>(node.blockDim, 1),
                                        std::max<uint32_t>(cores, 1)));
  }
  return alone;
}

LowerBound lowerBound(const TaskGraph &graph, const rt::SocSpec &spec,
                      uint32_t aicoreNum, uint32_t vectorcoreNum) {
  rt::CostModel cost(spec);
  // The core limits cap each kernel (they are in its time alone), not the
  // chip: the scheduler grants a kernel at most its limit from the whole
  // pool, so kernels beside each other still share every core.
  GroupWork groupCores{};
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    groupCores[g] = cost.groupSize(rt::CoreGroup(g));

  size_t n = graph.nodes.size();
  std::vector<double> alone =
      aloneTimesNs(graph, spec, aicoreNum, vectorcoreNum);
  std::vector<NodeCost> costs(n);
  for (size_t i = 0; i < n; ++i) {
    const TaskNode &node = graph.nodes[i];
    if (node.noTask)
      continue;
    costs[i].aloneNs = alone[i];
    uint32_t blocks = std::max<uint32_t>(node.blockDim, 1);
    // Whatever block dim a schedule gives the kernel, its blocks take this
    // much core time at the least (block times round to whole ns), and its
    // launch holds one core or more.
    double blockCoreNs =
        double(blocks) *
        double(cost.blockTimeNs(node.engine, node.cost, blocks));
    for (uint32_t b = 1; b <= cost.engineCores(node.engine); ++b)
      blockCoreNs = std::min(
          blockCoreNs,
          double(b) * double(cost.blockTimeNs(node.engine, node.cost, b)));
    blockCoreNs += double(cost.launchLatencyNs());
    // Each engine's own group; MIX also takes mixVectorRatio() vector cores
    // per cube core.
    rt::CoreGroup group =
        node.engine == rt::Engine::kAiv     ? rt::CoreGroup::kVector
        : node.engine == rt::Engine::kAiCpu ? rt::CoreGroup::kAiCpu
        : node.engine == rt::Engine::kDvpp  ? rt::CoreGroup::kDvpp
                                            : rt::CoreGroup::kCube;
    costs[i].coreNs[int(group)] += blockCoreNs;
    if (node.engine == rt::Engine::kMix)
      costs[i].coreNs[int(rt::CoreGroup::kVector)] +=
          blockCoreNs * cost.mixVectorRatio();
  }

  // One sweep: the whole graph as one span, and the spans between cuts.
  // After a cut, nodes depend on nothing before it except the cut (no edge
  // jumps it), so the segment's finish times restart from the cut's.
  LowerBound bound;
  std::vector<bool> cut = findCuts(graph);
  Span whole, segment;
  whole.finish.assign(n, 0);
  segment.finish.assign(n, 0);
  auto add = [&](Span &span, size_t i) {
    double start = 0;
    for (int dep : graph.nodes[i].deps)
      start = std::max(start, span.finish[dep]);
    span.finish[i] = start + costs[i].aloneNs;
    span.pathNs = std::max(span.pathNs, span.finish[i]);
    for (int g = 0; g < rt::kNumCoreGroups; ++g)
      span.work[g] += costs[i].coreNs[g];
  };
  for (size_t i = 0; i < n; ++i) {
    add(whole, i);
    if (!cut[i]) {
      add(segment, i);
      continue;
    }
    // Everything since the last cut ran between it and this one.
    bound.segmentsNs += segment.ns(groupCores) + costs[i].aloneNs;
    ++bound.cuts;
    segment.pathNs = 0;
    segment.work.fill(0);
    segment.finish[i] = 0;
  }
  bound.segmentsNs += segment.ns(groupCores);
  bound.criticalPathNs = whole.pathNs;
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    if (groupCores[g] > 0)
      bound.engineWorkNs =
          std::max(bound.engineWorkNs, whole.work[g] / groupCores[g]);
  return bound;
}

} // namespace geflow::passes
