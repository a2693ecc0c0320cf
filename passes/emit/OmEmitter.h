//===- OmEmitter.h - a scheduled ge module as an OM model -------*- C++ -*-===//
//
// Task emission (pipeline step 9, docs/architecture.md): the GraphDef, the
// weights, the task list and the memory plan of the OM artifact, from a module
// whose `func.func` (`@main`, or the only function) carries the schedule.
// Whatever the module lacks (engines, memory offsets, block dims) is filled in
// first with the passes' defaults, so an imported module can be emitted
// directly.
//
// What comes out, in GraphDef order: one "Data" per argument (attr "index"),
// then per body op in order a "Const" per ge.constant (attrs "weight_offset",
// "weight_size") or the compute op itself (with "Recv" before it and "Send"
// after it when it carries ge.recv_events / ge.send_events), then "NetOutput".
// Tasks: MEMCPY_ASYNC per input (INPUT i -> workspace), per compute op its
// EVENT_WAITs, its KERNEL and its EVENT_RECORDs, MEMCPY_ASYNC per output
// (workspace or weights -> OUTPUT i, on the producer's stream).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_OMEMITTER_H
#define GEFLOW_PASSES_EMIT_OMEMITTER_H

#include "executor/model/OmModel.h"
#include "runtime/soc/SocSpec.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace geflow::passes {

struct EmitOptions {
  /// ModelDef/GraphDef name; empty: the module's name, else "model".
  std::string modelName;
  /// Fail on an op with no kernel instead of estimating its plan.
  bool requireKernels = false;
  /// Global core limits (`--aicore-num "aic|aiv"`), recorded as
  /// "ge.aicoreNum" / "ge.vectorcoreNum" and applied to every task without an
  /// op-level limit: its aicore_num / vectorcore_num, and a block_dim cap
  /// (0: none; the model records the chip's counts).
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  /// Leave the bytes of dense_resource constants where they are (an imported
  /// file's mapping) instead of copying them into WEIGHTS: the model's
  /// borrowedWeights then point into the MLIR context, which the caller must
  /// keep alive (OmModel::keepAlive) until the model is written.
  bool borrowResources = false;
};

/// Builds the OM model of `module` for `soc`. The module gains the schedule
/// attributes it lacked. Errors are one line naming the node.
llvm::Expected<om::OmModel> emitOmModel(mlir::ModuleOp module,
                                        const rt::SocSpec &soc,
                                        const EmitOptions &options = {});

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_OMEMITTER_H
