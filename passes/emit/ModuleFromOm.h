//===- ModuleFromOm.h - a built OM model back as a ge module ----*- C++ -*-===//
//
// The inverse of task emission, for `geflow dump --format mlir`: each OpDef
// becomes its ge op again (type "conv" -> ge.conv, kernel attributes
// converted back, result types from output_desc), Data the function's
// arguments, NetOutput its func.return, Const a ge.constant holding its bytes
// from WEIGHTS. The schedule returns as ge attributes: stream_id -> ge.stream,
// the GE names of GraphBuilder.h (_engine -> ge.engine, _block_dim ->
// ge.block_dim, ...), Send/Recv -> ge.send_events / ge.recv_events of the op
// they are tied to, each KERNEL task's cost -> ge.flops / ge.bytes, the memory
// plan -> ge.output_offsets, ge.input_offsets and ge.workspace_size. The
// module verifies, and emitting it again gives the same graph.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_MODULEFROMOM_H
#define GEFLOW_PASSES_EMIT_MODULEFROMOM_H

#include "executor/model/OmModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

namespace geflow::passes {

/// The ge module of `om`; `context` must have the ge and func dialects.
/// Errors are one line naming the node.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildModuleFromOm(mlir::MLIRContext &context, const om::LoadedOm &om);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_MODULEFROMOM_H
