//===- TraceTest.cpp - Records, Chrome JSON, determinism ------------------===//
#include "RuntimeTestUtil.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <set>
#include <tuple>

using namespace geflow::rt;
using namespace geflow::rt::test;

namespace {

// A small three-stream program with events, limits and contention.
std::vector<TaskRecord> runProgram() {
  auto dev = makeDevice();
  Stream *s[3];
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(dev->createStream(i == 2 ? 1 : 0, &s[i]).isOk());
  Event *ev[4];
  for (Event *&e : ev)
    EXPECT_TRUE(dev->createEvent(&e).isOk());
  std::atomic<int> sink{0}; // blocks of one kernel run concurrently
  for (int batch = 0; batch < 4; ++batch) {
    std::string b = std::to_string(batch);
    EXPECT_TRUE(
        dev->launchKernel(s[0], kernel("pre" + b, Engine::kAiv, 6, 7)).isOk());
    EXPECT_TRUE(dev->recordEvent(ev[batch], s[0]).isOk());
    EXPECT_TRUE(dev->streamWaitEvent(s[1], ev[batch]).isOk());
    KernelLaunch inf =
        kernel("inf" + b, Engine::kAic, 5, 13, [&sink](uint32_t blk, uint32_t) {
          sink += static_cast<int>(blk);
          return Status::ok();
        });
    inf.aicoreNum = 3;
    EXPECT_TRUE(dev->launchKernel(s[1], inf).isOk());
    EXPECT_TRUE(dev->launchKernel(s[2], kernel("side" + b, Engine::kAic, 2, 11))
                    .isOk());
  }
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
  EXPECT_EQ(sink.load(), 4 * (0 + 1 + 2 + 3 + 4)); // every block ran once
  return dev->traceRecords();
}

auto key(const TaskRecord &r) {
  return std::make_tuple(r.name, r.stream, r.seq, static_cast<int>(r.kind),
                         r.coresGranted, r.submitNs, r.readyNs, r.startNs,
                         r.endNs, r.eventId);
}

} // namespace

TEST(Trace, SameProgramGivesTheSameTimelineTwice) {
  std::vector<TaskRecord> first = runProgram();
  std::vector<TaskRecord> second = runProgram();
  ASSERT_EQ(first.size(), second.size());
  ASSERT_EQ(first.size(), 4u * 5u);
  for (size_t i = 0; i < first.size(); ++i)
    EXPECT_EQ(key(first[i]), key(second[i])) << "record " << i;
}

TEST(Trace, RecordsCarryWhatTheProfilerNeeds) {
  auto dev = makeDevice();
  Stream *s;
  ASSERT_OK(dev->createStream(0, &s));
  Event *e;
  ASSERT_OK(dev->createEvent(&e));
  KernelLaunch k = kernel("conv1", Engine::kAic, 8, 10);
  k.opType = "Conv2D";
  ASSERT_OK(dev->launchKernel(s, k));
  ASSERT_OK(dev->recordEvent(e, s));
  ASSERT_OK(dev->streamWaitEvent(nullptr, e));
  ASSERT_OK(dev->synchronizeDevice());
  std::vector<TaskRecord> recs = dev->traceRecords();
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].opType, "Conv2D");
  EXPECT_EQ(recs[0].stream, s->id());
  EXPECT_EQ(recs[0].blockDim, 8u);
  EXPECT_EQ(recs[0].coresGranted, 4u);
  EXPECT_DOUBLE_EQ(us(recs[0].endNs), 20.0);
  EXPECT_DOUBLE_EQ(us(recs[0].coreTimeNs), 80.0); // 4 cores, two 10 us waves
  EXPECT_EQ(recs[1].kind, TaskKind::kEventRecord);
  EXPECT_EQ(recs[1].eventId, e->id());
  EXPECT_EQ(recs[2].kind, TaskKind::kEventWait);
  EXPECT_DOUBLE_EQ(us(recs[2].waitNs()), 20.0);
}

TEST(Trace, KernelsCarryTheHostCpuTimeOfTheirBlocks) {
  auto dev = makeDevice();
  Stream *s;
  ASSERT_OK(dev->createStream(0, &s));
  // Each of 4 blocks spins ~300 us of its thread's CPU time.
  auto spin = [](uint32_t, uint32_t) {
    timespec start{}, now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
    do
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    while ((now.tv_sec - start.tv_sec) * 1000000000L +
               (now.tv_nsec - start.tv_nsec) <
           300000L);
    return Status::ok();
  };
  ASSERT_OK(dev->launchKernel(s, kernel("busy", Engine::kAic, 4, 10, spin)));
  ASSERT_OK(dev->launchKernel(s, kernel("no_host_work", Engine::kAic, 4, 10)));
  ASSERT_OK(dev->synchronizeDevice());
  std::vector<TaskRecord> recs = dev->traceRecords();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_GE(recs[0].hostNs, 4u * 300000u); // summed over the blocks
  EXPECT_LT(recs[0].hostNs, 4u * 300000u * 20u);
  EXPECT_EQ(recs[1].hostNs, 0u);
}

TEST(Trace, ChromeJsonHasATrackPerStreamAndCoreGroup) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  ASSERT_OK(dev->launchKernel(a, kernel("ka", Engine::kAic, 2, 10)));
  ASSERT_OK(dev->launchKernel(b, kernel("kb", Engine::kAic, 2, 10)));
  ASSERT_OK(dev->launchKernel(b, kernel("kv", Engine::kAiv, 2, 10)));
  ASSERT_OK(dev->synchronizeDevice());
  auto doc = nlohmann::json::parse(chromeTraceJson(dev->traceRecords()));
  std::set<std::string> threads;
  int slices = 0, counters = 0;
  for (const auto &ev : doc["traceEvents"]) {
    if (ev["ph"] == "M" && ev["name"] == "thread_name")
      threads.insert(ev["args"]["name"].get<std::string>());
    slices += ev["ph"] == "X";
    counters += ev["ph"] == "C";
  }
  EXPECT_TRUE(threads.count("stream 1"));
  EXPECT_TRUE(threads.count("stream 2"));
  EXPECT_TRUE(threads.count("cube lane 0"));
  EXPECT_TRUE(threads.count("cube lane 1")); // ka and kb overlap
  EXPECT_TRUE(threads.count("vector lane 0"));
  EXPECT_EQ(slices, 6); // 3 on stream tracks, 3 on core-group tracks
  EXPECT_GT(counters, 0);
}

TEST(Trace, EnvironmentVariableWritesTheTraceAtDeviceReset) {
  std::string path = ::testing::TempDir() + "geflow-env-trace.json";
  std::remove(path.c_str());
  setenv("GEFLOW_RUNTIME_TRACE", "1", 1);
  setenv("GEFLOW_RUNTIME_TRACE_FILE", path.c_str(), 1);
  {
    DeviceOptions opts;
    opts.spec = roundSpec();
    std::unique_ptr<Device> dev;
    ASSERT_OK(Device::create(opts, &dev));
    EXPECT_TRUE(dev->traceEnabled());
    ASSERT_OK(dev->launchKernel(nullptr, kernel("traced", Engine::kAic, 1, 5)));
    ASSERT_OK(dev->synchronizeDevice());
  }
  unsetenv("GEFLOW_RUNTIME_TRACE");
  unsetenv("GEFLOW_RUNTIME_TRACE_FILE");
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << path;
  auto doc = nlohmann::json::parse(in);
  bool found = false;
  for (const auto &ev : doc["traceEvents"])
    found |= ev["ph"] == "X" && ev["name"] == "traced" && ev["dur"] == 5.0;
  EXPECT_TRUE(found);
}

TEST(Trace, CoreGroupsAreProcessesWithABusyCounter) {
  auto dev = makeDevice();
  Stream *a, *b;
  ASSERT_OK(dev->createStream(0, &a));
  ASSERT_OK(dev->createStream(0, &b));
  ASSERT_OK(dev->launchKernel(a, kernel("ka", Engine::kAic, 2, 10)));
  ASSERT_OK(dev->launchKernel(b, kernel("kb", Engine::kAic, 2, 20)));
  ASSERT_OK(dev->synchronizeDevice());
  auto doc = nlohmann::json::parse(chromeTraceJson(dev->traceRecords()));
  std::vector<std::pair<double, int>> busy;
  std::set<std::string> processes;
  for (const auto &ev : doc["traceEvents"]) {
    if (ev["ph"] == "M" && ev["name"] == "process_name")
      processes.insert(ev["args"]["name"].get<std::string>());
    if (ev["ph"] == "C")
      busy.push_back({ev["ts"].get<double>(), ev["args"]["busy"].get<int>()});
  }
  EXPECT_EQ(processes, (std::set<std::string>{"streams", "cube cores"}));
  // 4 cube cores busy from 0 to 10 us, 2 until 20 us, then none.
  EXPECT_EQ(busy,
            (std::vector<std::pair<double, int>>{{0, 4}, {10, 2}, {20, 0}}));
}
