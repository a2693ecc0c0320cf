//===- DecodeSample.cpp - Concurrent decode requests over the C API -------===//
//
// A decode server in miniature, written against the aclmdl* / aclrt* C API
// the way the CANN multi-stream article writes one: every request runs on a
// stream of its own, through an execution context of its own that shares the
// model's weights (geflowmdlLoadSharedWeights), with its KV cache taken from
// the stream-ordered pool (aclrtMallocFromStream) and given back when it
// ends (aclrtFreeToStream). A finished request's slot takes the next request
// at once (continuous batching).
//
// The model is one step of a GPT-style decoder over a static KV cache
// (export_decoder.py): it takes a token, its position, a mask and the cache,
// and returns the logits and this token's keys and values, which the step
// copies into the cache on the request's stream.
//
// It prints tokens per simulated second for each concurrency and Jain's
// fairness index over the requests' rates; with --flat-steps it runs that
// many decode steps and reports whether the pool's memory stays flat. The
// --min-* and --check-* flags turn it into its own test.
//
//===----------------------------------------------------------------------===//
#include "acl/acl.h"
#include "acl/acl_mdl.h"
#include "examples/AclCheck.h"
#include "executor/runner/ServingStats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(const std::string &message) {
  std::fprintf(stderr, "error: %s\n", message.c_str());
  std::exit(1);
}

/// The model's sizes, read from its description.
struct Dims {
  size_t layers = 0, maxLen = 0, hidden = 0, vocab = 0;
  size_t in[5] = {};  // input indices: token, pos, mask, k_cache, v_cache
  size_t out[3] = {}; // output indices: logits, k_new, v_new
};

struct Request {
  std::vector<int64_t> prompt;
  int outLen = 0;
  std::vector<int64_t> generated;
  float durationMs = 0; // simulated, first step to last
  int steps() const { return int(prompt.size()) + outLen - 1; }
};

/// A place where one request runs at a time: an execution context of the
/// model, a stream, and the request's buffers.
struct Slot {
  uint32_t context = 0;
  aclrtStream stream = nullptr;
  aclrtEvent start = nullptr, end = nullptr;
  void *inDev[3] = {};  // token, pos, mask
  void *outDev[3] = {}; // logits, k_new, v_new
  int64_t *tokenHost = nullptr, *posHost = nullptr;
  float *maskHost = nullptr, *logitsHost = nullptr;
  void *kCache = nullptr, *vCache = nullptr; // the request's, from the pool
  aclmdlDataset *in = nullptr, *out = nullptr;
  Request *req = nullptr;
  int step = 0;
  int64_t next = 0; // the token chosen by the last step
};

struct Options {
  std::string model, ref, trace;
  std::vector<int> concurrency = {1, 2, 4, 8};
  int requests = 16;
  int flatSteps = 0;
  double minSpeedup = 0, minFairness = 0;
  bool checkFlat = false;
};

Dims describeModel(uint32_t id) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, id));
  Dims d;
  const char *inNames[] = {"token", "pos", "mask", "k_cache", "v_cache"};
  const char *outNames[] = {"logits", "k_new", "v_new"};
  for (int i = 0; i < 5; ++i)
    CHECK_ACL(aclmdlGetInputIndexByName(desc, inNames[i], &d.in[i]));
  for (int i = 0; i < 3; ++i)
    CHECK_ACL(aclmdlGetOutputIndexByName(desc, outNames[i], &d.out[i]));
  aclmdlIODims cache, logits;
  CHECK_ACL(aclmdlGetInputDims(desc, d.in[3], &cache));
  CHECK_ACL(aclmdlGetOutputDims(desc, d.out[0], &logits));
  if (cache.dimCount != 3 || logits.dimCount != 2)
    die("the model is not a decoder step: k_cache must be [layers, max_len, "
        "hidden] and logits [1, vocab]");
  d.layers = size_t(cache.dims[0]);
  d.maxLen = size_t(cache.dims[1]);
  d.hidden = size_t(cache.dims[2]);
  d.vocab = size_t(logits.dims[1]);
  CHECK_ACL(aclmdlDestroyDesc(desc));
  return d;
}

void *deviceBuffer(size_t bytes) {
  void *p = nullptr;
  CHECK_ACL(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  return p;
}

template <typename T> T *hostBuffer(size_t count) {
  void *p = nullptr;
  CHECK_ACL(aclrtMallocHost(&p, count * sizeof(T)));
  return static_cast<T *>(p);
}

Slot makeSlot(uint32_t model, const Dims &d) {
  Slot s;
  CHECK_ACL(geflowmdlLoadSharedWeights(model, -1, &s.context));
  CHECK_ACL(aclrtCreateStream(&s.stream));
  CHECK_ACL(aclrtCreateEvent(&s.start));
  CHECK_ACL(aclrtCreateEvent(&s.end));
  size_t inBytes[3] = {8, 8, (d.maxLen + 1) * 4};
  size_t outBytes[3] = {d.vocab * 4, d.layers * d.hidden * 4,
                        d.layers * d.hidden * 4};
  for (int i = 0; i < 3; ++i) {
    s.inDev[i] = deviceBuffer(inBytes[i]);
    s.outDev[i] = deviceBuffer(outBytes[i]);
  }
  s.tokenHost = hostBuffer<int64_t>(1);
  s.posHost = hostBuffer<int64_t>(1);
  s.maskHost = hostBuffer<float>(d.maxLen + 1);
  s.logitsHost = hostBuffer<float>(d.vocab);
  return s;
}

void releaseSlot(Slot &s) {
  for (int i = 0; i < 3; ++i) {
    CHECK_ACL(aclrtFree(s.inDev[i]));
    CHECK_ACL(aclrtFree(s.outDev[i]));
  }
  CHECK_ACL(aclrtFreeHost(s.tokenHost));
  CHECK_ACL(aclrtFreeHost(s.posHost));
  CHECK_ACL(aclrtFreeHost(s.maskHost));
  CHECK_ACL(aclrtFreeHost(s.logitsHost));
  CHECK_ACL(aclrtDestroyEvent(s.start));
  CHECK_ACL(aclrtDestroyEvent(s.end));
  CHECK_ACL(aclrtDestroyStream(s.stream));
  CHECK_ACL(aclmdlUnload(s.context));
}

aclmdlDataset *dataset(const std::vector<std::pair<void *, size_t>> &bufs) {
  aclmdlDataset *ds = aclmdlCreateDataset();
  for (const auto &[ptr, bytes] : bufs)
    CHECK_ACL(aclmdlAddDatasetBuffer(ds, aclCreateDataBuffer(ptr, bytes)));
  return ds;
}

void destroyDataset(aclmdlDataset *&ds) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
    CHECK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i)));
  CHECK_ACL(aclmdlDestroyDataset(ds));
  ds = nullptr;
}

/// Starts `req` on `s`: its KV cache from the pool on the slot's stream,
/// zeroed (positions not reached yet are masked, but must not be NaN).
void startRequest(Slot &s, Request *req, const Dims &d, const float *zeros) {
  size_t cacheBytes = d.layers * d.maxLen * d.hidden * 4;
  CHECK_ACL(aclrtMallocFromStream(&s.kCache, cacheBytes, s.stream));
  CHECK_ACL(aclrtMallocFromStream(&s.vCache, cacheBytes, s.stream));
  CHECK_ACL(aclrtMemcpyAsync(s.kCache, cacheBytes, zeros, cacheBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, s.stream));
  CHECK_ACL(aclrtMemcpyAsync(s.vCache, cacheBytes, zeros, cacheBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, s.stream));
  std::vector<std::pair<void *, size_t>> in(5), out(3);
  size_t inBytes[3] = {8, 8, (d.maxLen + 1) * 4};
  for (int i = 0; i < 3; ++i)
    in[d.in[i]] = {s.inDev[i], inBytes[i]};
  in[d.in[3]] = {s.kCache, cacheBytes};
  in[d.in[4]] = {s.vCache, cacheBytes};
  size_t outBytes[3] = {d.vocab * 4, d.layers * d.hidden * 4,
                        d.layers * d.hidden * 4};
  for (int i = 0; i < 3; ++i)
    out[d.out[i]] = {s.outDev[i], outBytes[i]};
  s.in = dataset(in);
  s.out = dataset(out);
  for (size_t i = 0; i < d.maxLen; ++i)
    s.maskHost[i] = -1e4f;
  s.maskHost[d.maxLen] = 0;
  s.req = req;
  s.step = 0;
  req->generated.clear();
  CHECK_ACL(aclrtRecordEvent(s.start, s.stream));
}

/// Enqueues the next step of the slot's request.
void enqueueStep(Slot &s, const Dims &d) {
  int pos = s.step;
  Request &r = *s.req;
  *s.tokenHost = pos < int(r.prompt.size()) ? r.prompt[pos] : s.next;
  *s.posHost = pos;
  if (pos > 0)
    s.maskHost[pos - 1] = 0; // the previous token's cache row is valid now
  size_t maskBytes = (d.maxLen + 1) * 4;
  CHECK_ACL(aclrtMemcpyAsync(s.inDev[0], 8, s.tokenHost, 8,
                             ACL_MEMCPY_HOST_TO_DEVICE, s.stream));
  CHECK_ACL(aclrtMemcpyAsync(s.inDev[1], 8, s.posHost, 8,
                             ACL_MEMCPY_HOST_TO_DEVICE, s.stream));
  CHECK_ACL(aclrtMemcpyAsync(s.inDev[2], maskBytes, s.maskHost, maskBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, s.stream));
  CHECK_ACL(aclmdlExecuteAsync(s.context, s.in, s.out, s.stream));
  // This token's keys and values go to row `pos` of the cache.
  size_t row = d.hidden * 4;
  for (size_t l = 0; l < d.layers; ++l) {
    size_t at = (l * d.maxLen + size_t(pos)) * row;
    CHECK_ACL(aclrtMemcpyAsync(static_cast<char *>(s.kCache) + at, row,
                               static_cast<char *>(s.outDev[1]) + l * row, row,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, s.stream));
    CHECK_ACL(aclrtMemcpyAsync(static_cast<char *>(s.vCache) + at, row,
                               static_cast<char *>(s.outDev[2]) + l * row, row,
                               ACL_MEMCPY_DEVICE_TO_DEVICE, s.stream));
  }
  CHECK_ACL(aclrtMemcpyAsync(s.logitsHost, d.vocab * 4, s.outDev[0],
                             d.vocab * 4, ACL_MEMCPY_DEVICE_TO_HOST, s.stream));
  CHECK_ACL(aclrtRecordEvent(s.end, s.stream));
}

/// After a step's stream is synchronized: the greedy token, and whether the
/// request is done (then its cache goes back to the pool on its stream).
bool finishStep(Slot &s, const Dims &d) {
  Request &r = *s.req;
  s.next =
      std::max_element(s.logitsHost, s.logitsHost + d.vocab) - s.logitsHost;
  if (s.step >= int(r.prompt.size()) - 1)
    r.generated.push_back(s.next);
  if (++s.step < r.steps())
    return false;
  CHECK_ACL(aclrtEventElapsedTime(&r.durationMs, s.start, s.end));
  CHECK_ACL(aclrtFreeToStream(s.kCache, s.stream));
  CHECK_ACL(aclrtFreeToStream(s.vCache, s.stream));
  destroyDataset(s.in);
  destroyDataset(s.out);
  s.req = nullptr;
  return true;
}

/// Requests of unequal prompt and output lengths; request 0 is `refPrompt`
/// with `refLen` tokens out, so it can be checked against torch.
std::vector<Request> makeRequests(int n, const Dims &d,
                                  const std::vector<int64_t> &refPrompt,
                                  int refLen) {
  std::vector<Request> reqs(n);
  for (int r = 0; r < n; ++r) {
    if (r == 0 && !refPrompt.empty()) {
      reqs[r].prompt = refPrompt;
      reqs[r].outLen = refLen;
      continue;
    }
    int promptLen = 1 + (r * 3) % 6;
    for (int i = 0; i < promptLen; ++i)
      reqs[r].prompt.push_back((r * 7 + i * 13 + 1) % int64_t(d.vocab));
    reqs[r].outLen = 4 + (r * 5) % 13;
  }
  for (const Request &r : reqs)
    if (size_t(r.steps()) > d.maxLen)
      die("a request needs more steps than the cache holds");
  return reqs;
}

struct Pool {
  const Dims &d;
  std::vector<Slot> slots;
  std::vector<float> zeros;
};

/// Runs `reqs` through `concurrency` slots, continuous batching. Calls
/// `afterRound` (may be empty) after each round of steps.
template <typename F>
void serve(Pool &pool, int concurrency, std::vector<Request> &reqs,
           F afterRound, long *steps) {
  size_t nextReq = 0;
  for (;;) {
    bool any = false;
    for (int i = 0; i < concurrency; ++i) {
      Slot &s = pool.slots[i];
      if (!s.req && nextReq < reqs.size())
        startRequest(s, &reqs[nextReq++], pool.d, pool.zeros.data());
      if (s.req) {
        enqueueStep(s, pool.d);
        any = true;
      }
    }
    if (!any)
      return;
    for (int i = 0; i < concurrency; ++i) {
      Slot &s = pool.slots[i];
      if (!s.req)
        continue;
      CHECK_ACL(aclrtSynchronizeStream(s.stream));
      ++*steps;
      finishStep(s, pool.d);
    }
    afterRound();
  }
}

double deviceUs() {
  double us = 0;
  CHECK_ACL(geflowrtGetDeviceTimeUs(&us));
  return us;
}

/// One run per concurrency; checks --min-speedup (4 against 1) and
/// --min-fairness, and request 0 against torch's tokens.
int runConcurrencies(Pool &pool, const Options &o,
                     const std::vector<int64_t> &refPrompt,
                     const std::vector<int64_t> &refTokens) {
  double tokensPerSec1 = 0, tokensPerSec4 = 0;
  bool ok = true;
  std::printf("%-12s %8s %8s %12s %16s %14s %9s\n", "concurrency", "requests",
              "tokens", "sim us", "tokens/sim s", "host tokens/s", "fairness");
  for (int c : o.concurrency) {
    std::vector<Request> reqs =
        makeRequests(o.requests, pool.d, refPrompt, int(refTokens.size()));
    long steps = 0;
    double t0 = deviceUs();
    auto h0 = std::chrono::steady_clock::now();
    serve(pool, c, reqs, [] {}, &steps);
    double hostS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - h0)
            .count();
    double simUs = deviceUs() - t0;
    long tokens = 0;
    std::vector<double> rates;
    for (const Request &r : reqs) {
      tokens += long(r.generated.size());
      rates.push_back(r.steps() / std::max(1e-9, double(r.durationMs)));
    }
    double perSec = tokens / (simUs * 1e-6);
    double fairness = geflow::exec::jainIndex(rates);
    std::printf("%-12d %8d %8ld %12.1f %16.0f %14.0f %9.4f\n", c, o.requests,
                tokens, simUs, perSec, tokens / hostS, fairness);
    if (c == 1)
      tokensPerSec1 = perSec;
    if (c == 4)
      tokensPerSec4 = perSec;
    if (c > 1 && fairness < o.minFairness) {
      std::printf("FAIL: fairness %.4f at concurrency %d is below %.2f\n",
                  fairness, c, o.minFairness);
      ok = false;
    }
    if (!refTokens.empty() && reqs[0].generated != refTokens) {
      std::printf("FAIL: request 0's tokens differ from torch's at "
                  "concurrency %d\n",
                  c);
      ok = false;
    }
  }
  if (tokensPerSec1 > 0 && tokensPerSec4 > 0) {
    double speedup = tokensPerSec4 / tokensPerSec1;
    std::printf("speedup 4 vs 1 concurrent: %.2fx simulated throughput\n",
                speedup);
    if (speedup < o.minSpeedup) {
      std::printf("FAIL: below %.2fx\n", o.minSpeedup);
      ok = false;
    }
  } else if (o.minSpeedup > 0) {
    die("--min-speedup needs concurrencies 1 and 4");
  }
  if (!refTokens.empty() && ok)
    std::printf("request 0's tokens match torch's\n");
  return ok ? 0 : 1;
}

/// --flat-steps: decode steps at the largest concurrency, sampling the
/// pool after every round; the second half must not exceed the first.
int runFlat(Pool &pool, const Options &o) {
  int c = *std::max_element(o.concurrency.begin(), o.concurrency.end());
  geflowrtMemoryStats first{}, second{}; // maxima over each half
  auto fold = [](geflowrtMemoryStats &m, const geflowrtMemoryStats &s) {
    m.peakInUseBytes = std::max(m.peakInUseBytes, s.peakInUseBytes);
    m.reservedBytes = std::max(m.reservedBytes, s.reservedBytes);
    m.cachedBytes = std::max(m.cachedBytes, s.cachedBytes);
    m.numSegments = std::max(m.numSegments, s.numSegments);
    m.fragmentation = std::max(m.fragmentation, s.fragmentation);
  };
  long steps = 0;
  while (steps < o.flatSteps) {
    std::vector<Request> reqs = makeRequests(o.requests, pool.d, {}, 0);
    serve(
        pool, c, reqs,
        [&] {
          if (steps < o.flatSteps / 10 || steps >= o.flatSteps)
            return; // warm-up, or past the end
          geflowrtMemoryStats s{};
          CHECK_ACL(geflowrtGetMemoryStats(&s));
          fold(steps < o.flatSteps / 2 ? first : second, s);
        },
        &steps);
  }
  auto show = [](const char *what, const geflowrtMemoryStats &m) {
    std::printf("%-26s peak %8.1f KiB  reserved %8.1f KiB  cached %8.1f KiB  "
                "segments %3llu  fragmentation %.3f\n",
                what, m.peakInUseBytes / 1024.0, m.reservedBytes / 1024.0,
                m.cachedBytes / 1024.0, (unsigned long long)m.numSegments,
                m.fragmentation);
  };
  std::printf("%ld decode steps at concurrency %d\n", steps, c);
  show("steps 10%-50% (max):", first);
  show("steps 50%-100% (max):", second);
  bool flat = second.peakInUseBytes <= first.peakInUseBytes &&
              second.reservedBytes <= first.reservedBytes &&
              second.cachedBytes <= first.cachedBytes &&
              second.numSegments <= first.numSegments &&
              second.fragmentation <= first.fragmentation + 1e-9;
  std::printf("memory %s\n", flat ? "flat" : "GREW");
  return o.checkFlat && !flat ? 1 : 0;
}

std::vector<int64_t> parseInts(const std::string &text, char sep) {
  std::vector<int64_t> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty())
      v.push_back(std::strtoll(item.c_str(), nullptr, 10));
  return v;
}

/// The "prompt ..." and "tokens ..." lines of export_decoder.py's reference.
void readRef(const std::string &path, std::vector<int64_t> *prompt,
             std::vector<int64_t> *tokens) {
  std::ifstream f(path);
  if (!f)
    die("cannot read '" + path + "'");
  std::string line;
  while (std::getline(f, line)) {
    std::string key = line.substr(0, line.find(' '));
    std::vector<int64_t> v = parseInts(line.substr(key.size()), ' ');
    (key == "prompt" ? *prompt : *tokens) = v;
  }
  if (prompt->empty() || tokens->empty())
    die("'" + path + "': expected 'prompt' and 'tokens' lines");
}

Options parseArgs(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--model")
      o.model = value();
    else if (a == "--ref")
      o.ref = value();
    else if (a == "--trace")
      o.trace = value();
    else if (a == "--concurrency") {
      o.concurrency.clear();
      for (int64_t c : parseInts(value(), ','))
        o.concurrency.push_back(int(c));
    } else if (a == "--requests")
      o.requests = std::atoi(value().c_str());
    else if (a == "--flat-steps")
      o.flatSteps = std::atoi(value().c_str());
    else if (a == "--min-speedup")
      o.minSpeedup = std::atof(value().c_str());
    else if (a == "--min-fairness")
      o.minFairness = std::atof(value().c_str());
    else if (a == "--check-flat")
      o.checkFlat = true;
    else
      die("unknown argument '" + a +
          "' (--model FILE [--ref FILE] "
          "[--concurrency 1,2,4,8] [--requests N] [--flat-steps N] "
          "[--check-flat] [--min-speedup X] [--min-fairness F] [--trace F])");
  }
  if (o.model.empty())
    die("--model FILE is required");
  if (o.concurrency.empty() || o.requests < 1)
    die("--concurrency and --requests must be at least 1");
  for (int c : o.concurrency)
    if (c < 1 || c > 64)
      die("--concurrency " + std::to_string(c) + ": expected 1..64");
  return o;
}

} // namespace

int main(int argc, char **argv) {
  Options o = parseArgs(argc, argv);
  std::vector<int64_t> refPrompt, refTokens;
  if (!o.ref.empty())
    readRef(o.ref, &refPrompt, &refTokens);
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  if (!o.trace.empty())
    CHECK_ACL(geflowrtEnableTrace(1));
  uint32_t model = 0;
  CHECK_ACL(aclmdlLoadFromFile(o.model.c_str(), &model));
  Dims d = describeModel(model);
  std::printf("decoder step: %zu layers, hidden %zu, cache %zu, vocab %zu\n",
              d.layers, d.hidden, d.maxLen, d.vocab);
  Pool pool{d, {}, std::vector<float>(d.layers * d.maxLen * d.hidden, 0.f)};
  int most = *std::max_element(o.concurrency.begin(), o.concurrency.end());
  for (int i = 0; i < most; ++i)
    pool.slots.push_back(makeSlot(model, d));

  int rc = o.flatSteps > 0 ? runFlat(pool, o)
                           : runConcurrencies(pool, o, refPrompt, refTokens);
  if (!o.trace.empty())
    CHECK_ACL(geflowrtExportTrace(o.trace.c_str()));
  for (Slot &s : pool.slots)
    releaseSlot(s);
  CHECK_ACL(aclmdlUnload(model));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return rc;
}
