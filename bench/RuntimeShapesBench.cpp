//===- RuntimeShapesBench.cpp - per-execution cost of run-time shapes -----===//
//
// The transformer encoder (bench/export_transformer_dyn.py: 2 layers,
// d_model 64, dynamic sequence and batch axes), executed
// - static: compiled for [16, 1, 64] (--input-shape), run as a LoadedModel;
// - runtime_shapes/hit: the RUNTIME_SHAPES OM with the shape seen before,
//   its stage taken from the cache (planning, the cache key, the run);
// - runtime_shapes/miss: a new shape every execution (a cache of one stage
//   and two alternating sequence lengths), so every execution compiles.
// Reported per execution, wall clock on the host; the simulated device time
// is the same for the static and the hit case.
//
//===----------------------------------------------------------------------===//
#include "bench/HostIsaContext.h"
#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/RuntimeShapesModel.h"

#include "executor/model/OmFormat.h"
#include "executor/runner/DeviceTarget.h"
#include "runtime/Device.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

using namespace geflow;

namespace {

const char *modelPath() { return GEFLOW_BENCH_TRANSFORMER_DYN; }

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "geflow-runtime-shapes-bench: %s\n", message.c_str());
  std::abort();
}

std::unique_ptr<rt::Device> makeDevice() {
  rt::DeviceOptions options;
  options.workerThreads = 1;
  std::unique_ptr<rt::Device> device;
  if (rt::Status s = rt::Device::create(options, &device); !s.isOk())
    die(s.message());
  return device;
}

std::unique_ptr<om::LoadedOm> loadInMemory(const om::OmModel &model) {
  std::string bytes;
  std::unique_ptr<om::LoadedOm> om;
  if (rt::Status s = om::serializeOm(model, &bytes); !s.isOk())
    die(s.message());
  if (rt::Status s = om::loadOmBytes(bytes, "bench", &om); !s.isOk())
    die(s.message());
  return om;
}

cli::HostTensor input(int64_t seq, int64_t batch) {
  cli::HostTensor x;
  x.name = "x";
  x.dtype = om::DT_FLOAT;
  x.shape = {seq, batch, 64};
  x.bytes.resize(seq * batch * 64 * sizeof(float));
  float *v = reinterpret_cast<float *>(x.bytes.data());
  for (int64_t i = 0; i < seq * batch * 64; ++i)
    v[i] = static_cast<float>(i % 17) / 17.0f - 0.5f;
  return x;
}

void BM_Static(benchmark::State &state) {
  auto device = makeDevice();
  driver::CompileOptions options;
  options.import.inputShapes = {{"x", {16, 1, 64}}};
  auto compiled = driver::compileOnnxFile(modelPath(), options);
  if (!compiled)
    die(llvm::toString(compiled.takeError()));
  std::unique_ptr<exec::LoadedModel> model;
  if (rt::Status s = exec::LoadedModel::create(exec::makeDeviceTarget(*device),
                                               loadInMemory(compiled->model),
                                               "static", &model);
      !s.isOk())
    die(s.message());
  cli::HostTensor x = input(16, 1);
  std::vector<uint8_t> y(model->outputs()[0].bytes);
  exec::ExecutionStats stats;
  for (auto _ : state)
    if (!model
             ->execute({{x.bytes.data(), x.bytes.size()}},
                       {{y.data(), y.size()}}, &stats)
             .isOk())
      die("static execution failed");
  state.counters["device_us"] = stats.deviceTimeNs / 1e3;
}

std::unique_ptr<driver::RuntimeShapesModel>
runtimeShapesModel(rt::Device &device, size_t cacheCapacity) {
  auto compiled = driver::compileRuntimeShapesFile(modelPath());
  if (!compiled)
    die(llvm::toString(compiled.takeError()));
  driver::RuntimeShapesOptions options;
  options.cacheCapacity = cacheCapacity;
  auto model = driver::RuntimeShapesModel::create(
      device, loadInMemory(compiled->model), options);
  if (!model)
    die(llvm::toString(model.takeError()));
  return std::move(*model);
}

void BM_RuntimeShapesHit(benchmark::State &state) {
  auto device = makeDevice();
  auto model = runtimeShapesModel(*device, 64);
  std::vector<cli::HostTensor> inputs = {input(16, 1)}, outputs;
  driver::RuntimeShapesStats stats;
  if (llvm::Error e = model->execute(inputs, &outputs, &stats)) // warm
    die(llvm::toString(std::move(e)));
  double shapeMs = 0;
  for (auto _ : state) {
    if (llvm::Error e = model->execute(inputs, &outputs, &stats))
      die(llvm::toString(std::move(e)));
    shapeMs += stats.hostShapeMs;
  }
  state.counters["device_us"] = stats.deviceTimeNs / 1e3;
  state.counters["shape_work_us"] =
      benchmark::Counter(shapeMs * 1e3, benchmark::Counter::kAvgIterations);
}

void BM_RuntimeShapesMiss(benchmark::State &state) {
  auto device = makeDevice();
  auto model = runtimeShapesModel(*device, 1);
  std::vector<cli::HostTensor> a = {input(16, 1)}, b = {input(17, 1)}, outputs;
  driver::RuntimeShapesStats stats;
  double shapeMs = 0;
  bool flip = false;
  for (auto _ : state) {
    flip = !flip;
    if (llvm::Error e = model->execute(flip ? a : b, &outputs, &stats))
      die(llvm::toString(std::move(e)));
    if (stats.stagesCompiled != 1)
      die("expected a cache miss");
    shapeMs += stats.hostShapeMs;
  }
  state.counters["shape_work_us"] =
      benchmark::Counter(shapeMs * 1e3, benchmark::Counter::kAvgIterations);
}

} // namespace

BENCHMARK(BM_Static)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RuntimeShapesHit)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RuntimeShapesMiss)->Unit(benchmark::kMillisecond)->Iterations(20);

BENCHMARK_MAIN();
