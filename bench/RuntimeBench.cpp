//===- RuntimeBench.cpp - Host launch cost and simulated throughput -------===//
//
// - launch: host cost of enqueuing one kernel (the figure CANN pays 5-15 us
//   for);
// - record+wait: host cost of an event record on one stream plus a wait on
//   another;
// - dispatch throughput: how many tasks per second the simulated hardware
//   scheduler gets through, for 1, 8 and 64 streams.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_rt.h"
#include "bench/HostIsaContext.h"
#include "runtime/Device.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace geflow::rt;

namespace {

std::unique_ptr<Device> makeDevice() {
  DeviceOptions opts;
  opts.workerThreads = 1;
  std::unique_ptr<Device> dev;
  Status st = Device::create(opts, &dev);
  if (!st.isOk()) {
    std::fprintf(stderr, "%s\n", st.toString().c_str());
    std::abort();
  }
  return dev;
}

KernelLaunch smallKernel() {
  KernelLaunch k;
  k.name = "add";
  k.engine = Engine::kAiv;
  k.blockDim = 1;
  k.cost = {1e4, 4096};
  return k;
}

// Drains the queue every so often so memory stays bounded; not timed.
constexpr int64_t kDrainEvery = 1 << 16;

void BM_KernelLaunch(benchmark::State &state) {
  auto dev = makeDevice();
  Stream *s;
  (void)dev->createStream(0, &s);
  const KernelLaunch proto = smallKernel();
  int64_t n = 0;
  for (auto _ : state) {
    KernelLaunch k = proto;
    benchmark::DoNotOptimize(dev->launchKernel(s, std::move(k)));
    if (++n % kDrainEvery == 0) {
      state.PauseTiming();
      (void)dev->synchronizeStream(s);
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KernelLaunch);

void BM_KernelLaunchWithHostFn(benchmark::State &state) {
  auto dev = makeDevice();
  Stream *s;
  (void)dev->createStream(0, &s);
  KernelLaunch proto = smallKernel();
  int64_t n = 0;
  for (auto _ : state) {
    KernelLaunch k = proto;
    k.fn = [](uint32_t, uint32_t) { return Status::ok(); };
    benchmark::DoNotOptimize(dev->launchKernel(s, std::move(k)));
    if (++n % kDrainEvery == 0) {
      state.PauseTiming();
      (void)dev->synchronizeStream(s);
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_KernelLaunchWithHostFn);

// The same launch through the C API, as an AscendCL host program pays it.
void BM_AclLaunchKernel(benchmark::State &state) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
    state.SkipWithError(aclGetRecentErrMsg());
    return;
  }
  aclrtStream s;
  (void)aclrtCreateStream(&s);
  geflowrtKernelDesc k{};
  k.name = "add";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 1;
  k.flops = 1e4;
  k.bytes = 4096;
  int64_t n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(geflowrtLaunchKernel(&k, s));
    if (++n % kDrainEvery == 0) {
      state.PauseTiming();
      (void)aclrtSynchronizeStream(s);
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations());
  (void)aclrtSynchronizeStream(s);
  (void)aclrtDestroyStream(s);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
}
BENCHMARK(BM_AclLaunchKernel);

// A host function through its whole life: launched, dispatched, run (by a
// worker or the synchronizing thread, without the simulation's lock) and
// completed. Every model execution ends with one.
void BM_HostFuncRoundTrip(benchmark::State &state) {
  auto dev = makeDevice();
  Stream *s;
  (void)dev->createStream(0, &s);
  int64_t calls = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dev->launchHostFunc(s, [&calls] { ++calls; }));
    benchmark::DoNotOptimize(dev->synchronizeStream(s));
  }
  if (calls != state.iterations())
    state.SkipWithError("a host function did not run");
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HostFuncRoundTrip);

void BM_EventRecordWait(benchmark::State &state) {
  auto dev = makeDevice();
  Stream *a, *b;
  (void)dev->createStream(0, &a);
  (void)dev->createStream(0, &b);
  Event *e;
  (void)dev->createEvent(&e);
  int64_t n = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(dev->recordEvent(e, a));
    benchmark::DoNotOptimize(dev->streamWaitEvent(b, e));
    if (++n % kDrainEvery == 0) {
      state.PauseTiming();
      (void)dev->synchronizeDevice();
      state.ResumeTiming();
    }
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventRecordWait);

// Only the simulation is timed: enqueue a batch (paused), then synchronize.
void BM_DispatchThroughput(benchmark::State &state) {
  const int streams = static_cast<int>(state.range(0));
  const int64_t tasks = 200000;
  auto dev = makeDevice();
  std::vector<Stream *> s(streams);
  for (Stream *&x : s)
    (void)dev->createStream(0, &x);
  const KernelLaunch proto = smallKernel();
  for (auto _ : state) {
    state.PauseTiming();
    for (int64_t i = 0; i < tasks; ++i)
      (void)dev->launchKernel(s[i % streams], KernelLaunch(proto));
    state.ResumeTiming();
    Status st = dev->synchronizeDevice();
    if (!st.isOk())
      state.SkipWithError(st.toString().c_str());
  }
  state.SetItemsProcessed(state.iterations() * tasks);
  state.counters["virtual_us_per_task"] =
      benchmark::Counter(static_cast<double>(dev->now()) / 1000.0 /
                         static_cast<double>(state.iterations() * tasks));
}
BENCHMARK(BM_DispatchThroughput)
    ->ArgName("streams")
    ->Arg(1)
    ->Arg(8)
    ->Arg(64)
    ->Unit(benchmark::kMillisecond);

// As above, but every kernel has a (trivial) host function: the cost of
// handing blocks to the worker pool and joining them.
void BM_DispatchThroughputWithHostFn(benchmark::State &state) {
  const int64_t tasks = 50000;
  auto dev = makeDevice();
  Stream *s;
  (void)dev->createStream(0, &s);
  KernelLaunch proto = smallKernel();
  proto.blockDim = static_cast<uint32_t>(state.range(0));
  proto.fn = [](uint32_t, uint32_t) { return Status::ok(); };
  for (auto _ : state) {
    state.PauseTiming();
    for (int64_t i = 0; i < tasks; ++i)
      (void)dev->launchKernel(s, KernelLaunch(proto));
    state.ResumeTiming();
    Status st = dev->synchronizeDevice();
    if (!st.isOk())
      state.SkipWithError(st.toString().c_str());
  }
  state.SetItemsProcessed(state.iterations() * tasks);
}
BENCHMARK(BM_DispatchThroughputWithHostFn)
    ->ArgName("block_dim")
    ->Arg(1)
    ->Arg(8)
    ->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
