//===- LowerBoundTest.cpp - the bound efficiency is measured against ------===//

#include "passes/streams/LowerBound.h"
#include "passes/streams/MakespanPredictor.h"
#include "tests/unit/passes/TaskGraphFixtures.h"

#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

#include <algorithm>

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
