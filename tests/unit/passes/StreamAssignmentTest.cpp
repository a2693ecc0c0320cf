//===- StreamAssignmentTest.cpp - auto's rejoins on inception chains ------===//
//
// passes/streams/StreamAssignment.h: after every join moves at once onto
// its latest input's stream, the joins that wait longest move one at a
// time. On chains of inception-like modules (four branches, one through a
// vector pool, joined by an in-place Concat), that step is never predicted
// slower, and it is faster on some.
//
//===----------------------------------------------------------------------===//

#include "passes/streams/StreamAssignment.h"
#include "tests/unit/passes/TaskGraphFixtures.h"

#include "runtime/soc/CostModel.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace geflow;
using passes::TaskGraph;
using passes::TaskNode;
using passes::fixtures::cubeKernel;

namespace {

/// A stem kernel, `modules` modules of branches {1x1}, {1x1, 3x3},
/// {1x1, 3x3}, {pool, 1x1} of random sizes, each joined by a no-task
/// Concat, and a head kernel: every node at its best block dim.
TaskGraph inceptionChain(std::mt19937 &random, int modules,
                         const rt::CostModel &cost) {
  TaskGraph graph;
  auto add = [&](rt::Engine engine, std::vector<int> deps,
                 bool noTask = false) {
    double flops = std::pow(
        10.0, std::uniform_real_distribution<double>(8.5, 10.5)(random));
    TaskNode node = cubeKernel(std::move(deps), flops, 1, noTask);
    node.engine = engine;
    if (engine == rt::Engine::kAiv)
      node.cost.flops /= 50; // a pool: little work, on the vector cores
    node.blockDim =
        cost.bestBlockDim(engine, node.cost, cost.engineCores(engine));
    graph.nodes.push_back(node);
    return int(graph.nodes.size()) - 1;
  };
  const rt::Engine cube = rt::Engine::kAic, vector = rt::Engine::kAiv;
  int join = add(cube, {});
  for (int m = 0; m < modules; ++m) {
    int oneByOne = add(cube, {join});
    int threeByThree = add(cube, {add(cube, {join})});
    int fiveByFive = add(cube, {add(cube, {join})});
    int pooled = add(cube, {add(vector, {join})});
    join = add(cube, {oneByOne, threeByThree, fiveByFive, pooled},
               /*noTask=*/true);
  }
  add(cube, {join});
  return graph;
}

TEST(StreamAssignment, JoinsMovedOneAtATimeNeverLose) {
  rt::SocSpec spec;
  ASSERT_TRUE(rt::loadSocSpec("ascend910b-sim", spec).isOk());
  rt::CostModel cost(spec);
  passes::MakespanPredictor predictor(spec);
  passes::StreamAssignmentOptions allAtOnce;
  allAtOnce.singleRejoins = 0;
  int faster = 0;
  for (int seed = 0; seed < 100; ++seed) {
    std::mt19937 random(seed);
    TaskGraph graph = inceptionChain(random, 6 + seed % 2, cost);
    auto withSingles = passes::assignStreams(graph, {}, predictor);
    auto without = passes::assignStreams(graph, allAtOnce, predictor);
    ASSERT_TRUE(withSingles && without);
    EXPECT_LE(withSingles->chosenNs, without->chosenNs) << "seed " << seed;
    faster += withSingles->chosenNs < without->chosenNs;
  }
  EXPECT_GT(faster, 0);
}

} // namespace
