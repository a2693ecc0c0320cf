//===- FaultTest.cpp - Deadlocks and kernel failures ----------------------===//
#include "RuntimeTestUtil.h"

#include <atomic>
#include <chrono>

using namespace geflow::rt;
using namespace geflow::rt::test;

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
      .count();
}

} // namespace

TEST(Deadlock, WaitOnAnEventNobodyRecordsIsReportedQuickly) {
  auto dev = makeDevice();
  Stream *s;
  ASSERT_OK(dev->createStream(0, &s));
  Event *e;
  ASSERT_OK(dev->createEvent(&e));
  ASSERT_OK(dev->launchKernel(s, kernel("before", Engine::kAic, 1, 10)));
  ASSERT_OK(dev->streamWaitEvent(s, e));
  ASSERT_OK(dev->launchKernel(s, kernel("after", Engine::kAic, 1, 10)));
  auto t0 = std::chrono::steady_clock::now();
  Status st = dev->synchronizeStream(s);
  EXPECT_LT(secondsSince(t0), 1.0);
  EXPECT_EQ(st.code(), StatusCode::kDeadlock);
  EXPECT_EQ(st.message(),
            "synchronize stream 1: deadlock at 10 us: stream 1 waits on event "
            "0 (record #1), which is never recorded");
  // Other streams are unaffected.
  ASSERT_OK(dev->launchKernel(nullptr, kernel("free", Engine::kAic, 1, 10)));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  // Recording the event later releases the stream.
  ASSERT_OK(dev->recordEvent(e, nullptr));
  ASSERT_OK(dev->synchronizeStream(s));
}

// Found by tests/fuzz (geflow-fuzz-runtime): work enqueued behind a wait that
// was already reported as a deadlock made the next synchronize spin forever.
TEST(Deadlock, WorkQueuedBehindAReportedDeadlockIsReportedAgain) {
  auto dev = makeDevice();
  Event *e;
  ASSERT_OK(dev->createEvent(&e));
  ASSERT_OK(dev->streamWaitEvent(nullptr, e));
  EXPECT_EQ(dev->synchronizeStream(nullptr).code(), StatusCode::kDeadlock);
  ASSERT_OK(dev->launchCallback(nullptr, [] {}));
  ASSERT_OK(dev->launchKernel(nullptr, kernel("after", Engine::kAiv, 1, 10)));
  auto t0 = std::chrono::steady_clock::now();
  Status st = dev->synchronizeDevice();
  EXPECT_LT(secondsSince(t0), 1.0);
  EXPECT_EQ(st.code(), StatusCode::kDeadlock);
  EXPECT_NE(st.message().find("waits on event 0"), std::string::npos)
      << st.message();
  ASSERT_OK(dev->recordEvent(e, nullptr));
  // The record queues behind the wait on the same stream: still stuck.
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDeadlock);
}

TEST(Deadlock, CycleOfWaitsNamesBothStreamsAndEvents) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  Event *e0, *e1;
  ASSERT_OK(dev->createEvent(&e0));
  ASSERT_OK(dev->createEvent(&e1));
  ASSERT_OK(dev->streamWaitEvent(a, e1)); // a waits for b's record
  ASSERT_OK(dev->recordEvent(e0, a));
  ASSERT_OK(dev->streamWaitEvent(b, e0)); // b waits for a's record
  ASSERT_OK(dev->recordEvent(e1, b));
  auto t0 = std::chrono::steady_clock::now();
  Status st = dev->synchronizeDevice();
  EXPECT_LT(secondsSince(t0), 1.0);
  EXPECT_EQ(st.code(), StatusCode::kDeadlock);
  EXPECT_NE(st.message().find("stream 1 waits on event 1 (record #1), recorded "
                              "on stream 2 behind its own blocked tasks"),
            std::string::npos)
      << st.message();
  EXPECT_NE(st.message().find("stream 2 waits on event 0 (record #1), recorded "
                              "on stream 1"),
            std::string::npos)
      << st.message();
  EXPECT_NE(
      st.message().find("cycle of waits: stream 1 -> stream 2 -> stream 1"),
      std::string::npos)
      << st.message();
}

TEST(Failure, FailingKernelMarksOnlyItsStream) {
  auto dev = makeDevice();
  Stream *bad, *good;
  ASSERT_OK(dev->createStream(0, &bad));
  ASSERT_OK(dev->createStream(0, &good));
  std::atomic<int> laterRuns{0}, goodRuns{0};
  ASSERT_OK(dev->launchKernel(
      bad, kernel("conv1", Engine::kAic, 2, 10, [](uint32_t b, uint32_t) {
        return b == 1 ? makeStatus(StatusCode::kInternal, "bad input")
                      : Status::ok();
      })));
  ASSERT_OK(dev->launchKernel(
      bad, kernel("relu1", Engine::kAiv, 1, 10, [&](uint32_t, uint32_t) {
        ++laterRuns;
        return Status::ok();
      })));
  for (int i = 0; i < 3; ++i)
    ASSERT_OK(dev->launchKernel(
        good, kernel("g", Engine::kAiv, 1, 10, [&](uint32_t, uint32_t) {
          ++goodRuns;
          return Status::ok();
        })));
  ASSERT_OK(dev->synchronizeStream(good));
  EXPECT_EQ(goodRuns.load(), 3);
  Status st = dev->synchronizeStream(bad);
  EXPECT_EQ(st.code(), StatusCode::kKernelFailed);
  EXPECT_EQ(st.message(),
            "kernel 'conv1' on stream 1 failed in block 1/2: bad input");
  EXPECT_EQ(laterRuns.load(), 0); // the failed stream skips its later work
  // Reported once; the stream then works again.
  ASSERT_OK(dev->synchronizeStream(bad));
  ASSERT_OK(dev->launchKernel(
      bad, kernel("relu2", Engine::kAiv, 1, 10, [&](uint32_t, uint32_t) {
        ++laterRuns;
        return Status::ok();
      })));
  ASSERT_OK(dev->synchronizeStream(bad));
  EXPECT_EQ(laterRuns.load(), 1);
}

TEST(Failure, ExceptionInAKernelBecomesAStatus) {
  auto dev = makeDevice();
  ASSERT_OK(dev->launchKernel(nullptr, kernel("throws", Engine::kAiv, 1, 1,
                                              [](uint32_t, uint32_t) -> Status {
                                                throw std::runtime_error(
                                                    "boom");
                                              })));
  Status st = dev->synchronizeDevice();
  EXPECT_EQ(st.code(), StatusCode::kKernelFailed);
  EXPECT_NE(st.message().find("threw an exception: boom"), std::string::npos);
}
