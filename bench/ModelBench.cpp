//===- ModelBench.cpp - host latency of compiled models ------------------===//
//
// `geflow run --repeat` reports a median, which a shared machine's load
// moves by 10-30 %; comparing two builds of a kernel needs a figure the load
// moves less. This loads each OM named on the command line once and times
// its executions with Google Benchmark: mean, median and the minimum over
// repetitions (`--benchmark_repetitions=N`), the minimum being what the
// machine's neighbours leave alone. Inputs are zeros, or the first one read
// from FILE (.npy or .pb) for MODEL.om=FILE, for models whose work depends
// on the values (NMS, TopK, NonZero, a mask). (Zeros were once blamed for a
// 489 ms ViT-B/16 run; it was a process's slow first runs, which
// runtime/support/MemoryPages.h describes: ViT takes 188 ms on either input.)
// Host threads come from GEFLOW_BENCH_THREADS (default 1).
//
//   geflow-model-bench [benchmark flags] MODEL.om[=INPUT]...
//
//===----------------------------------------------------------------------===//

#include "HostIsaContext.h"

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "tools/geflow/TensorFiles.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

using namespace geflow;

namespace {

/// A device and a loaded model with zeroed input and output buffers.
struct LoadedBench {
  std::unique_ptr<rt::Device> device;
  std::unique_ptr<exec::LoadedModel> model;
  std::vector<std::vector<char>> storage;
  std::vector<exec::Buffer> inputs, outputs;

  /// Null with the error printed when the model does not load or `input`
  /// (may be empty) does not fit its first input.
  static std::unique_ptr<LoadedBench>
  load(const std::string &path, const std::string &input, unsigned threads) {
    auto l = std::make_unique<LoadedBench>();
    rt::DeviceOptions options;
    options.workerThreads = static_cast<int>(threads) - 1; // + the caller
    rt::Status st = rt::Device::create(options, &l->device);
    if (st.isOk())
      st = exec::LoadedModel::load(*l->device, path, &l->model);
    if (!st.isOk()) {
      std::fprintf(stderr, "geflow-model-bench: %s: %s\n", path.c_str(),
                   st.toString().c_str());
      return nullptr;
    }
    l->bind(l->model->inputs(), &l->inputs);
    l->bind(l->model->outputs(), &l->outputs);
    if (!input.empty() && !l->fill(input))
      return nullptr;
    return l;
  }

private:
  /// The first input's buffer from the tensor file `path`.
  bool fill(const std::string &path) {
    llvm::Expected<cli::HostTensor> tensor = cli::readTensorFile(path);
    if (!tensor) {
      std::fprintf(stderr, "geflow-model-bench: %s: %s\n", path.c_str(),
                   llvm::toString(tensor.takeError()).c_str());
      return false;
    }
    if (inputs.empty() || tensor->bytes.size() != inputs[0].size) {
      std::fprintf(stderr,
                   "geflow-model-bench: %s: %s does not fit the model's first "
                   "input (%zu bytes)\n",
                   path.c_str(),
                   cli::describe(tensor->dtype, tensor->shape).c_str(),
                   inputs.empty() ? size_t(0) : size_t(inputs[0].size));
      return false;
    }
    std::copy(tensor->bytes.begin(), tensor->bytes.end(),
              static_cast<uint8_t *>(inputs[0].data));
    return true;
  }

  void bind(const std::vector<exec::TensorInfo> &tensors,
            std::vector<exec::Buffer> *buffers) {
    for (const exec::TensorInfo &t : tensors) {
      storage.emplace_back(std::max<uint64_t>(t.bytes, 1), 0);
      buffers->push_back({storage.back().data(), storage.back().size()});
    }
  }
};

void runModel(benchmark::State &state, LoadedBench *l) {
  for (auto _ : state)
    if (rt::Status st = l->model->execute(l->inputs, l->outputs); !st.isOk()) {
      state.SkipWithError(st.toString().c_str());
      break;
    }
}

double minimum(const std::vector<double> &v) {
  return *std::min_element(v.begin(), v.end());
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  const char *threadsEnv = std::getenv("GEFLOW_BENCH_THREADS");
  const unsigned threads = threadsEnv ? std::atoi(threadsEnv) : 1;
  std::vector<std::unique_ptr<LoadedBench>> models;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string path = arg.substr(0, eq);
    const std::string input = eq == std::string::npos ? "" : arg.substr(eq + 1);
    models.push_back(LoadedBench::load(path, input, std::max(threads, 1u)));
    if (!models.back())
      return 1;
    std::string name = path.substr(path.find_last_of('/') + 1);
    benchmark::RegisterBenchmark(name.c_str(), runModel, models.back().get())
        ->Unit(benchmark::kMillisecond)
        ->ComputeStatistics("min", minimum)
        ->UseRealTime();
  }
  if (models.empty()) {
    std::fprintf(stderr, "usage: geflow-model-bench [benchmark flags] "
                         "MODEL.om[=INPUT]...\n");
    return 1;
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
