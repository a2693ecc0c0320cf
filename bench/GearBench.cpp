//===- GearBench.cpp - Per-execution cost of gears
//-------------------------===//
//
// Switching gears must cost nothing measurable per execution. One
// small model (y = relu(x + c) over two streams and an event, so host
// overhead, not kernel work, dominates the figure) three ways:
// - static: compiled for one batch (1 or 4), as before gears;
// - one gear: the model with gears {1, 4}, always the same gear;
// - alternate: the same model, gear 1 then gear 4 then 1 ..., each chosen
//   from the inputs' shapes with findGear as `geflow run` does;
// and findGear alone. Alternate should cost the mean of the two one-gear
// figures, and one gear what the static model of its batch costs.
//
// GEFLOW_GEAR_BENCH_OM=model.om (a model compiled with two gears or more)
// adds the same one-gear / alternate figures for that model's gears 0 and 1,
// on zero inputs.
//
//===----------------------------------------------------------------------===//
#include "bench/HostIsaContext.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tests/unit/executor/TestGearModels.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

using namespace geflow;

namespace {

[[noreturn]] void die(const rt::Status &st) {
  std::fprintf(stderr, "%s\n", st.toString().c_str());
  std::abort();
}

/// Gear `g` of `gears` as a static model, as compiling for that batch alone
/// would give it.
om::OmModel staticOf(const om::OmModel &gears, int g) {
  om::OmModel m = gears;
  m.modelDef.clear_graph();
  *m.modelDef.add_graph() = gears.modelDef.graph(g);
  m.modelDef.clear_gears();
  m.taskDef = gears.taskDef.gear(g);
  m.memoryPlan = gears.memoryPlan.gear(g);
  return m;
}

/// A device and a model loaded from a file, as `geflow run` has them.
struct Loaded {
  std::unique_ptr<rt::Device> device;
  std::unique_ptr<exec::LoadedModel> model;

  explicit Loaded(const om::OmModel &om) {
    std::string path =
        "/tmp/geflow_gear_bench_" + std::to_string(::getpid()) + ".om";
    if (rt::Status st = om::writeOmFile(om, path); !st.isOk())
      die(st);
    load(path);
    std::remove(path.c_str());
  }
  explicit Loaded(const std::string &path) { load(path); }

private:
  void load(const std::string &path) {
    rt::DeviceOptions opts;
    opts.workerThreads = 1;
    if (rt::Status st = rt::Device::create(opts, &device); !st.isOk())
      die(st);
    if (rt::Status st = exec::LoadedModel::load(*device, path, &model);
        !st.isOk())
      die(st);
  }
};

const om::OmModel &gearModel() {
  static const om::OmModel m = testing::addReluGearModel({1, 4});
  return m;
}

/// One execution's host buffers for batch `b`.
struct Io {
  std::vector<float> x, y;
  std::vector<exec::Buffer> in, out;
  exec::Shapes shapes;
  explicit Io(int64_t b) : x(b * 4, 0.5f), y(b * 4) {
    in = {{x.data(), x.size() * 4}};
    out = {{y.data(), y.size() * 4}};
    shapes = {{b, 4}};
  }
};

void run(benchmark::State &state, exec::LoadedModel &model, Io &io,
         size_t gear) {
  if (rt::Status st = model.execute(io.in, io.out, nullptr, gear); !st.isOk())
    state.SkipWithError(st.toString().c_str());
}

// Arg: the batch, 1 or 4.
void BM_Static(benchmark::State &state) {
  int64_t b = state.range(0);
  Loaded l(staticOf(gearModel(), b == 1 ? 0 : 1));
  Io io(b);
  for (auto _ : state)
    run(state, *l.model, io, 0);
}
BENCHMARK(BM_Static)->Arg(1)->Arg(4);

void BM_OneGear(benchmark::State &state) {
  int64_t b = state.range(0);
  Loaded l(gearModel());
  Io io(b);
  for (auto _ : state) {
    int gear = l.model->findGear(io.shapes);
    run(state, *l.model, io, size_t(gear));
  }
}
BENCHMARK(BM_OneGear)->Arg(1)->Arg(4);

void BM_AlternateGears(benchmark::State &state) {
  Loaded l(gearModel());
  Io io1(1), io4(4);
  bool small = true;
  for (auto _ : state) {
    Io &io = small ? io1 : io4;
    int gear = l.model->findGear(io.shapes);
    run(state, *l.model, io, size_t(gear));
    small = !small;
  }
}
BENCHMARK(BM_AlternateGears);

void BM_FindGear(benchmark::State &state) {
  Loaded l(gearModel());
  exec::Shapes shapes = {{4, 4}};
  for (auto _ : state)
    benchmark::DoNotOptimize(l.model->findGear(shapes));
}
BENCHMARK(BM_FindGear);

/// Zeroed buffers for every input and output of gear `gear`.
struct GearIo {
  std::vector<std::vector<uint8_t>> bytes;
  std::vector<exec::Buffer> in, out;
  GearIo(const exec::LoadedModel &model, size_t gear) {
    auto add = [&](const std::vector<exec::TensorInfo> &infos,
                   std::vector<exec::Buffer> &buffers) {
      for (const exec::TensorInfo &t : infos) {
        bytes.emplace_back(t.bytes);
        buffers.push_back({bytes.back().data(), t.bytes});
      }
    };
    bytes.reserve(model.inputs(gear).size() + model.outputs(gear).size());
    add(model.inputs(gear), in);
    add(model.outputs(gear), out);
  }
};

/// GEFLOW_GEAR_BENCH_OM's gears 0 and 1: `pattern` 0 or 1 runs that gear
/// every time, 2 alternates.
void BM_FileGears(benchmark::State &state, const std::string &path) {
  Loaded l(path);
  if (l.model->gearCount() < 2) {
    state.SkipWithError("GEFLOW_GEAR_BENCH_OM: the model has fewer than 2 "
                        "gears");
    return;
  }
  GearIo io0(*l.model, 0), io1(*l.model, 1);
  int64_t pattern = state.range(0);
  size_t gear = pattern == 1 ? 1 : 0;
  for (auto _ : state) {
    GearIo &io = gear == 0 ? io0 : io1;
    if (rt::Status st = l.model->execute(io.in, io.out, nullptr, gear);
        !st.isOk())
      state.SkipWithError(st.toString().c_str());
    if (pattern == 2)
      gear = 1 - gear;
  }
}

} // namespace

int main(int argc, char **argv) {
  if (const char *path = std::getenv("GEFLOW_GEAR_BENCH_OM"))
    benchmark::RegisterBenchmark("BM_FileGears", BM_FileGears,
                                 std::string(path))
        ->ArgName("gear0_gear1_alternate")
        ->DenseRange(0, 2);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
