//===- Passes.h - geflow's passes on the ge dialect ---------------*- C++
//-*-===//
//
// Create functions and option structs of every pass in Passes.td, and
// registerGePasses() for geflow-opt (passes plus the `ge-pipeline` pipeline).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_PASSES_H
#define GEFLOW_PASSES_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>
#include <memory>
#include <string>

namespace geflow::rt {
class CostModel;
struct SocSpec;
} // namespace geflow::rt

namespace geflow::passes {

#define GEN_PASS_DECL
#include "passes/Passes.h.inc"

// The work of each pass as a function, for task emission (which completes
// whatever a module lacks) and for tests. Each reports errors on the op.

/// ge-assign-engines: `ge.engine` on every compute op that has none.
mlir::LogicalResult assignEngines(mlir::func::FuncOp func, bool requireKernels);

/// ge-insert-events: `ge.send_events` / `ge.recv_events` for every
/// cross-stream dependency not already ordered; erases ge.npu_wait_tensor.
mlir::LogicalResult insertEvents(mlir::func::FuncOp func);

/// ge-apply-annotations: scopes inlined into attributes, core limits checked.
mlir::LogicalResult applyAnnotations(mlir::func::FuncOp func,
                                     const rt::SocSpec &spec);

/// ge-plan-memory: offsets of every argument and result, workspace sizes.
mlir::LogicalResult planMemory(mlir::func::FuncOp func, bool reuse = true,
                               int64_t alignment = 64);

/// ge-emit-tasks: `ge.block_dim`, `ge.flops`, `ge.bytes` (and
/// `ge.engine` where missing) on every compute op.
mlir::LogicalResult annotateTasks(mlir::func::FuncOp func,
                                  const rt::CostModel &costModel,
                                  bool requireKernels);

/// Loads the SoC preset or spec file `soc` for a pass option; on failure
/// reports "SoC '<soc>': <why>" on `anchor`.
mlir::LogicalResult loadSocSpecFor(mlir::Operation *anchor, llvm::StringRef soc,
                                   rt::SocSpec &spec);

/// Registers every pass of Passes.td and the `ge-pipeline` pipeline
/// (Pipeline.cpp) with MLIR's pass registry, for geflow-opt.
void registerGePasses();

} // namespace geflow::passes

#endif // GEFLOW_PASSES_PASSES_H
