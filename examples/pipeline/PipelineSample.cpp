//===- PipelineSample.cpp - A three-stage inference pipeline, 1 vs 3 streams
//===//
//
// preprocess (vector cores, or DVPP) -> inference (cube cores) ->
// postprocess (vector cores), over N batches, written against the AscendCL-
// shaped C API only. Run once with every stage on one stream, then with one
// stream per stage ordered by events, and compare the simulated makespans.
//
// The costs given to the simulator are those of a ResNet-50-sized batch (32
// images of 224x224); the host functions compute a toy model (64 features,
// 10 classes) so the results are real and can be compared between the two
// runs. All figures are illustrative.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_rt.h"
#include "examples/AclCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr int kImages = 32, kFeatures = 64, kClasses = 10;

// One batch's device buffers and the arguments of its three kernels.
struct Batch {
  uint8_t *rawDev = nullptr;  // kImages x kFeatures
  float *xDev = nullptr;      // normalised input
  float *logitsDev = nullptr; // kImages x kClasses
  int32_t *labelsDev = nullptr;
  const float *weightsDev = nullptr;
};

// Rows are split over blocks: block b takes rows b, b + blockDim, ...
int32_t preprocess(uint32_t block, uint32_t blockDim, void *user) {
  auto *b = static_cast<Batch *>(user);
  for (uint32_t r = block; r < kImages; r += blockDim)
    for (int f = 0; f < kFeatures; ++f)
      b->xDev[r * kFeatures + f] =
          (static_cast<float>(b->rawDev[r * kFeatures + f]) - 127.5f) / 64.0f;
  return 0;
}

int32_t inference(uint32_t block, uint32_t blockDim, void *user) {
  auto *b = static_cast<Batch *>(user);
  for (uint32_t r = block; r < kImages; r += blockDim)
    for (int c = 0; c < kClasses; ++c) {
      float acc = 0;
      for (int f = 0; f < kFeatures; ++f)
        acc += b->xDev[r * kFeatures + f] * b->weightsDev[f * kClasses + c];
      b->logitsDev[r * kClasses + c] = acc;
    }
  return 0;
}

int32_t postprocess(uint32_t block, uint32_t blockDim, void *user) {
  auto *b = static_cast<Batch *>(user);
  for (uint32_t r = block; r < kImages; r += blockDim) {
    const float *l = b->logitsDev + r * kClasses;
    float mx = *std::max_element(l, l + kClasses), sum = 0;
    float p[kClasses];
    for (int c = 0; c < kClasses; ++c)
      sum += p[c] = std::exp(l[c] - mx);
    int best = 0;
    for (int c = 1; c < kClasses; ++c)
      if (p[c] / sum > p[best] / sum)
        best = c;
    b->labelsDev[r] = best;
  }
  return 0;
}

struct Options {
  int batches = 8;
  bool dvpp = false;
  double minRatio = 0;
  std::string soc;
  std::string trace;
};

struct StageTimes {
  std::vector<aclrtEvent> begin, end; // per batch
};

struct RunResult {
  double makespanUs = 0;
  std::vector<int32_t> labels;
  // Busy intervals per stage, in us since the run started.
  std::vector<std::vector<std::pair<double, double>>> busy;
};

geflowrtKernelDesc stage(const char *name, const char *opType,
                         geflowrtEngine engine, uint32_t blockDim, double flops,
                         double bytes, geflowrtKernelFunc fn, Batch *b) {
  geflowrtKernelDesc k{};
  k.name = name;
  k.opType = opType;
  k.engine = engine;
  k.blockDim = blockDim;
  k.flops = flops;
  k.bytes = bytes;
  k.func = fn;
  k.userData = b;
  return k;
}

RunResult run(const Options &opt, int numStreams, const float *weightsDev,
              const std::vector<std::vector<uint8_t>> &inputs) {
  int n = opt.batches;
  std::vector<aclrtStream> streams(3);
  for (int s = 0; s < numStreams; ++s)
    CHECK_ACL(aclrtCreateStream(&streams[s]));
  for (int s = numStreams; s < 3; ++s)
    streams[s] = streams[0];
  std::vector<Batch> batches(n);
  std::vector<int32_t> labels(static_cast<size_t>(n) * kImages, -1);
  std::vector<StageTimes> times(3);
  std::vector<aclrtEvent> handoff; // pre -> inf, inf -> post, per batch
  aclrtEvent origin;
  CHECK_ACL(aclrtCreateEvent(&origin));
  for (StageTimes &t : times) {
    t.begin.resize(n);
    t.end.resize(n);
    for (int i = 0; i < n; ++i) {
      CHECK_ACL(aclrtCreateEvent(&t.begin[i]));
      CHECK_ACL(aclrtCreateEvent(&t.end[i]));
    }
  }
  for (Batch &b : batches) {
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&b.rawDev),
                          kImages * kFeatures, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&b.xDev),
                          kImages * kFeatures * sizeof(float),
                          ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&b.logitsDev),
                          kImages * kClasses * sizeof(float),
                          ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(reinterpret_cast<void **>(&b.labelsDev),
                          kImages * sizeof(int32_t),
                          ACL_MEM_MALLOC_HUGE_FIRST));
    b.weightsDev = weightsDev;
  }

  // Stage costs: a ResNet-50-sized batch of 32 (illustrative). Balanced on
  // the 910B preset: each stage takes about 370 us on the cores it asks for.
  const double imageBytes = 224.0 * 224 * 3;
  geflowrtEngine preEngine = opt.dvpp ? GEFLOW_ENGINE_DVPP : GEFLOW_ENGINE_AIV;
  uint32_t preBlocks = opt.dvpp ? 4 : 16;

  double before = 0, after = 0;
  CHECK_ACL(geflowrtGetDeviceTimeUs(&before));
  CHECK_ACL(aclrtRecordEvent(origin, streams[0]));
  for (int s = 1; s < numStreams; ++s)
    CHECK_ACL(aclrtStreamWaitEvent(streams[s], origin));
  for (int i = 0; i < n; ++i) {
    Batch *b = &batches[i];
    aclrtStream pre = streams[0], inf = streams[1], post = streams[2];
    // Preprocess: upload the raw batch, decode/resize/normalise.
    CHECK_ACL(aclrtRecordEvent(times[0].begin[i], pre));
    CHECK_ACL(aclrtMemcpyAsync(b->rawDev, kImages * kFeatures, inputs[i].data(),
                               kImages * kFeatures, ACL_MEMCPY_HOST_TO_DEVICE,
                               pre));
    geflowrtKernelDesc k =
        stage("preprocess", "ImageNormalize", preEngine, preBlocks, 2.7e9,
              kImages * imageBytes * 5, preprocess, b);
    CHECK_ACL(geflowrtLaunchKernel(&k, pre));
    CHECK_ACL(aclrtRecordEvent(times[0].end[i], pre));
    // Inference on the cube cores.
    if (numStreams > 1)
      CHECK_ACL(aclrtStreamWaitEvent(inf, times[0].end[i]));
    CHECK_ACL(aclrtRecordEvent(times[1].begin[i], inf));
    k = stage("inference", "ResNet50", GEFLOW_ENGINE_AIC, 24, 131e9, 200e6,
              inference, b);
    CHECK_ACL(geflowrtLaunchKernel(&k, inf));
    CHECK_ACL(aclrtRecordEvent(times[1].end[i], inf));
    // Postprocess: softmax + top-1 on the vector cores, download labels.
    if (numStreams > 1)
      CHECK_ACL(aclrtStreamWaitEvent(post, times[1].end[i]));
    CHECK_ACL(aclrtRecordEvent(times[2].begin[i], post));
    k = stage("postprocess", "SoftmaxTopK", GEFLOW_ENGINE_AIV, 16, 2.7e9, 1e6,
              postprocess, b);
    CHECK_ACL(geflowrtLaunchKernel(&k, post));
    CHECK_ACL(aclrtMemcpyAsync(&labels[static_cast<size_t>(i) * kImages],
                               kImages * sizeof(int32_t), b->labelsDev,
                               kImages * sizeof(int32_t),
                               ACL_MEMCPY_DEVICE_TO_HOST, post));
    CHECK_ACL(aclrtRecordEvent(times[2].end[i], post));
  }
  for (int s = 0; s < numStreams; ++s)
    CHECK_ACL(aclrtSynchronizeStream(streams[s]));
  CHECK_ACL(geflowrtGetDeviceTimeUs(&after));

  RunResult r;
  r.makespanUs = after - before;
  r.labels = labels;
  r.busy.resize(3);
  for (int st = 0; st < 3; ++st)
    for (int i = 0; i < n; ++i) {
      float b = 0, e = 0;
      CHECK_ACL(aclrtEventElapsedTime(&b, origin, times[st].begin[i]));
      CHECK_ACL(aclrtEventElapsedTime(&e, origin, times[st].end[i]));
      r.busy[st].push_back({b * 1000.0, e * 1000.0});
    }

  for (StageTimes &t : times)
    for (int i = 0; i < n; ++i) {
      CHECK_ACL(aclrtDestroyEvent(t.begin[i]));
      CHECK_ACL(aclrtDestroyEvent(t.end[i]));
    }
  CHECK_ACL(aclrtDestroyEvent(origin));
  for (Batch &b : batches) {
    CHECK_ACL(aclrtFree(b.rawDev));
    CHECK_ACL(aclrtFree(b.xDev));
    CHECK_ACL(aclrtFree(b.logitsDev));
    CHECK_ACL(aclrtFree(b.labelsDev));
  }
  for (int s = 0; s < numStreams; ++s)
    CHECK_ACL(aclrtDestroyStream(streams[s]));
  return r;
}

// Time both stages are busy / busy time of the less busy one, as msprof-style
// overlap summaries define it.
double overlapPct(const std::vector<std::pair<double, double>> &a,
                  const std::vector<std::pair<double, double>> &b) {
  double both = 0, busyA = 0, busyB = 0;
  for (auto [s, e] : a)
    busyA += e - s;
  for (auto [s, e] : b)
    busyB += e - s;
  for (auto [s1, e1] : a)
    for (auto [s2, e2] : b)
      both += std::max(0.0, std::min(e1, e2) - std::max(s1, s2));
  double shorter = std::min(busyA, busyB);
  return shorter > 0 ? both / shorter : 0;
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "error: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--batches")
      o.batches = std::atoi(value().c_str());
    else if (a == "--dvpp")
      o.dvpp = true;
    else if (a == "--min-ratio")
      o.minRatio = std::atof(value().c_str());
    else if (a == "--soc")
      o.soc = value();
    else if (a == "--trace")
      o.trace = value();
    else {
      std::fprintf(stderr,
                   "usage: geflow-pipeline-sample [--batches N] [--dvpp] "
                   "[--soc NAME|INI] [--trace OUT.json] [--min-ratio R]\n");
      std::exit(a == "--help" ? 0 : 2);
    }
  }
  if (o.batches < 1) {
    std::fprintf(stderr, "error: --batches must be at least 1\n");
    std::exit(2);
  }
  return o;
}

} // namespace

int main(int argc, char **argv) {
  Options opt = parseArgs(argc, argv);
  CHECK_ACL(aclInit(nullptr));
  if (!opt.soc.empty())
    CHECK_ACL(geflowrtSetSoc(opt.soc.c_str()));
  CHECK_ACL(aclrtSetDevice(0));

  // Deterministic inputs and weights.
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
  };
  std::vector<std::vector<uint8_t>> inputs(opt.batches);
  for (auto &in : inputs) {
    in.resize(kImages * kFeatures);
    for (uint8_t &v : in)
      v = static_cast<uint8_t>(next() & 0xff);
  }
  std::vector<float> weights(kFeatures * kClasses);
  for (float &w : weights)
    w = static_cast<float>(next() % 2001) / 1000.0f - 1.0f;
  void *weightsDev = nullptr;
  CHECK_ACL(aclrtMalloc(&weightsDev, weights.size() * sizeof(float),
                        ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(weightsDev, weights.size() * sizeof(float),
                        weights.data(), weights.size() * sizeof(float),
                        ACL_MEMCPY_HOST_TO_DEVICE));

  RunResult one = run(opt, 1, static_cast<float *>(weightsDev), inputs);
  if (!opt.trace.empty())
    CHECK_ACL(geflowrtEnableTrace(1));
  RunResult three = run(opt, 3, static_cast<float *>(weightsDev), inputs);
  if (!opt.trace.empty())
    CHECK_ACL(geflowrtExportTrace(opt.trace.c_str()));

  double ratio = one.makespanUs / three.makespanUs;
  bool same =
      one.labels == three.labels &&
      std::find(one.labels.begin(), one.labels.end(), -1) == one.labels.end();
  std::printf("geflow pipeline sample: %d batches of %d images on %s, "
              "preprocess on %s\n",
              opt.batches, kImages, aclrtGetSocName(),
              opt.dvpp ? "DVPP" : "vector cores (AIV)");
  std::printf("  one stream:    makespan %10.1f us\n", one.makespanUs);
  std::printf("  three streams: makespan %10.1f us\n", three.makespanUs);
  std::printf("  ratio (one / three): %.2fx\n", ratio);
  // The field's reading: >= 0.5 is real overlap, <= 0.05 false parallelism.
  auto verdict = [](double pct) {
    return pct >= 0.5    ? "real overlap"
           : pct <= 0.05 ? "false parallelism"
                         : "partial overlap";
  };
  const char *names[] = {"preprocess", "inference", "postprocess"};
  for (auto [a, b] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{0, 2}}) {
    double pct = overlapPct(three.busy[a], three.busy[b]);
    std::printf("  overlap_pct %-11s | %-11s %.2f  (%s)\n", names[a], names[b],
                pct, verdict(pct));
  }
  std::printf("  results identical on both runs: %s (%zu labels)\n",
              same ? "yes" : "NO", one.labels.size());
  if (!opt.trace.empty())
    std::printf("  trace of the three-stream run: %s\n", opt.trace.c_str());

  CHECK_ACL(aclrtFree(weightsDev));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  if (!same) {
    std::fprintf(stderr, "error: the two runs computed different labels\n");
    return 1;
  }
  if (ratio < opt.minRatio) {
    std::fprintf(stderr, "error: ratio %.2f is below the required %.2f\n",
                 ratio, opt.minRatio);
    return 1;
  }
  return 0;
}
