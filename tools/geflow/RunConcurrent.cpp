//===- RunConcurrent.cpp - geflow run --concurrency N --requests M --------===//
//
// The host loop is the one a server runs: each context has a caller stream;
// a request is an execution enqueued there between two events; the context
// whose request started first is synchronized next and takes the next
// request. With identical requests that is the first to finish, so it is
// continuous batching without a query per context.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/RunConcurrent.h"

#include "executor/runner/ServingStats.h"
#include "runtime/Device.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>

using namespace llvm;

namespace geflow::cli {
namespace {

Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// One execution context and what its requests need.
struct Context {
  exec::LoadedModel *model = nullptr;
  std::unique_ptr<exec::LoadedModel> owned; // null for the loaded model
  rt::Stream *caller = nullptr;
  rt::Event *start = nullptr, *end = nullptr;
  std::vector<std::vector<uint8_t>> outputs;
  std::vector<exec::Buffer> outputBuffers;
};

/// Busy intervals [start, end) in virtual ns.
using Intervals = std::vector<std::pair<rt::VirtualNs, rt::VirtualNs>>;

Intervals merged(Intervals v) {
  std::sort(v.begin(), v.end());
  Intervals out;
  for (const auto &iv : v) {
    if (!out.empty() && iv.first <= out.back().second)
      out.back().second = std::max(out.back().second, iv.second);
    else
      out.push_back(iv);
  }
  return out;
}

/// Time during which at least two of `perContext` (each merged) are busy.
rt::VirtualNs overlapOfTwoOrMore(const std::vector<Intervals> &perContext) {
  std::vector<std::pair<rt::VirtualNs, int>> edges;
  for (const Intervals &c : perContext)
    for (const auto &[s, e] : c) {
      edges.push_back({s, +1});
      edges.push_back({e, -1});
    }
  std::sort(edges.begin(), edges.end()); // ends (-1) before starts at a tie
  rt::VirtualNs total = 0, last = 0;
  int busy = 0;
  for (const auto &[t, d] : edges) {
    if (busy >= 2)
      total += t - last;
    busy += d;
    last = t;
  }
  return total;
}

Error makeContexts(exec::LoadedModel &model, size_t gear, rt::Device &device,
                   unsigned n, std::vector<Context> *out) {
  for (unsigned i = 0; i < n; ++i) {
    Context c;
    if (i == 0) {
      c.model = &model;
    } else {
      if (rt::Status s = model.createContext(-1, &c.owned); !s.isOk())
        return fail(s.message());
      c.model = c.owned.get();
    }
    for (rt::Status s :
         {device.createStream(0, &c.caller), device.createEvent(&c.start),
          device.createEvent(&c.end)})
      if (!s.isOk())
        return fail(s.message());
    for (const exec::TensorInfo &info : model.outputs(gear))
      c.outputs.emplace_back(info.bytes);
    for (std::vector<uint8_t> &o : c.outputs)
      c.outputBuffers.push_back({o.data(), o.size()});
    out->push_back(std::move(c));
  }
  return Error::success();
}

Error startRequest(Context &c, size_t gear, rt::Device &device,
                   const std::vector<exec::Buffer> &inputs) {
  rt::Status s = device.recordEvent(c.start, c.caller);
  if (s.isOk())
    s = c.model->executeAsync(inputs, c.outputBuffers, c.caller, gear);
  if (s.isOk())
    s = device.recordEvent(c.end, c.caller);
  return s.isOk() ? Error::success() : fail(s.message());
}

/// Busy time per stream, and per context the merged busy intervals of its
/// model streams, from the trace's kernels and copies.
void busyTimes(const std::vector<rt::TaskRecord> &records,
               const std::vector<Context> &contexts,
               std::map<rt::StreamId, rt::VirtualNs> *perStream,
               std::vector<Intervals> *perContext) {
  std::map<rt::StreamId, size_t> owner;
  for (size_t i = 0; i < contexts.size(); ++i)
    for (rt::StreamId id : contexts[i].model->streamIds())
      owner[id] = i;
  perContext->assign(contexts.size(), {});
  for (const rt::TaskRecord &r : records) {
    if (r.kind != rt::TaskKind::kKernel && r.kind != rt::TaskKind::kMemcpy)
      continue;
    auto it = owner.find(r.stream);
    if (it == owner.end())
      continue;
    (*perStream)[r.stream] += r.endNs - r.startNs;
    (*perContext)[it->second].push_back({r.startNs, r.endNs});
  }
  for (Intervals &v : *perContext)
    v = merged(std::move(v));
}

void printReport(const ConcurrentRunFlags &flags,
                 const std::vector<double> &latencyUs, double simUs,
                 double hostS, const std::vector<Context> &contexts,
                 const std::vector<rt::TaskRecord> &records, raw_ostream &os) {
  std::vector<double> rates;
  for (double us : latencyUs)
    rates.push_back(1e6 / std::max(us, 1e-9));
  os << formatv("  concurrency    {0} contexts, {1} requests (continuous "
                "batching)\n",
                flags.concurrency, flags.requests);
  os << formatv("  throughput     {0:F1} requests/s simulated ({1:F1} us), "
                "{2:F1} requests/s host ({3:F3} ms)\n",
                flags.requests / (simUs * 1e-6), simUs,
                flags.requests / std::max(hostS, 1e-12), hostS * 1e3);
  os << formatv("  latency        p50 {0:F1} us  p99 {1:F1} us (simulated, "
                "per request)\n",
                exec::percentile(latencyUs, 0.5),
                exec::percentile(latencyUs, 0.99));
  os << formatv("  fairness       {0:F4} (Jain's index over the requests' "
                "rates)\n",
                exec::jainIndex(rates));
  std::map<rt::StreamId, rt::VirtualNs> perStream;
  std::vector<Intervals> perContext;
  busyTimes(records, contexts, &perStream, &perContext);
  for (size_t i = 0; i < contexts.size(); ++i) {
    os << formatv("  context {0,-2}     busy us by stream:", i);
    std::vector<rt::StreamId> ids = contexts[i].model->streamIds();
    for (size_t s = 0; s < ids.size(); ++s)
      os << formatv(" {0}:{1:F1}", s, perStream[ids[s]] / 1000.0);
    os << "\n";
  }
  double overlap = double(overlapOfTwoOrMore(perContext)) / 1000.0;
  os << formatv("  interleaving   {0:F1}% of the makespan with 2+ contexts "
                "running\n",
                100.0 * overlap / std::max(simUs, 1e-9));
}

Error serve(std::vector<Context> &contexts, size_t gear, rt::Device &device,
            const std::vector<exec::Buffer> &inputs,
            const std::vector<exec::Buffer> &outputs,
            const ConcurrentRunFlags &flags, raw_ostream &os) {
  std::vector<double> latencyUs;
  Context *last = nullptr;
  double t0 = double(device.now()) / 1000.0;
  auto h0 = std::chrono::steady_clock::now();
  std::deque<Context *> busy; // by start order
  unsigned started = 0;
  for (size_t i = 0; i < contexts.size(); ++i) {
    Context &c = contexts[i];
    // The first request of each context is where too many contexts for the
    // device's memory show up.
    if (Error e = startRequest(c, gear, device, inputs))
      return fail(formatv("--concurrency {0}: context {1}: {2}",
                          contexts.size(), i, toString(std::move(e))));
    busy.push_back(&c);
    ++started;
  }
  while (!busy.empty()) {
    Context *c = busy.front();
    busy.pop_front();
    if (rt::Status s = device.synchronizeStream(c->caller); !s.isOk())
      return fail(s.message());
    float ms = 0;
    if (rt::Status s = device.eventElapsedMs(c->start, c->end, &ms); !s.isOk())
      return fail(s.message());
    latencyUs.push_back(double(ms) * 1e3);
    last = c;
    if (started < flags.requests) {
      if (Error e = startRequest(*c, gear, device, inputs))
        return e;
      busy.push_back(c);
      ++started;
    }
  }
  if (rt::Status s = device.synchronizeDevice(); !s.isOk())
    return fail(s.message());
  double hostS =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - h0)
          .count();
  double simUs = double(device.now()) / 1000.0 - t0;
  for (size_t i = 0; i < outputs.size() && last; ++i)
    std::copy(last->outputs[i].begin(), last->outputs[i].end(),
              static_cast<uint8_t *>(outputs[i].data));
  printReport(flags, latencyUs, simUs, hostS, contexts, device.traceRecords(),
              os);
  return Error::success();
}

} // namespace

Error runConcurrent(exec::LoadedModel &model, size_t gear, rt::Device &device,
                    const std::vector<exec::Buffer> &inputs,
                    const std::vector<exec::Buffer> &outputs,
                    const ConcurrentRunFlags &flags, raw_ostream &os) {
  if (flags.concurrency == 0)
    return fail("--concurrency must be at least 1");
  if (flags.requests == 0)
    return fail("--requests must be at least 1");
  std::vector<Context> contexts;
  unsigned n = std::min(flags.concurrency, flags.requests);
  Error e = makeContexts(model, gear, device, n, &contexts);
  if (!e)
    e = serve(contexts, gear, device, inputs, outputs, flags, os);
  // After a failure requests may still be queued, writing into the
  // contexts' outputs: drain them before the contexts go.
  (void)device.synchronizeDevice();
  return e;
}

} // namespace geflow::cli
