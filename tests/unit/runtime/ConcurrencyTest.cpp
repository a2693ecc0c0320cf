//===- ConcurrencyTest.cpp - Several host threads on one device -----------===//
#include "RuntimeTestUtil.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace geflow::rt;
using namespace geflow::rt::test;

TEST(Concurrency, ThreadsLaunchAndSynchronizeTheirOwnStreams) {
  auto dev = makeDevice();
  constexpr int kThreads = 4, kKernels = 200;
  std::vector<std::vector<int>> order(kThreads);
  std::vector<Status> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Stream *s = nullptr;
      results[t] = dev->createStream(0, &s);
      if (!results[t].isOk())
        return;
      void *buf = nullptr;
      results[t] = dev->mallocAsync(1 << 12, s, &buf);
      for (int k = 0; k < kKernels && results[t].isOk(); ++k)
        results[t] = dev->launchKernel(
            s,
            kernel("k", Engine::kAiv, 1, 1, [&order, t, k](uint32_t, uint32_t) {
              order[t].push_back(k); // one stream: never concurrent with itself
              return Status::ok();
            }));
      if (results[t].isOk())
        results[t] = dev->freeAsync(buf, s);
      if (results[t].isOk())
        results[t] = dev->synchronizeStream(s);
    });
  for (std::thread &th : threads)
    th.join();
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(results[t].isOk()) << results[t].toString();
    ASSERT_EQ(order[t].size(), static_cast<size_t>(kKernels));
    for (int k = 0; k < kKernels; ++k)
      ASSERT_EQ(order[t][k], k);
  }
}

TEST(Concurrency, AWaitMetByAnotherThreadLaterIsNotADeadlock) {
  auto dev = makeDevice();
  Stream *a, *b;
  Event *e;
  ASSERT_OK(createTwoStreamsAndEvent(*dev, &a, &b, &e));
  ASSERT_OK(dev->streamWaitEvent(a, e));
  ASSERT_OK(dev->launchKernel(a, kernel("after", Engine::kAic, 1, 10)));
  // The other thread synchronizes its own stream first, then records: while
  // this thread's synchronize is stuck it must let that one through.
  Status other;
  std::thread recorder([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    other = dev->launchKernel(b, kernel("before", Engine::kAic, 1, 30));
    if (other.isOk())
      other = dev->synchronizeStream(b);
    if (other.isOk())
      other = dev->recordEvent(e, b);
  });
  Status st = dev->synchronizeStream(a);
  recorder.join();
  ASSERT_OK(other);
  ASSERT_OK(st);
  EXPECT_GE(us(recordOf(*dev, "after").startNs), 30.0);
}
