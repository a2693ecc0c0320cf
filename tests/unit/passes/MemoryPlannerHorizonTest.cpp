//===- MemoryPlannerHorizonTest.cpp - horizons change no placement --------===//
//
// The planner compares only buffers whose [horizon, lastUse] spans overlap
// (MemoryPlanner.h). A horizon of 0 compares every pair, as the planner did
// before it had horizons; on random task lists of one to four streams, with
// random events, the horizons must give exactly the same offsets.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "passes/emit/MemoryPlanner.h"

#include <random>

using namespace geflow::passes;

namespace {

struct RandomSchedule {
  HappensBefore order;
  std::vector<std::vector<int64_t>> streamPositions;
  std::vector<BufferRequest> requests;
};

/// Task k sits at position k + 1 on a random stream, after a random wait;
/// buffer k is written by task k and read by up to three later tasks.
RandomSchedule makeSchedule(std::mt19937 &rng, uint32_t streams, int tasks) {
  RandomSchedule s{HappensBefore(streams), {}, {}};
  s.streamPositions.resize(streams);
  std::uniform_int_distribution<uint32_t> stream(0, streams - 1);
  for (int k = 0; k < tasks; ++k) {
    uint32_t on = stream(rng);
    if (k > 0 && rng() % 3 == 0)
      s.order.waitForTask(on, HappensBefore::TaskId(rng() % k));
    s.order.addTask(on);
    s.streamPositions[on].push_back(k + 1);
  }
  for (int k = 0; k + 1 < tasks; ++k) {
    BufferRequest r;
    r.size = 64 * (1 + rng() % 16);
    r.def = r.lastUse = k + 1;
    r.writer = HappensBefore::TaskId(k);
    int readers = 1 + int(rng() % 3);
    for (int i = 0; i < readers; ++i) {
      // Mostly near, sometimes far: long-lived buffers cross many others.
      int span = rng() % 8 == 0 ? tasks : 6;
      int reader = std::min(tasks - 1, k + 1 + int(rng() % span));
      r.readers.push_back(HappensBefore::TaskId(reader));
      r.lastUse = std::max<int64_t>(r.lastUse, reader + 1);
    }
    s.requests.push_back(r);
  }
  return s;
}

TEST(MemoryPlannerHorizon, SamePlacementAsComparingEveryPair) {
  std::mt19937 rng(20);
  for (int trial = 0; trial < 60; ++trial) {
    uint32_t streams = 1 + trial % 4;
    RandomSchedule s = makeSchedule(rng, streams, 40 + trial * 3);
    MemoryPlanOptions options;
    options.orderedBefore = orderedByHappensBefore(s.order);
    MemoryPlanResult everyPair = planBuffers(s.requests, options);

    std::vector<BufferRequest> bounded = s.requests;
    for (BufferRequest &r : bounded) {
      r.horizon = orderedHorizon(s.order, r.writer, s.streamPositions);
      EXPECT_LE(r.horizon, r.def);
    }
    MemoryPlanResult withHorizons = planBuffers(bounded, options);
    EXPECT_EQ(withHorizons.offsets, everyPair.offsets) << "trial " << trial;
    EXPECT_EQ(withHorizons.workspaceSize, everyPair.workspaceSize);
  }
}

TEST(MemoryPlannerHorizon, OneStreamHorizonIsTheDef) {
  std::mt19937 rng(7);
  RandomSchedule s = makeSchedule(rng, 1, 300);
  MemoryPlanResult everyPair = planBuffers(s.requests);
  std::vector<BufferRequest> bounded = s.requests;
  for (BufferRequest &r : bounded) {
    EXPECT_EQ(orderedHorizon(s.order, r.writer, s.streamPositions), r.def);
    r.horizon = r.def;
  }
  EXPECT_EQ(planBuffers(bounded).offsets, everyPair.offsets);
}

} // namespace
