//===- RunConcurrent.h - geflow run --concurrency ------------*- C++ -*-===//
//
// Serving in miniature: M executions of one loaded model through N execution
// contexts that share its weights (LoadedModel::createContext), each on a
// caller stream of its own, a finished context taking the next request
// (continuous batching). The report says what concurrency buys on the
// simulated device and on the host, and whether the scheduler was fair.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_RUNCONCURRENT_H
#define GEFLOW_TOOLS_GEFLOW_RUNCONCURRENT_H

#include "executor/runner/ModelExecutor.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace geflow::rt {
class Device;
}

namespace geflow::cli {

struct ConcurrentRunFlags {
  unsigned concurrency = 1; // contexts
  unsigned requests = 1;    // executions in all
};

/// Runs gear `gear` of `model` as `flags` says, every execution reading
/// `inputs`; the last execution's results land in `outputs`. Needs the
/// device's trace on (per-stream busy time comes from it). Prints the report
/// to `os`: simulated and host throughput, p50/p99 latency, Jain's fairness
/// index over the requests' rates, per-stream busy time and how much of the
/// makespan had two or more contexts running.
llvm::Error runConcurrent(exec::LoadedModel &model, size_t gear,
                          rt::Device &device,
                          const std::vector<exec::Buffer> &inputs,
                          const std::vector<exec::Buffer> &outputs,
                          const ConcurrentRunFlags &flags,
                          llvm::raw_ostream &os);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_RUNCONCURRENT_H
