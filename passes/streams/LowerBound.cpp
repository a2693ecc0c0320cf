//===- LowerBound.cpp - no schedule of a task graph is faster than this ---===//

#include "passes/streams/LowerBound.h"

#include "runtime/soc/CostModel.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <array>
#include <limits>

namespace geflow::passes {

namespace {

using GroupWork = std::array<double, rt::kNumCoreGroups>;

constexpr double kNever = std::numeric_limits<double>::infinity();

uint32_t limited(uint32_t cores, uint32_t limit) {
  return limit ? std::min(cores, limit) : cores;
}

/// The least core time a kernel holds when it must end within a given
/// duration, over every block dim and every grant the scheduler may give it
/// (runtime/Scheduler.cpp): b blocks of blockTimeNs(b) = t each, one wave
/// per grant, and the launch latency on every core of the first wave. In one
/// wave (all b cores at once) it takes launch + t and holds b * (launch + t);
/// in more it takes launch + 2t or longer and holds b * t + launch at the
/// least. A kernel beside others must end early enough for its path, so it
/// cannot always take the cheap many-block split without the launch cost.
class LeastCoreTime {
public:
  LeastCoreTime() = default;
  LeastCoreTime(const rt::CostModel &cost, const TaskNode &node) {
    double launch = double(cost.launchLatencyNs());
    uint32_t cores = std::max<uint32_t>(cost.engineCores(node.engine), 1);
    // Auto gives a kernel at most its planned block dim; the planned one
    // may exceed the cores (then it needs several waves).
    uint32_t most = std::max(cores, node.blockDim);
    std::vector<std::pair<double, double>> splits; // (duration, core time)
    for (uint32_t b = 1; b <= most; ++b) {
      double t = double(cost.blockTimeNs(node.engine, node.cost, b));
      uint32_t leastWaves = (b + cores - 1) / cores;
      if (leastWaves == 1)
        splits.push_back({launch + t, b * (launch + t)});
      if (b > 1)
        splits.push_back(
            {launch + std::max<uint32_t>(leastWaves, 2) * t, b * t + launch});
    }
    llvm::sort(splits);
    for (auto [durationNs, coreNs] : splits)
      if (steps_.empty() || coreNs < steps_.back().second)
        steps_.push_back({durationNs, coreNs});
  }

  /// kNever when no split ends within `durationNs`. Durations are whole ns;
  /// the tolerance keeps rounding in the caller's sums from losing a split.
  double within(double durationNs) const {
    auto after =
        llvm::upper_bound(steps_, durationNs + 1e-6,
                          [](double d, const std::pair<double, double> &step) {
                            return d < step.first;
                          });
    return after == steps_.begin() ? kNever : std::prev(after)->second;
  }
  /// Without a deadline.
  double least() const { return steps_.empty() ? 0 : steps_.back().second; }
  /// The longest duration that still lowers the core time.
  double slowestNs() const { return steps_.empty() ? 0 : steps_.back().first; }

private:
  std::vector<std::pair<double, double>> steps_; // duration up, core time down
};

/// What one node costs at the least in any schedule: its time alone on the
/// chip and, in each core group, a factor on its LeastCoreTime (0 where it
/// holds no core of the group; a MIX block holds mixVectorRatio() vector
/// cores per cube core).
struct NodeCost {
  double aloneNs = 0;
  LeastCoreTime coreTime;
  GroupWork share{};

  double coreNs(int group, double withinNs) const {
    return share[group] > 0 ? share[group] * coreTime.within(withinNs) : 0;
  }
};

/// The shortest interval that holds the nodes [first, last) of a segment,
/// which depend on nothing outside it but the cut before it: at least its
/// critical path, and long enough for its cores to hold every kernel at the
/// least core time that still ends the kernel in time. With the interval T,
/// a node that starts `start` into it at the earliest and has a chain of
/// `tail` after it must take at most T - start - tail, which bounds its core
/// time from below; the sum per group must fit in cores x T. The sum falls
/// as T grows, so a bisection finds the least T that fits; it returns an
/// infeasible T just below, so the result stays a bound.
double segmentNs(const TaskGraph &graph, const std::vector<NodeCost> &costs,
                 const GroupWork &groupCores, size_t first, size_t last) {
  if (first >= last)
    return 0;
  std::vector<double> start(last - first, 0), tail(last - first, 0);
  for (size_t i = first; i < last; ++i)
    for (int dep : graph.nodes[i].deps)
      if (size_t(dep) >= first)
        start[i - first] =
            std::max(start[i - first], start[dep - first] + costs[dep].aloneNs);
  double pathNs = 0, slowestNs = 0;
  GroupWork leastWork{};
  for (size_t i = last; i-- > first;) {
    const NodeCost &node = costs[i];
    for (int dep : graph.nodes[i].deps)
      if (size_t(dep) >= first)
        tail[dep - first] =
            std::max(tail[dep - first], node.aloneNs + tail[i - first]);
    pathNs =
        std::max(pathNs, start[i - first] + node.aloneNs + tail[i - first]);
    slowestNs = std::max(slowestNs, node.coreTime.slowestNs());
    for (int g = 0; g < rt::kNumCoreGroups; ++g)
      leastWork[g] += node.share[g] * node.coreTime.least();
  }
  auto fits = [&](double intervalNs) {
    GroupWork work{};
    for (size_t i = first; i < last; ++i) {
      double withinNs = intervalNs - start[i - first] - tail[i - first];
      for (int g = 0; g < rt::kNumCoreGroups; ++g)
        work[g] += costs[i].coreNs(g, withinNs);
    }
    for (int g = 0; g < rt::kNumCoreGroups; ++g)
      if (groupCores[g] > 0 && work[g] > groupCores[g] * intervalNs)
        return false;
    return true;
  };
  // Below `low` nothing fits (the path, or the work without deadlines,
  // does not); at `high` every node has time for its cheapest split.
  double low = pathNs, high = pathNs + slowestNs;
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    if (groupCores[g] > 0) {
      low = std::max(low, leastWork[g] / groupCores[g]);
      high = std::max(high, leastWork[g] / groupCores[g]);
    }
  if (fits(low))
    return low;
  for (int step = 0; step < 50 && high - low > 1e-3; ++step) {
    double mid = (low + high) / 2;
    (fits(mid) ? high : low) = mid;
  }
  return low;
}

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
    costs[i].coreTime = LeastCoreTime(cost, node);
    // Each engine's own group; MIX also takes mixVectorRatio() vector cores
    // per cube core.
    rt::CoreGroup group =
        node.engine == rt::Engine::kAiv     ? rt::CoreGroup::kVector
        : node.engine == rt::Engine::kAiCpu ? rt::CoreGroup::kAiCpu
        : node.engine == rt::Engine::kDvpp  ? rt::CoreGroup::kDvpp
                                            : rt::CoreGroup::kCube;
    costs[i].share[int(group)] = 1;
    if (node.engine == rt::Engine::kMix)
      costs[i].share[int(rt::CoreGroup::kVector)] = cost.mixVectorRatio();
  }

  // The whole graph: its longest chain and its least work per group.
  LowerBound bound;
  std::vector<double> finish(n, 0);
  GroupWork work{};
  for (size_t i = 0; i < n; ++i) {
    double start = 0;
    for (int dep : graph.nodes[i].deps)
      start = std::max(start, finish[dep]);
    finish[i] = start + costs[i].aloneNs;
    bound.criticalPathNs = std::max(bound.criticalPathNs, finish[i]);
    for (int g = 0; g < rt::kNumCoreGroups; ++g)
      work[g] += costs[i].share[g] * costs[i].coreTime.least();
  }
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    if (groupCores[g] > 0)
      bound.engineWorkNs =
          std::max(bound.engineWorkNs, work[g] / groupCores[g]);

  // The segments between cuts, each in its own interval, and the cuts alone.
  // After a cut, nodes depend on nothing before it except the cut (no edge
  // jumps it), so each segment starts from the cut's end.
  std::vector<bool> cut = findCuts(graph);
  size_t first = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!cut[i])
      continue;
    bound.segmentsNs +=
        segmentNs(graph, costs, groupCores, first, i) + costs[i].aloneNs;
    ++bound.cuts;
    first = i + 1;
  }
  bound.segmentsNs += segmentNs(graph, costs, groupCores, first, n);
  return bound;
}

} // namespace geflow::passes
