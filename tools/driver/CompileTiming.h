//===- CompileTiming.h - wall time and peak memory per compile phase -*- C++
//-*-===//
//
// `geflow compile --time-passes`: an mlir::TimingManager whose timers also
// record the peak resident memory while they run. The frontend and the passes
// only see mlir::Timer (OnnxImportOptions::timing, CompileOptions::timing) and
// the pass manager nests its own timers through pm.enableTiming, so the
// report is one tree in MLIR's timing format with a peak RSS column.
//
// Peak memory: Linux's high-water mark (VmHWM), read at every timer start and
// stop and folded into each running timer, then reset through
// /proc/self/clear_refs so the next interval starts from the current RSS.
// Where the reset is refused, a timer's figure is the process's peak so far.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_COMPILETIMING_H
#define GEFLOW_TOOLS_DRIVER_COMPILETIMING_H

#include "mlir/Support/Timing.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace geflow::driver {

class CompileTimingManager : public mlir::TimingManager {
public:
  CompileTimingManager();
  ~CompileTimingManager() override;

  /// Stops every timer and prints the tree, MLIR's
  /// "... Execution time report ..." with a peak RSS column.
  void print(llvm::raw_ostream &os);

protected:
  std::optional<void *> rootTimer() override;
  void startTimer(void *handle) override;
  void stopTimer(void *handle) override;
  void *nestTimer(void *handle, const void *id,
                  llvm::function_ref<std::string()> nameBuilder) override;

private:
  struct Node {
    std::string name;
    double seconds = 0;
    uint64_t peakBytes = 0;
    int running = 0; // a timer may be started again while it runs
    std::chrono::steady_clock::time_point start;
    std::vector<std::unique_ptr<Node>> children; // in order of creation
    llvm::DenseMap<const void *, Node *> byId;
  };

  /// Folds the high-water mark since the last sample into every running
  /// timer and starts a new interval.
  void sampleMemory();
  void printNode(llvm::raw_ostream &os, const Node &node, unsigned indent,
                 double total);

  Node root_;
  std::vector<Node *> running_;
  bool resetWorks_ = true;
};

/// The process's peak resident memory so far, in bytes (0 if unknown).
uint64_t peakResidentBytes();

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_COMPILETIMING_H
