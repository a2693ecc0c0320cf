//===- ConcurrentBench.cpp - Host time of concurrent execution contexts ---===//
//
// With 2 host threads (the synchronizing one and one worker), two
// decode requests on two execution contexts sharing the weights should take
// less host time than the same two requests one after the other on one
// context. Both run the GPT-style decoder step of examples/decode; the
// figure compared is wall-clock time per pair of requests.
//
//===----------------------------------------------------------------------===//
#include "bench/HostIsaContext.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

using namespace geflow;

namespace {

void check(const rt::Status &st) {
  if (!st.isOk()) {
    std::fprintf(stderr, "%s\n", st.toString().c_str());
    std::abort();
  }
}

/// The decoder step loaded on a device with `hostThreads` threads, `n`
/// contexts of it, a caller stream and zeroed buffers for each.
struct Setup {
  std::unique_ptr<rt::Device> device;
  std::vector<std::unique_ptr<exec::LoadedModel>> contexts;
  std::vector<rt::Stream *> streams;
  std::vector<std::vector<std::vector<uint8_t>>> storage;
  std::vector<std::vector<exec::Buffer>> ins, outs;

  Setup(int hostThreads, int n) {
    rt::DeviceOptions opts;
    opts.workerThreads = hostThreads - 1;
    check(rt::Device::create(opts, &device));
    std::unique_ptr<exec::LoadedModel> base;
    check(exec::LoadedModel::load(*device, GEFLOW_BENCH_DECODER_OM, &base));
    for (int i = 0; i < n; ++i) {
      std::unique_ptr<exec::LoadedModel> ctx;
      check(base->createContext(-1, &ctx));
      contexts.push_back(std::move(ctx));
      rt::Stream *s = nullptr;
      check(device->createStream(0, &s));
      streams.push_back(s);
      storage.emplace_back();
      ins.emplace_back();
      outs.emplace_back();
      for (const exec::TensorInfo &t : base->inputs())
        storage.back().emplace_back(t.bytes);
      size_t numIn = storage.back().size();
      for (const exec::TensorInfo &t : base->outputs())
        storage.back().emplace_back(t.bytes);
      for (size_t b = 0; b < storage.back().size(); ++b)
        (b < numIn ? ins : outs)
            .back()
            .push_back({storage.back()[b].data(), storage.back()[b].size()});
    }
  }

  void run(int context, int stream) {
    check(contexts[context]->executeAsync(ins[context], outs[context],
                                          streams[stream]));
  }
};

// Two requests, one context and one stream: the second waits for the first.
void BM_TwoRequestsSerial(benchmark::State &state) {
  Setup s(int(state.range(0)), 1);
  for (auto _ : state) {
    s.run(0, 0);
    s.run(0, 0);
    check(s.device->synchronizeStream(s.streams[0]));
  }
  state.SetItemsProcessed(2 * state.iterations());
}

// Two requests on two contexts and streams, side by side.
void BM_TwoRequestsConcurrent(benchmark::State &state) {
  Setup s(int(state.range(0)), 2);
  for (auto _ : state) {
    s.run(0, 0);
    s.run(1, 1);
    check(s.device->synchronizeStream(s.streams[0]));
    check(s.device->synchronizeStream(s.streams[1]));
  }
  state.SetItemsProcessed(2 * state.iterations());
}

BENCHMARK(BM_TwoRequestsSerial)
    ->ArgName("host_threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TwoRequestsConcurrent)
    ->ArgName("host_threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

} // namespace

BENCHMARK_MAIN();
