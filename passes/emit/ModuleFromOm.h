//===- ModuleFromOm.h - a built OM model back as a ge module ----*- C++ -*-===//
//
// The inverse of task emission, for `geflow dump --format mlir`. Declared
// here, beside its emitter, so that emit/ needs nothing of the pipeline;
// passes/Pipeline.h re-exports it for the tools.
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

/// The ge module of `om`, schedule included, which emits the same graph
/// again. `context` must have the ge and func dialects. Errors are one line
/// naming the node.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
buildModuleFromOm(mlir::MLIRContext &context, const om::LoadedOm &om);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_MODULEFROMOM_H
