//===- ScheduleAttrs.h - attributes the passes write ------------*- C++ -*-===//
//
// Names of the attributes that memory planning and task emission record on
// the IR. The `ge.*` scheduling attributes are the dialect's (GeDialect.td);
// these carry the `geflow.` prefix because the ge dialect rejects `ge.*` names
// it does not list (ir/README.md). Moving them into the dialect's table only
// means changing the strings here.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_SCHEDULEATTRS_H
#define GEFLOW_PASSES_SCHEDULEATTRS_H

#include "llvm/ADT/StringRef.h"

namespace geflow::passes {

/// On each op with results: workspace offset of every result (array<i64>).
inline constexpr llvm::StringLiteral kOutputOffsetsAttr =
    "geflow.output_offsets";
/// On the function: workspace offset of every argument (array<i64>).
inline constexpr llvm::StringLiteral kInputOffsetsAttr = "geflow.input_offsets";
/// On the function: bytes of the workspace, with and without reuse (i64).
inline constexpr llvm::StringLiteral kWorkspaceSizeAttr =
    "geflow.workspace_size";
inline constexpr llvm::StringLiteral kWorkspaceSizeNoReuseAttr =
    "geflow.workspace_size_no_reuse";
/// On each compute op: the task's block_dim (i64) and cost (f64).
inline constexpr llvm::StringLiteral kBlockDimAttr = "geflow.block_dim";
inline constexpr llvm::StringLiteral kFlopsAttr = "geflow.flops";
inline constexpr llvm::StringLiteral kBytesAttr = "geflow.bytes";

} // namespace geflow::passes

#endif // GEFLOW_PASSES_SCHEDULEATTRS_H
