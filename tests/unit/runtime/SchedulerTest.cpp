//===- SchedulerTest.cpp - FIFO, concurrency, waves, limits, priority -----===//
#include "RuntimeTestUtil.h"

#include "runtime/HostWorkers.h"

#include <atomic>
#include <chrono>
#include <ctime>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

using namespace geflow::rt;
using namespace geflow::rt::test;

TEST(Scheduler, FifoOrderWithinAStream) {
  auto dev = makeDevice();
  std::vector<int> order;
  std::mutex mu;
  for (int i = 0; i < 5; ++i)
    ASSERT_OK(dev->launchKernel(nullptr,
                                kernel("k" + std::to_string(i), Engine::kAiv, 1,
                                       10, [&, i](uint32_t, uint32_t) {
                                         std::lock_guard<std::mutex> lock(mu);
                                         order.push_back(i);
                                         return Status::ok();
                                       })));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
  std::vector<TaskRecord> recs = dev->traceRecords();
  ASSERT_EQ(recs.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(recs[i].name, "k" + std::to_string(i));
    EXPECT_DOUBLE_EQ(us(recs[i].startNs), 10.0 * i);
    EXPECT_DOUBLE_EQ(us(recs[i].endNs), 10.0 * (i + 1));
  }
  EXPECT_DOUBLE_EQ(us(dev->now()), 50.0);
}

TEST(Scheduler, TwoStreamsWithEnoughCoresFinishTogether) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  // 2 of 4 cube cores each, 100 us.
  ASSERT_OK(dev->launchKernel(a, kernel("a", Engine::kAic, 2, 100)));
  ASSERT_OK(dev->launchKernel(b, kernel("b", Engine::kAic, 2, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "a").endNs), 100.0);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "b").endNs), 100.0);
  EXPECT_EQ(recordOf(*dev, "b").coresGranted, 2u);
  EXPECT_DOUBLE_EQ(us(dev->now()), 100.0);
}

TEST(Scheduler, TwoStreamsNeedingEveryCoreSerialise) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  ASSERT_OK(dev->launchKernel(a, kernel("a", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->launchKernel(b, kernel("b", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  TaskRecord ra = recordOf(*dev, "a"), rb = recordOf(*dev, "b");
  EXPECT_DOUBLE_EQ(us(ra.endNs), 100.0);
  EXPECT_DOUBLE_EQ(us(rb.startNs), 100.0);
  EXPECT_DOUBLE_EQ(us(rb.endNs), 200.0);
  EXPECT_DOUBLE_EQ(us(rb.waitNs()), 100.0); // waited for cores
}

TEST(Scheduler, DifferentEnginesDoNotCompete) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  ASSERT_OK(dev->launchKernel(a, kernel("cube", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->launchKernel(b, kernel("vec", Engine::kAiv, 8, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "vec").endNs), 100.0);
  // MIX needs cube and vector cores: it waits for both.
  ASSERT_OK(dev->launchKernel(a, kernel("cube2", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->launchKernel(b, kernel("mix", Engine::kMix, 2, 50)));
  ASSERT_OK(dev->synchronizeDevice());
  TaskRecord mix = recordOf(*dev, "mix");
  EXPECT_DOUBLE_EQ(us(mix.startNs), 200.0);
  EXPECT_EQ(mix.coresGranted, 2u);
  EXPECT_EQ(mix.vectorCoresGranted, 4u);
}

TEST(Scheduler, BlockDimBeyondCoresRunsInWaves) {
  auto dev = makeDevice();
  ASSERT_OK(dev->launchKernel(nullptr, kernel("waves", Engine::kAic, 10, 100)));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  TaskRecord r = recordOf(*dev, "waves");
  EXPECT_EQ(r.coresGranted, 4u);
  EXPECT_DOUBLE_EQ(us(r.endNs), 300.0); // ceil(10 / 4) waves
}

TEST(Scheduler, EachWaveTakesTheCoresFreeWhenItStarts) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  // "short" holds 2 of the 4 cube cores for 100 us, so "wide"'s first wave
  // gets the other 2; its second wave takes all 4 that are free by then and
  // runs the remaining 4 blocks at once (kept to 2 cores it would need three
  // waves and end at 300 us).
  ASSERT_OK(dev->launchKernel(a, kernel("short", Engine::kAic, 2, 100)));
  ASSERT_OK(dev->launchKernel(b, kernel("wide", Engine::kAic, 6, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  TaskRecord wide = recordOf(*dev, "wide");
  EXPECT_DOUBLE_EQ(us(wide.startNs), 0.0);
  EXPECT_DOUBLE_EQ(us(wide.endNs), 200.0);
  EXPECT_EQ(wide.coresGranted, 4u);             // the widest wave
  EXPECT_DOUBLE_EQ(us(wide.coreTimeNs), 600.0); // 2 x 100 + 4 x 100
}

TEST(Scheduler, CoreLimitCapsWhatATaskTakes) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  KernelLaunch limited = kernel("limited", Engine::kAic, 4, 100);
  limited.aicoreNum = 2;
  ASSERT_OK(dev->launchKernel(a, limited));
  ASSERT_OK(dev->launchKernel(b, kernel("other", Engine::kAic, 2, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  TaskRecord r = recordOf(*dev, "limited");
  EXPECT_EQ(r.coresGranted, 2u);
  EXPECT_DOUBLE_EQ(us(r.endNs), 200.0);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "other").endNs), 100.0);
}

TEST(Scheduler, HigherPriorityStreamIsServedFirst) {
  auto dev = makeDevice();
  Stream *low, *high;
  ASSERT_OK(dev->createStream(5, &low));
  ASSERT_OK(dev->createStream(0, &high));
  // Low is enqueued first and has the lower id; priority still wins.
  ASSERT_OK(dev->launchKernel(low, kernel("low", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->launchKernel(high, kernel("high", Engine::kAic, 4, 100)));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "high").endNs), 100.0);
  EXPECT_DOUBLE_EQ(us(recordOf(*dev, "low").endNs), 200.0);
}

TEST(Scheduler, EqualPrioritiesTakeTurns) {
  auto dev = makeDevice();
  Stream *s[3];
  for (Stream *&x : s)
    ASSERT_OK(dev->createStream(0, &x));
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 3; ++i)
      ASSERT_OK(dev->launchKernel(
          s[i], kernel("s" + std::to_string(i) + "r" + std::to_string(round),
                       Engine::kAic, 4, 10)));
  ASSERT_OK(dev->synchronizeDevice());
  std::vector<std::string> order;
  for (const TaskRecord &r : dev->traceRecords())
    order.push_back(r.name);
  // Round robin: after s0 runs, s1 and s2 go before s0 again.
  EXPECT_EQ(order, (std::vector<std::string>{"s0r0", "s1r0", "s2r0", "s0r1",
                                             "s1r1", "s2r1"}));
}

TEST(Scheduler, ABusyStreamDoesNotStarveAQuieterOne) {
  // Every kernel needs every core. The busy stream has work queued far
  // ahead; the quieter one still gets every other turn, and a third one at
  // a lower priority only runs once both are done (priorities hold under
  // contention).
  auto dev = makeDevice();
  Stream *busy, *quiet, *low;
  ASSERT_OK(dev->createStream(1, &busy));
  ASSERT_OK(dev->createStream(1, &quiet));
  ASSERT_OK(dev->createStream(2, &low));
  ASSERT_OK(dev->launchKernel(low, kernel("low", Engine::kAic, 4, 10)));
  for (int i = 0; i < 6; ++i)
    ASSERT_OK(dev->launchKernel(
        busy, kernel("b" + std::to_string(i), Engine::kAic, 4, 10)));
  for (int i = 0; i < 3; ++i)
    ASSERT_OK(dev->launchKernel(
        quiet, kernel("q" + std::to_string(i), Engine::kAic, 4, 10)));
  ASSERT_OK(dev->synchronizeDevice());
  std::vector<std::string> order;
  for (const TaskRecord &r : dev->traceRecords())
    order.push_back(r.name);
  EXPECT_EQ(order, (std::vector<std::string>{"b0", "q0", "b1", "q1", "b2", "q2",
                                             "b3", "b4", "b5", "low"}));
}

TEST(Scheduler, BlocksComputeRealResultsOnWorkers) {
  auto dev = makeDevice();
  std::vector<int> out(64, 0);
  ASSERT_OK(dev->launchKernel(
      nullptr, kernel("fill", Engine::kAiv, 8, 1, [&](uint32_t b, uint32_t n) {
        for (size_t i = b; i < out.size(); i += n)
          out[i] = static_cast<int>(i) * 2;
        return Status::ok();
      })));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  for (size_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], static_cast<int>(i) * 2);
}

TEST(Scheduler, SmallKernelRunsOnTheSynchronizingThreadOnly) {
  EXPECT_FALSE(worthSharing({1e3, 1e3}));
  EXPECT_TRUE(worthSharing({1e9, 0}));
  EXPECT_TRUE(worthSharing({0, 1e8}));
  auto dev = makeDevice(); // two workers, idle
  std::mutex mu;
  std::set<std::thread::id> ran;
  KernelLaunch small =
      kernel("small", Engine::kAiv, 8, 0, [&](uint32_t, uint32_t) {
        std::lock_guard<std::mutex> lock(mu);
        ran.insert(std::this_thread::get_id());
        return Status::ok();
      });
  small.cost = {2e3, 4e3}; // a few hundred elements: not worth a wake-up
  for (int i = 0; i < 20; ++i)
    ASSERT_OK(dev->launchKernel(nullptr, small));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(ran, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(Scheduler, SmallKernelsOfConcurrentStreamsShareTheHost) {
  // Two requests' small kernels at the same virtual time: the first runs on
  // the synchronizing thread when it is joined, and a worker takes the
  // second meanwhile, so concurrent streams run in parallel on the host.
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  std::thread::id ranA, ranB;
  KernelLaunch ka = kernel("a", Engine::kAiv, 1, 1, [&](uint32_t, uint32_t) {
    ranA = std::this_thread::get_id();
    // Long enough on the host for a worker to claim b in the meantime.
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return Status::ok();
  });
  KernelLaunch kb = kernel("b", Engine::kAiv, 1, 1, [&](uint32_t, uint32_t) {
    ranB = std::this_thread::get_id();
    return Status::ok();
  });
  ka.cost = kb.cost = {2e3, 4e3}; // not worth a wake-up on its own
  ASSERT_OK(dev->launchKernel(a, ka));
  ASSERT_OK(dev->launchKernel(b, kb));
  ASSERT_OK(dev->synchronizeDevice());
  EXPECT_EQ(ranA, std::this_thread::get_id());
  EXPECT_NE(ranB, std::this_thread::get_id());
}

TEST(Scheduler, ALoneSingleBlockKernelIsNotHandedToAWorker) {
  auto dev = makeDevice();
  std::set<std::thread::id> ran;
  // Large, but one block, and nothing else to join first: the synchronizing
  // thread would only wait for a worker running it.
  KernelLaunch big =
      kernel("big", Engine::kAic, 1, 1000, [&](uint32_t, uint32_t) {
        ran.insert(std::this_thread::get_id());
        return Status::ok();
      });
  ASSERT_TRUE(worthSharing(big.cost));
  for (int i = 0; i < 10; ++i)
    ASSERT_OK(dev->launchKernel(nullptr, big));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(ran, std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST(Scheduler, EngineWithoutCoresIsRejectedAtLaunch) {
  SocSpec spec = roundSpec();
  spec.dvppCoreCnt = 0;
  auto dev = makeDevice(spec);
  Status st = dev->launchKernel(nullptr, kernel("jpeg", Engine::kDvpp, 1, 1));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("engine DVPP has no cores"), std::string::npos);
  st = dev->launchKernel(nullptr, kernel("zero", Engine::kAic, 0, 1));
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
}

TEST(Scheduler, MemcpyIsPricedByBandwidthAndCopies) {
  auto dev = makeDevice();
  std::vector<char> src(2000, 'x'), dst(2000, 0);
  ASSERT_OK(dev->memcpyAsync(nullptr, dst.data(), dst.size(), src.data(),
                             src.size(), MemcpyKind::kHostToDevice));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(dst, src);
  EXPECT_DOUBLE_EQ(us(dev->now()), 2.0); // 2000 bytes at 1 byte/ns
  Status st = dev->memcpyAsync(nullptr, dst.data(), 10, src.data(), 11,
                               MemcpyKind::kHostToDevice);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
}

TEST(Scheduler, VectorCoreLimitCapsAivAndMix) {
  auto dev = makeDevice();
  KernelLaunch aiv = kernel("aiv", Engine::kAiv, 8, 10);
  aiv.vectorcoreNum = 4;
  ASSERT_OK(dev->launchKernel(nullptr, aiv));
  KernelLaunch mix = kernel("mix", Engine::kMix, 4, 10);
  mix.vectorcoreNum = 4; // 2 vector cores per cube core: 2 MIX blocks at once
  ASSERT_OK(dev->launchKernel(nullptr, mix));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  TaskRecord a = recordOf(*dev, "aiv"), m = recordOf(*dev, "mix");
  EXPECT_EQ(a.coresGranted, 4u);
  EXPECT_DOUBLE_EQ(us(a.endNs), 20.0);
  EXPECT_EQ(m.coresGranted, 2u);
  EXPECT_EQ(m.vectorCoresGranted, 4u);
}

TEST(Scheduler, SynchronizeFromAKernelIsRefused) {
  auto dev = makeDevice();
  Status inner;
  KernelLaunch k = kernel("sync-inside", Engine::kAiv, 1, 1);
  k.fn = [&](uint32_t, uint32_t) {
    inner = dev->synchronizeDevice();
    return Status::ok();
  };
  ASSERT_OK(dev->launchKernel(nullptr, k));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(inner.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(inner.message().find("called from a kernel function"),
            std::string::npos);
}

// A callback may synchronize, but the device it waits for includes its own
// stream, which waits for the callback: a deadlock, reported, not a hang.
TEST(Scheduler, CallbackSynchronizingItsOwnStreamIsADeadlock) {
  auto dev = makeDevice();
  Status inner;
  ASSERT_OK(
      dev->launchCallback(nullptr, [&] { inner = dev->synchronizeDevice(); }));
  ASSERT_OK(dev->synchronizeStream(nullptr));
  EXPECT_EQ(inner.code(), StatusCode::kDeadlock);
  EXPECT_NE(inner.message().find("needs that callback to have returned"),
            std::string::npos)
      << inner.message();
}

// A timed job's host time sums its blocks' CPU time; its wall time spans
// its first block's start to its last block's end, waits included. Two
// blocks that each sleep 3 ms on this thread take at least 6 ms of wall
// time and next to no CPU time.
TEST(HostJob, TimedBlocksGiveWallTimeBesideCpuTime) {
  const KernelFn sleepy = [](uint32_t, uint32_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    return Status::ok();
  };
  const std::string name = "sleepy";
  HostJob job(&sleepy, 2, &name, 0);
  EXPECT_EQ(job.hostWallNs(), 0u); // nothing ran yet
  job.timeBlocks();
  ASSERT_TRUE(job.join().isOk());
  EXPECT_GE(job.hostWallNs(), 6'000'000u);
  EXPECT_LT(job.hostNs(), job.hostWallNs());
}

namespace {
/// The blocks `job` runs, in the order they ran.
std::vector<uint32_t> blocksInOrder(unsigned hostThreads,
                                    const std::function<void(HostJob &)> &go) {
  std::vector<uint32_t> order;
  const KernelFn record = [&](uint32_t idx, uint32_t) {
    order.push_back(idx);
    return Status::ok();
  };
  const std::string name = "record";
  HostJob job(&record, 4, &name, 0);
  job.setHostThreads(hostThreads);
  go(job);
  return order;
}
} // namespace

TEST(HostJob, SharedJobsJoinFromTheLastBlockAndWorkersFromTheFirst) {
  const auto join = [](HostJob &job) { ASSERT_TRUE(job.join().isOk()); };
  // Shared: the joining thread takes the last share, kernel after kernel.
  EXPECT_EQ(blocksInOrder(2, join), (std::vector<uint32_t>{3, 2, 1, 0}));
  // Run by the joining thread alone: in order, as the blocks lie in memory.
  EXPECT_EQ(blocksInOrder(1, join), (std::vector<uint32_t>{0, 1, 2, 3}));
  // A worker takes the first share.
  EXPECT_EQ(blocksInOrder(2, [](HostJob &job) { job.work(); }),
            (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST(HostJob, BothEndsTogetherRunEachBlockOnce) {
  std::vector<std::atomic<int>> runs(1000);
  const KernelFn count = [&](uint32_t idx, uint32_t) {
    runs[idx].fetch_add(1);
    return Status::ok();
  };
  const std::string name = "count";
  HostJob job(&count, 1000, &name, 0);
  job.setHostThreads(3);
  std::thread front1([&] { job.work(); }), front2([&] { job.work(); });
  ASSERT_TRUE(job.join().isOk());
  front1.join();
  front2.join();
  for (size_t i = 0; i < runs.size(); ++i)
    ASSERT_EQ(runs[i].load(), 1) << "block " << i;
}

TEST(HostJob, TimedJobSumsTheCpuTimeOfEveryThreadBeforeJoinReturns) {
  // Each block burns 2 ms of its thread's CPU time; a worker thread takes
  // one of the two.
  const KernelFn busy = [](uint32_t, uint32_t) {
    const auto cpuNs = [] {
      timespec ts{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    };
    for (const int64_t start = cpuNs(); cpuNs() - start < 2'000'000;) {
    }
    return Status::ok();
  };
  const std::string name = "busy";
  for (int round = 0; round < 20; ++round) {
    HostJob job(&busy, 2, &name, 0);
    job.setHostThreads(2);
    job.timeBlocks();
    std::thread worker([&] { job.work(); });
    ASSERT_TRUE(job.join().isOk());
    // Read at once: what a profile reads after the join.
    const uint64_t cpu = job.hostNs();
    worker.join();
    // Both blocks' CPU time: the worker's too, added before join returned.
    EXPECT_GE(cpu, 4'000'000u) << "round " << round;
  }
}
