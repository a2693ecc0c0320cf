//===- LowerBoundTest.cpp - the bound efficiency is measured against ------===//

#include "passes/streams/LowerBound.h"

#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

using namespace geflow;
using passes::TaskGraph;
using passes::TaskNode;

namespace {

TaskNode cubeKernel(std::vector<int> deps, bool noTask = false) {
  TaskNode node;
  node.engine = rt::Engine::kAic;
  node.cost.flops = 1e9;
  node.deps = std::move(deps);
  node.noTask = noTask;
  return node;
}

// Two chained kernels beside a third and a no-task join: the critical path is
// the chain, each kernel alone on the chip; the work term is the three
// kernels' core time over the 24 cube cores; the join costs nothing.
TEST(LowerBound, CriticalPathAndEngineWork) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  rt::CostModel cost(spec);
  TaskGraph graph;
  graph.nodes = {cubeKernel({}), cubeKernel({0}), cubeKernel({}),
                 cubeKernel({1, 2}, /*noTask=*/true)};
  passes::LowerBound bound = passes::lowerBound(graph, spec);

  rt::KernelCost one{1e9, 0};
  double kernel = double(cost.kernelTimeNs(rt::Engine::kAic, one, 1, 1));
  EXPECT_DOUBLE_EQ(bound.criticalPathNs, 2 * kernel);
  double coreNs = double(cost.blockTimeNs(rt::Engine::kAic, one, 1)) +
                  double(cost.launchLatencyNs());
  EXPECT_DOUBLE_EQ(bound.engineWorkNs, 3 * coreNs / spec.cubeCoreCnt);
  EXPECT_DOUBLE_EQ(bound.ns(), 2 * kernel);
}

// A global core limit shrinks the group the work is spread over.
TEST(LowerBound, CoreLimitRaisesTheWorkTerm) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  TaskGraph graph;
  for (int i = 0; i < 48; ++i)
    graph.nodes.push_back(cubeKernel({}));
  double full = passes::lowerBound(graph, spec).engineWorkNs;
  double limited = passes::lowerBound(graph, spec, 8, 0).engineWorkNs;
  EXPECT_DOUBLE_EQ(limited, full * spec.cubeCoreCnt / 8);
}

} // namespace
