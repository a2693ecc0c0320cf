//===- HappensBeforeTest.cpp - vector clocks over streams and events ------===//

#include "passes/streams/HappensBefore.h"

#include <gtest/gtest.h>

using geflow::passes::HappensBefore;

namespace {

TEST(HappensBefore, OneStreamIsItsOwnOrder) {
  HappensBefore order(1);
  auto a = order.addTask(0), b = order.addTask(0), c = order.addTask(0);
  EXPECT_TRUE(order.completesBefore(a, b));
  EXPECT_TRUE(order.completesBefore(a, c));
  EXPECT_TRUE(order.completesBefore(b, c));
  EXPECT_FALSE(order.completesBefore(b, a));
  EXPECT_FALSE(order.completesBefore(b, b));
  EXPECT_TRUE(order.completesBeforeNext(c, 0));
}

TEST(HappensBefore, StreamsWithoutEventsAreUnordered) {
  HappensBefore order(2);
  auto a = order.addTask(0), b = order.addTask(1);
  EXPECT_FALSE(order.completesBefore(a, b));
  EXPECT_FALSE(order.completesBefore(b, a));
  EXPECT_FALSE(order.completesBeforeNext(a, 1));
  EXPECT_EQ(order.streamOf(b), 1u);
}

TEST(HappensBefore, AWaitOrdersWhatTheRecordFollows) {
  HappensBefore order(2);
  auto a = order.addTask(0);
  order.recordEvent(0, 7);
  auto later0 = order.addTask(0); // after the record: not ordered
  EXPECT_TRUE(order.waitEvent(1, 7));
  auto b = order.addTask(1);
  EXPECT_TRUE(order.completesBefore(a, b));
  EXPECT_FALSE(order.completesBefore(later0, b));
  EXPECT_FALSE(order.completesBefore(b, later0));
}

TEST(HappensBefore, AWaitBindsToTheLatestRecordBeforeIt) {
  HappensBefore order(2);
  auto first = order.addTask(0);
  order.recordEvent(0, 0);
  EXPECT_TRUE(order.waitEvent(1, 0)); // binds to the first record
  auto early = order.addTask(1);
  auto second = order.addTask(0);
  order.recordEvent(0, 0);
  auto late = order.addTask(1);       // enqueued before the second wait
  EXPECT_TRUE(order.waitEvent(1, 0)); // binds to the second record
  auto after = order.addTask(1);
  EXPECT_TRUE(order.completesBefore(first, early));
  EXPECT_FALSE(order.completesBefore(second, early));
  EXPECT_FALSE(order.completesBefore(second, late));
  EXPECT_TRUE(order.completesBefore(second, after));
}

TEST(HappensBefore, AWaitWithoutARecordOrdersNothing) {
  HappensBefore order(2);
  auto a = order.addTask(0);
  EXPECT_FALSE(order.waitEvent(1, 3));
  auto b = order.addTask(1);
  EXPECT_FALSE(order.completesBefore(a, b));
}

TEST(HappensBefore, OrderIsTransitiveAcrossStreams) {
  HappensBefore order(3);
  auto a = order.addTask(0);
  order.recordEvent(0, 0);
  order.waitEvent(1, 0);
  auto b = order.addTask(1);
  order.recordEvent(1, 1);
  order.waitEvent(2, 1);
  auto c = order.addTask(2);
  EXPECT_TRUE(order.completesBefore(a, c));
  EXPECT_TRUE(order.completesBefore(b, c));
  EXPECT_TRUE(order.completesBeforeNext(a, 2));
  EXPECT_FALSE(order.completesBeforeNext(c, 0));
}

TEST(HappensBefore, WaitForTaskIsARecordRightAfterIt) {
  HappensBefore order(2);
  auto a = order.addTask(0);
  auto a2 = order.addTask(0);
  order.waitForTask(1, a);
  auto b = order.addTask(1);
  EXPECT_TRUE(order.completesBefore(a, b));
  EXPECT_FALSE(order.completesBefore(a2, b));
  // What `a` had waited for comes along.
  HappensBefore chain(3);
  auto x = chain.addTask(0);
  chain.waitForTask(1, x);
  auto y = chain.addTask(1);
  chain.waitForTask(2, y);
  auto z = chain.addTask(2);
  EXPECT_TRUE(chain.completesBefore(x, z));
}

// Event reduction (ge-insert-events and the makespan predictor): a stream
// that already waited for a later task of another stream needs no wait for an
// earlier one; its own order carries the first wait forward.
TEST(HappensBefore, OrderBeforeNextDropsWaitsTheStreamsOrderImplies) {
  HappensBefore order(2);
  auto a = order.addTask(0), b = order.addTask(0);
  EXPECT_TRUE(order.orderBeforeNext(b, 1));
  auto c = order.addTask(1);
  EXPECT_FALSE(order.orderBeforeNext(a, 1));
  EXPECT_FALSE(order.orderBeforeNext(b, 1));
  EXPECT_TRUE(order.completesBefore(a, c));
}

} // namespace
