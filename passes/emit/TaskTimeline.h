//===- TaskTimeline.h - a function's tasks, in emission order --*- C++ -*-===//
//
// The tasks emitOmModel will emit for a function, as a HappensBefore, so the
// passes reason about the same order the device will see (passes/README.md,
// "Tasks"): one input copy per argument on stream 0, then the records of the
// function's own `ge.send_events`; per compute op in body order its waits
// (`ge.recv_events`), its kernel on `ge.stream` and its records
// (`ge.send_events`); last one output copy per result, on the stream of the
// value's producer (stream 0 for an argument). It lives with the emitter
// because it mirrors the emitter's task order; emit/ depends on streams/
// (HappensBefore), never the reverse.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_TASKTIMELINE_H
#define GEFLOW_PASSES_EMIT_TASKTIMELINE_H

#include "passes/streams/HappensBefore.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace geflow::passes {

/// The op's `ge.stream`, 0 when it has none.
int64_t streamOf(mlir::Operation *op);

/// 1 + the largest `ge.stream` of the function's body ops (at least 1).
uint32_t countStreams(mlir::func::FuncOp func);

struct TaskTimeline {
  HappensBefore order;
  llvm::SmallVector<HappensBefore::TaskId> inputCopies; // per argument
  llvm::DenseMap<mlir::Operation *, HappensBefore::TaskId> kernels;
  llvm::SmallVector<HappensBefore::TaskId> outputCopies; // per result
};

/// The timeline of `func` (single block, annotation ops lowered). Fails with
/// an error on the op when a wait has no earlier record to bind to.
mlir::FailureOr<TaskTimeline> buildTaskTimeline(mlir::func::FuncOp func);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_TASKTIMELINE_H
