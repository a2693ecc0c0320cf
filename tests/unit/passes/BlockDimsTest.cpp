//===- BlockDimsTest.cpp - fewer blocks for kernels that have slack -------===//
//
// passes/streams/BlockDims.h: a kernel beside the critical path gets the
// fewest blocks that still end it in time; the critical path keeps its
// planned block dims unless the policy leaves the kernels beside it a share
// of the cores; a cut keeps them always.
//
//===----------------------------------------------------------------------===//

#include "passes/streams/BlockDims.h"
#include "passes/streams/LowerBound.h"
#include "tests/unit/passes/TaskGraphFixtures.h"

#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

using namespace geflow;
using passes::TaskGraph;
using passes::TaskNode;
using passes::fixtures::cubeKernel;

namespace {

TEST(BlockDims, SlackBuysFewerBlocksBesideTheCriticalPath) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  rt::CostModel cost(spec);
  // 0 -> 1 is the critical path; 2 is small beside it; 3 joins all (a cut).
  TaskGraph graph;
  graph.nodes = {cubeKernel({}, 1e10, 24), cubeKernel({0}, 1e10, 24),
                 cubeKernel({}, 1e8, 24), cubeKernel({1, 2}, 1e10, 24)};
  std::vector<double> alone = passes::aloneTimesNs(graph, spec);

  std::vector<uint32_t> dims =
      passes::stretchBlockDims(graph, alone, cost, {1.0, 1.0});
  EXPECT_EQ(dims[0], 24u);
  EXPECT_EQ(dims[1], 24u);
  EXPECT_EQ(dims[2], 1u); // a 1e8-flop kernel on one core still ends in time
  EXPECT_EQ(dims[3], 24u);

  dims = passes::stretchBlockDims(graph, alone, cost, {1.0, 0.5});
  EXPECT_EQ(dims[0], 12u);
  EXPECT_EQ(dims[1], 12u);
  EXPECT_EQ(dims[3], 24u); // the cut has nothing beside it

  // Bottom levels: the longest path from each node's start to the end.
  std::vector<double> bottom = passes::bottomLevelsNs(graph, alone);
  EXPECT_DOUBLE_EQ(bottom[0], alone[0] + alone[1] + alone[3]);
  EXPECT_DOUBLE_EQ(bottom[2], alone[2] + alone[3]);
}

} // namespace
