//===- ScheduleAttrs.h - attributes the passes write ------------*- C++ -*-===//
//
// The attributes memory planning and task emission record on the IR. They are
// ge scheduling attributes, declared and verified by the dialect
// (ir/GeDialect.td, ir/README.md); these short names keep the passes readable.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_SCHEDULEATTRS_H
#define GEFLOW_PASSES_SCHEDULEATTRS_H

#include "ir/GeDialect.h"

namespace geflow::passes {

using GeDialect = mlir::ge::GeDialect;

/// On each op with results: workspace offset of every result (array<i64>).
inline constexpr llvm::StringLiteral kOutputOffsetsAttr =
    GeDialect::kOutputOffsetsAttr;
/// On the function: workspace offset of every argument (array<i64>).
inline constexpr llvm::StringLiteral kInputOffsetsAttr =
    GeDialect::kInputOffsetsAttr;
/// On the function: bytes of the workspace, with and without reuse (i64).
inline constexpr llvm::StringLiteral kWorkspaceSizeAttr =
    GeDialect::kWorkspaceSizeAttr;
inline constexpr llvm::StringLiteral kWorkspaceSizeNoReuseAttr =
    GeDialect::kWorkspaceSizeNoReuseAttr;
/// On each compute op: the task's block_dim (i64) and cost (f64).
inline constexpr llvm::StringLiteral kBlockDimAttr = GeDialect::kBlockDimAttr;
inline constexpr llvm::StringLiteral kFlopsAttr = GeDialect::kFlopsAttr;
inline constexpr llvm::StringLiteral kBytesAttr = GeDialect::kBytesAttr;

} // namespace geflow::passes

#endif // GEFLOW_PASSES_SCHEDULEATTRS_H
