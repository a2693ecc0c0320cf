//===- NoTaskOps.h - views and in-place joins: no data moved -*- C++ -*-===//
//
// What GE does to drop tasks: a Reshape, Flatten, Squeeze or
// Unsqueeze only renames its input's bytes, a Split whose parts are
// contiguous slices of its input lets each consumer read its slice in place,
// and a Concat whose inputs are contiguous slices of its result lets each
// producer write its slice in place. Such an op launches no kernel; it keeps
// its place on its stream (ge.stream, its waits and records), so event
// insertion and the memory plan order it like any op, and the memory plan
// lays the slices out (ge-plan-memory: one buffer per group of views).
//
// Contiguous: every dim before the axis is 1, so each part is one byte range.
// A Concat input qualifies when it is the only use of a result of a kernel
// (not of an argument, a constant or another no-task op); a view's source
// may be anything but a constant. Slices start on kSliceAlignment.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_NOTASKOPS_H
#define GEFLOW_PASSES_EMIT_NOTASKOPS_H

#include "ir/GeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace geflow::passes {

/// Unit attribute on an op that launches no kernel.
inline constexpr llvm::StringLiteral kNoTaskAttr =
    mlir::ge::GeDialect::kNoTaskAttr;
/// Byte alignment of every slice (the memory plan's default alignment).
inline constexpr int64_t kSliceAlignment = 64;

inline bool isNoTaskOp(mlir::Operation *op) { return op->hasAttr(kNoTaskAttr); }

/// Marks every qualifying op of `func`'s body with kNoTaskAttr (idempotent).
void markNoTaskOps(mlir::func::FuncOp func);

/// Where the parts of a no-task op lie, in bytes: for a Concat, each
/// operand's offset in its result (the producers write there); for a Split
/// or a view, each result's offset in its operand 0 (the consumers read
/// there). Empty for any other op.
llvm::SmallVector<int64_t> partOffsets(mlir::Operation *op);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_NOTASKOPS_H
