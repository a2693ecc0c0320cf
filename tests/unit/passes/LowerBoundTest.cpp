//===- LowerBoundTest.cpp - the bound efficiency is measured against ------===//

#include "passes/streams/LowerBound.h"
#include "passes/streams/MakespanPredictor.h"
#include "tests/unit/passes/TaskGraphFixtures.h"

#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace geflow;
using passes::TaskGraph;
using passes::TaskNode;
using passes::fixtures::cubeKernel;

namespace {

// Two chained kernels beside a third and a no-task join: the critical path is
// the chain, each kernel alone on the chip; the work term is the three
// kernels' core time over the 24 cube cores; the join costs nothing.
TEST(LowerBound, CriticalPathAndEngineWork) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  rt::CostModel cost(spec);
  TaskGraph graph;
  graph.nodes = {cubeKernel({}), cubeKernel({0}), cubeKernel({}),
                 cubeKernel({1, 2}, 1e9, 1, /*noTask=*/true)};
  passes::LowerBound bound = passes::lowerBound(graph, spec);

  rt::KernelCost one{1e9, 0};
  double kernel = double(cost.kernelTimeNs(rt::Engine::kAic, one, 1, 1));
  EXPECT_DOUBLE_EQ(bound.criticalPathNs, 2 * kernel);
  // A kernel's blocks take this much core time at the least, whatever its
  // block dim (block times round to whole ns).
  double blockNs = double(cost.blockTimeNs(rt::Engine::kAic, one, 1));
  for (uint32_t b = 2; b <= spec.cubeCoreCnt; ++b)
    blockNs = std::min(blockNs, double(b) * double(cost.blockTimeNs(
                                                rt::Engine::kAic, one, b)));
  double coreNs = blockNs + double(cost.launchLatencyNs());
  EXPECT_DOUBLE_EQ(bound.engineWorkNs, 3 * coreNs / spec.cubeCoreCnt);
  EXPECT_DOUBLE_EQ(bound.ns(), 2 * kernel);
}

// A global core limit caps each kernel, not the chip (runtime/Scheduler.cpp
// grants a kernel at most its limit from the whole pool): kernels beside
// each other still share every core, so the work term stays; each kernel
// alone takes longer, so the critical path grows.
TEST(LowerBound, CoreLimitCapsEachKernelNotTheChip) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  TaskGraph graph;
  for (int i = 0; i < 48; ++i) {
    graph.nodes.push_back(cubeKernel({}));
    graph.nodes.back().blockDim = spec.cubeCoreCnt;
  }
  passes::LowerBound full = passes::lowerBound(graph, spec);
  passes::LowerBound limited = passes::lowerBound(graph, spec, 8, 0);
  EXPECT_DOUBLE_EQ(limited.engineWorkNs, full.engineWorkNs);
  EXPECT_GT(limited.criticalPathNs, full.criticalPathNs);
}

// Two cube kernels side by side on a chip with one cube core, then a vector
// kernel that needs both: the whole-graph terms (the longest chain, the cube
// work) each miss a part, the segments before and after the join -- a cut --
// add up to the best makespan of every stream assignment, which is exactly
// what the predictor finds over all 27.
TEST(LowerBound, SegmentsMeetTheBestOfEveryAssignment) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  spec.aiCoreCnt = spec.cubeCoreCnt = 1;
  spec.vectorCoreCnt = 2;
  TaskGraph graph;
  graph.nodes = {cubeKernel({}), cubeKernel({}), cubeKernel({0, 1})};
  // Block times are whole ns: with a multiple of lcm(1..24) ns of work, every
  // split of a kernel costs the same core time, so the bound is exact.
  double unitNs = 5354228880.0;
  double flopsPerNs = spec.cubeFlopsPerCycle * spec.clockMhz / 1000.0;
  graph.nodes[0].cost.flops = unitNs * flopsPerNs;
  graph.nodes[1].cost.flops = 3 * unitNs * flopsPerNs;
  graph.nodes[2].engine = rt::Engine::kAiv;
  graph.nodes[2].cost.flops = 1e6;
  passes::LowerBound bound = passes::lowerBound(graph, spec);
  EXPECT_EQ(bound.cuts, 1);
  EXPECT_GT(bound.segmentsNs,
            std::max(bound.criticalPathNs, bound.engineWorkNs));

  passes::MakespanPredictor predictor(spec);
  double best = 1e300;
  for (int code = 0; code < 27; ++code) {
    std::vector<int> streamOf = {code % 3, code / 3 % 3, code / 9};
    double ns = predictor.predictNs(graph, streamOf);
    ASSERT_GE(ns, 0);
    EXPECT_LE(bound.ns(), ns) << "streams " << code;
    best = std::min(best, ns);
  }
  EXPECT_DOUBLE_EQ(bound.ns(), best);
}

// Two cube kernels beside each other, each of 24 blocks' worth of work: the
// chain is one kernel, the least work is both kernels' blocks and one
// launch core each. Neither is reachable: a kernel that ends within a
// deadline near the chain holds its cores through its launch, and both
// together do not fit on the chip. The bound charges that launch wherever a
// deadline forces a one-wave split, and stays below the best block dims and
// streams the predictor finds.
TEST(LowerBound, DeadlinesChargeTheLaunchOfEveryCore) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  double flopsPerNs = spec.cubeFlopsPerCycle * spec.clockMhz / 1000.0;
  // 24 * 2400 ns of work: whole ns at every block dim that divides it.
  TaskGraph graph;
  graph.nodes = {cubeKernel({}, 57600 * flopsPerNs, spec.cubeCoreCnt),
                 cubeKernel({}, 57600 * flopsPerNs, spec.cubeCoreCnt)};
  passes::LowerBound bound = passes::lowerBound(graph, spec);
  EXPECT_GT(bound.segmentsNs,
            std::max(bound.criticalPathNs, bound.engineWorkNs));

  passes::MakespanPredictor predictor(spec);
  double best = 1e300;
  for (uint32_t a = 1; a <= spec.cubeCoreCnt; ++a)
    for (uint32_t b = 1; b <= spec.cubeCoreCnt; ++b) {
      TaskGraph trial = graph;
      trial.nodes[0].blockDim = a;
      trial.nodes[1].blockDim = b;
      for (const std::vector<int> &streamOf :
           {std::vector<int>{0, 0}, std::vector<int>{0, 1}})
        best = std::min(best, predictor.predictNs(trial, streamOf));
    }
  EXPECT_LE(bound.ns(), best);
}

// Random small graphs of cube and vector kernels, at random block dims up
// to the planned ones and on random streams: no prediction is below the
// bound of the planned graph.
TEST(LowerBound, NoRandomScheduleBeatsTheBound) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  rt::CostModel cost(spec);
  passes::MakespanPredictor predictor(spec);
  std::mt19937 random(18);
  auto uniform = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(random);
  };
  int tighter = 0;
  for (int trial = 0; trial < 300; ++trial) {
    TaskGraph graph;
    int n = uniform(2, 7);
    for (int i = 0; i < n; ++i) {
      std::vector<int> deps;
      for (int j = 0; j < i; ++j)
        if (uniform(0, 2) == 0)
          deps.push_back(j);
      passes::TaskNode node = cubeKernel(deps, std::pow(10.0, uniform(8, 11)));
      if (uniform(0, 3) == 0) {
        node.engine = rt::Engine::kAiv;
        node.cost.flops /= 100;
      }
      node.blockDim = cost.bestBlockDim(node.engine, node.cost,
                                        cost.engineCores(node.engine));
      graph.nodes.push_back(node);
    }
    passes::LowerBound bound = passes::lowerBound(graph, spec);
    tighter += bound.ns() > std::max(bound.criticalPathNs, bound.engineWorkNs);
    for (int schedule = 0; schedule < 20; ++schedule) {
      TaskGraph chosen = graph;
      std::vector<int> streamOf;
      for (passes::TaskNode &node : chosen.nodes) {
        node.blockDim = uint32_t(uniform(1, int(node.blockDim)));
        streamOf.push_back(uniform(0, 3));
      }
      double ns = predictor.predictNs(chosen, streamOf);
      ASSERT_GE(ns, 0);
      ASSERT_LE(bound.ns(), ns)
          << "trial " << trial << ", schedule " << schedule;
    }
  }
  EXPECT_GT(tighter, 0);
}

// A node is a cut when everything before it reaches it and it reaches
// everything after it: not a branch, not a node beside a second source.
TEST(LowerBound, CutsAreNodesOrderedWithAllOthers) {
  TaskGraph graph;
  // 0 -> {1, 2} -> 3 -> 4; 5 is a second source feeding 6 with 4.
  graph.nodes = {cubeKernel({}),     cubeKernel({0}), cubeKernel({0}),
                 cubeKernel({1, 2}), cubeKernel({3}), cubeKernel({}),
                 cubeKernel({4, 5})};
  std::vector<bool> cut = passes::findCuts(graph);
  EXPECT_EQ(
      cut, (std::vector<bool>{false, false, false, false, false, false, true}));
  graph.nodes[5].deps = {4}; // now a chain through 3 and 4
  // 4 -> 6 jumps over 5.
  EXPECT_EQ(passes::findCuts(graph),
            (std::vector<bool>{true, false, false, true, true, false, true}));
}

} // namespace
