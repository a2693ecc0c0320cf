//===- GraphBuilder.h - a ge function as a GE GraphDef ----------*- C++ -*-===//
//
// The GraphDef of a model at any stage of the pipeline: right after import
// (annotation regions, wait edges, no engines or streams yet), after stream
// assignment, after event insertion, or fully scheduled. Task emission
// (OmEmitter) adds weights, tasks and memory to the graph built here; the
// `--dump-graph` stage files print it as is.
//
// What it makes, in order: one "Data" per argument (attr "index"), "Send"s
// of the function's own ge.send_events (after the input copies, with a
// control edge from every Data), then per body op a "Const" per ge.constant
// or the compute op (its "Recv"s before it, its "Send"s after it), last
// "NetOutput". Every op has stream_id (ge.stream, else 0). Annotation
// regions (ge.npu_stream_switch, ge.limit_core_num) are flattened: their ops
// appear in place with the region's attributes under GE names. A
// ge.npu_wait_tensor is no op of its own: its users read its `self` and get
// a GE control edge ("^producer") from its dependency's producer.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_GRAPHBUILDER_H
#define GEFLOW_PASSES_EMIT_GRAPHBUILDER_H

#include "executor/model/OmFormat.h"
#include "executor/model/om.pb.h"
#include "ir/GeDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace geflow::passes {

/// A ge scheduling attribute and the name GE dumps it under
/// (docs/architecture.md, "User annotations"). ge.stream_label has two GE
/// names.
struct GeAttrName {
  llvm::StringLiteral irName;
  llvm::StringLiteral geName;
};
inline constexpr GeAttrName kGeAttrNames[] = {
    {mlir::ge::GeDialect::kEngineAttr, "_engine"},
    {mlir::ge::GeDialect::kStreamLabelAttr, "_stream_label"},
    {mlir::ge::GeDialect::kStreamLabelAttr, "_user_stream_label"},
    {mlir::ge::GeDialect::kStreamPriorityAttr, "_user_stream_priority"},
    {mlir::ge::GeDialect::kInnerParallelAttr, "_enable_inner_parallel"},
    {mlir::ge::GeDialect::kAicoreNumAttr, "_op_aicore_num"},
    {mlir::ge::GeDialect::kVectorcoreNumAttr, "_op_vectorcore_num"},
    {mlir::ge::GeDialect::kBlockDimAttr, "_block_dim"},
};

struct GraphBuild {
  om::GraphDef graph;
  /// Per op of `graph`: the ge op it stands for (Const and compute ops),
  /// null for Data, Send, Recv and NetOutput.
  std::vector<mlir::Operation *> origin;
};

/// The function a model is made of: @main, else the module's only function.
llvm::Expected<mlir::func::FuncOp> findModelFunction(mlir::ModuleOp module);

/// The GraphDef of `func`, named `name`. Errors are one line naming the node.
llvm::Expected<GraphBuild> buildGraph(mlir::func::FuncOp func,
                                      llvm::StringRef name);

/// The same for a module's model function, named after the module (else
/// "model").
llvm::Expected<GraphBuild> buildGraph(mlir::ModuleOp module);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_GRAPHBUILDER_H
