//===- EventTest.cpp - Record/wait, query, elapsed time, callbacks --------===//
#include "RuntimeTestUtil.h"

#include <atomic>
#include <pthread.h>
#include <thread>

using namespace geflow::rt;
using namespace geflow::rt::test;

TEST(Event, WaitOrdersAcrossStreamsAndSeesResults) {
  auto dev = makeDevice();
  Stream *prod, *cons;
  Event *e;
  ASSERT_OK(createTwoStreamsAndEvent(*dev, &prod, &cons, &e));
  int value = 0, seen = -1;
  ASSERT_OK(dev->launchKernel(
      prod, kernel("produce", Engine::kAic, 1, 100, [&](uint32_t, uint32_t) {
        value = 42;
        return Status::ok();
      })));
  ASSERT_OK(dev->recordEvent(e, prod));
  ASSERT_OK(dev->streamWaitEvent(cons, e));
  ASSERT_OK(dev->launchKernel(
      cons, kernel("consume", Engine::kAiv, 1, 10, [&](uint32_t, uint32_t) {
        seen = value;
        return Status::ok();
      })));
  ASSERT_OK(dev->synchronizeStream(cons));
  EXPECT_EQ(seen, 42);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "consume").startNs), 100.0);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "consume").endNs), 110.0);
}

TEST(Event, WaitBindsToTheLatestRecordBeforeIt) {
  auto dev = makeDevice();
  Stream *a, *b;
  Event *e;
  ASSERT_OK(createTwoStreamsAndEvent(*dev, &a, &b, &e));
  ASSERT_OK(dev->launchKernel(a, kernel("a1", Engine::kAic, 1, 100)));
  ASSERT_OK(dev->recordEvent(e, a));     // record #1, done at 100 us
  ASSERT_OK(dev->streamWaitEvent(b, e)); // binds to #1
  ASSERT_OK(dev->launchKernel(a, kernel("a2", Engine::kAic, 1, 100)));
  ASSERT_OK(dev->recordEvent(e, a)); // record #2, done at 200 us
  ASSERT_OK(dev->launchKernel(b, kernel("b", Engine::kAiv, 1, 10)));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "b").startNs), 100.0);
  EXPECT_EQ(e->recordsEnqueued(), 2u);
}

TEST(Event, WaitEnqueuedBeforeAnyRecordBindsToTheFirst) {
  auto dev = makeDevice();
  Stream *a, *b;
  Event *e;
  ASSERT_OK(createTwoStreamsAndEvent(*dev, &a, &b, &e));
  ASSERT_OK(dev->streamWaitEvent(b, e));
  ASSERT_OK(dev->launchKernel(b, kernel("b", Engine::kAiv, 1, 10)));
  ASSERT_OK(dev->launchKernel(a, kernel("a", Engine::kAic, 1, 50)));
  ASSERT_OK(dev->recordEvent(e, a));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "b").startNs), 50.0);
}

TEST(Event, QuerySynchronizeAndElapsedTime) {
  auto dev = makeDevice();
  Event *start, *end, *never;
  ASSERT_OK(dev->createEvent(&start));
  ASSERT_OK(dev->createEvent(&end));
  ASSERT_OK(dev->createEvent(&never));
  ASSERT_OK(dev->recordEvent(start, nullptr));
  ASSERT_OK(dev->launchKernel(nullptr, kernel("k", Engine::kAic, 4, 250)));
  ASSERT_OK(dev->recordEvent(end, nullptr));
  float ms = 0;
  EXPECT_EQ(dev->eventElapsedMs(start, end, &ms).code(), StatusCode::kNotReady);
  bool complete = false;
  ASSERT_OK(dev->queryEvent(end, &complete));
  EXPECT_TRUE(complete);
  ASSERT_OK(dev->synchronizeEvent(end));
  ASSERT_OK(dev->eventElapsedMs(start, end, &ms));
  EXPECT_FLOAT_EQ(ms, 0.25f);
  ASSERT_OK(dev->queryEvent(never, &complete));
  EXPECT_FALSE(complete);
  ASSERT_OK(dev->synchronizeEvent(never)); // nothing recorded: returns at once
}

/// A device whose events take 2 us from record to wake-up, with streams a
/// and b and an event e.
struct LatencyRig {
  std::unique_ptr<Device> dev;
  Stream *a = nullptr, *b = nullptr;
  Event *e = nullptr;

  LatencyRig() {
    SocSpec spec = roundSpec();
    spec.eventLatencyUs = 2;
    dev = makeDevice(spec);
    EXPECT_TRUE(createTwoStreamsAndEvent(*dev, &a, &b, &e).isOk());
  }
};

TEST(Event, EventLatencyDelaysTheWaiter) {
  LatencyRig r;
  ASSERT_OK(r.dev->launchKernel(r.a, kernel("a", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->recordEvent(r.e, r.a));
  ASSERT_OK(r.dev->streamWaitEvent(r.b, r.e));
  ASSERT_OK(r.dev->launchKernel(r.b, kernel("b", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*r.dev, "b").startNs), 12.0);
}

// The latency runs from the record (SocSpec: record -> wait wake-up): waits
// queued back to back ahead of one kernel pay once, for the latest record.
TEST(Event, WaitsAheadOfOneKernelPayTheLatencyOnce) {
  LatencyRig r;
  Stream *c;
  Event *f;
  ASSERT_OK(r.dev->createStream(0, &c));
  ASSERT_OK(r.dev->createEvent(&f));
  ASSERT_OK(r.dev->launchKernel(r.a, kernel("a", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->recordEvent(r.e, r.a));
  ASSERT_OK(r.dev->launchKernel(c, kernel("c", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->recordEvent(f, c));
  ASSERT_OK(r.dev->streamWaitEvent(r.b, r.e));
  ASSERT_OK(r.dev->streamWaitEvent(r.b, f));
  ASSERT_OK(r.dev->launchKernel(r.b, kernel("b", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*r.dev, "b").startNs), 12.0);
}

// A wait on a record done a latency or more ago costs nothing.
TEST(Event, WaitOnAnOldRecordIsFree) {
  LatencyRig r;
  ASSERT_OK(r.dev->recordEvent(r.e, r.a));
  ASSERT_OK(r.dev->launchKernel(r.b, kernel("first", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->streamWaitEvent(r.b, r.e));
  ASSERT_OK(r.dev->launchKernel(r.b, kernel("second", Engine::kAic, 1, 10)));
  ASSERT_OK(r.dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*r.dev, "second").startNs),
                   us(recordOf(*r.dev, "first").endNs));
}

TEST(Callback, HoldsItsStreamUntilItReturns) {
  auto dev = makeDevice();
  std::atomic<bool> called{false};
  bool seenByNext = false;
  ASSERT_OK(dev->launchKernel(nullptr, kernel("before", Engine::kAic, 1, 10)));
  ASSERT_OK(dev->launchCallback(nullptr, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    called.store(true);
  }));
  ASSERT_OK(dev->launchKernel(
      nullptr, kernel("after", Engine::kAic, 1, 10, [&](uint32_t, uint32_t) {
        seenByNext = called.load();
        return Status::ok();
      })));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_TRUE(seenByNext);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "after").startNs), 10.0);
}

TEST(Callback, RunsOnTheSubscribedReportThread) {
  auto dev = makeDevice();
  Stream *s;
  ASSERT_OK(dev->createStream(0, &s));
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> ranOn{0};
  uint64_t reportTid = 0;
  std::thread reporter([&] {
    while (!stop.load())
      (void)dev->processReport(static_cast<uint64_t>(pthread_self()), 10);
  });
  reportTid = static_cast<uint64_t>(reporter.native_handle());
  ASSERT_OK(dev->subscribeReport(reportTid, s));
  ASSERT_OK(dev->launchCallback(
      s, [&] { ranOn.store(static_cast<uint64_t>(pthread_self())); }));
  ASSERT_OK(dev->synchronizeStream(s));
  EXPECT_EQ(ranOn.load(), reportTid);
  stop.store(true);
  reporter.join();
  EXPECT_EQ(dev->processReport(12345, 0).code(),
            StatusCode::kFailedPrecondition);
}
