//===- Pipeline.h - the GE pipeline, built in one place ---------*- C++ -*-===//
//
// The pass order: fold, fuse, assign engines, apply user annotations, size the
// tasks, assign streams, insert events, plan memory; then emitOmModel builds
// the OM model. `geflow compile` (through tools/driver), the conformance
// runner and `geflow-opt --ge-pipeline` all build it here. This header is
// also what the tools see of passes/: the streams/, emit/ and fusion/ headers
// stay inside the library (it re-exports emit/ModuleFromOm.h's
// buildModuleFromOm, the way back for `geflow dump --format mlir`).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_PIPELINE_H
#define GEFLOW_PASSES_PIPELINE_H

#include "executor/model/OmModel.h"
#include "passes/GraphDumpLevels.h"
#include "passes/StreamMode.h"
#include "passes/emit/ModuleFromOm.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::rt {
struct SocSpec;
} // namespace geflow::rt

namespace geflow::passes {

struct CompileOptions {
  /// SoC preset name ("ascend910b-sim") or spec file the model is built for.
  std::string soc = "ascend910b-sim";
  /// Memory planning: let buffers reuse dead buffers' memory; offset alignment.
  bool reuseMemory = true;
  int64_t memoryAlignment = 64;
  /// Fail on an op without a kernel instead of estimating its plan.
  bool requireKernels = false;
  /// Global core limits (`--aicore-num "aic|aiv"`), recorded in the model as
  /// ge.aicoreNum / ge.vectorcoreNum; 0: the chip's counts.
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  /// ModelDef name; empty: "model" (the driver passes the file's stem).
  std::string modelName;
  /// Logical stream assignment and its cap on streams (0: no cap beyond the
  /// per-engine max_parallel_num).
  StreamMode streamMode = StreamMode::kAuto;
  uint32_t maxStreams = 0;
  /// Fusion passes switched off by name (`--no-fuse=NAME`).
  std::vector<std::string> disabledFusions;
  /// `--dump-graph DIR`: ge_proto_<index>_<stage>.txt after each stage.
  std::string dumpGraphDir;
  /// What each dump holds and which stages are dumped (DUMP_GE_GRAPH,
  /// DUMP_GRAPH_LEVEL through tools/driver/DumpEnv.h).
  GraphDumpLevels dumpLevels;
  /// Where the dumps are staged, to be committed with the command's other
  /// outputs (none: each is written at once).
  om::OutputFiles *dumpStaging = nullptr;
  /// `--time-passes`: the pass pipeline (MLIR's pass timing), emission and
  /// validation are timed as children of this timer. Null: no timing. The
  /// caller owns the timer and keeps it running meanwhile.
  mlir::Timer *timing = nullptr;
};

/// Figures a person compares across commits.
struct CompileStats {
  uint64_t opCount =
      0; // GraphDef ops: Data, Const, compute, Send/Recv, NetOutput
  uint64_t computeOpCount = 0;
  uint64_t kernelCount = 0; // KERNEL tasks
  uint64_t taskCount = 0;
  uint64_t streamCount = 0;
  uint64_t eventCount = 0;
  /// Cross-stream dependencies before the transitive reduction of events.
  uint64_t eventsBeforeReduction = 0;
  uint64_t weightsBytes = 0;
  uint64_t workspaceBytes = 0;
  uint64_t workspaceBytesWithoutReuse = 0;
  /// `--streams auto`'s simulated makespans: everything on one stream, and
  /// the assignment it chose (0 in other modes).
  int64_t predictedSingleStreamNs = 0;
  int64_t predictedNs = 0;
  double compileTimeMs = 0; // the driver's figure includes the import
};

/// Adds the pipeline to `pm` (anchored on builtin.module).
void buildGePipeline(mlir::OpPassManager &pm, const CompileOptions &options);

/// Runs the pipeline on `module` (which it changes) and emits the OM model.
llvm::Expected<om::OmModel> compileModule(mlir::ModuleOp module,
                                          const CompileOptions &options);

/// compileModule for a caller that keeps `module`'s context alive as long as
/// the model (OmModel::keepAlive): the dense_resource weights are borrowed
/// from the context instead of copied.
llvm::Expected<om::OmModel>
compileModuleBorrowingWeights(mlir::ModuleOp module,
                              const CompileOptions &options);

/// The stats of a built model (compileTimeMs left 0).
CompileStats summarize(const om::OmModel &model);

/// Parses and checks `--aicore-num "aic|aiv"` against `spec` into
/// options.aicoreNum / options.vectorcoreNum.
llvm::Error setGlobalCoreLimit(CompileOptions &options, llvm::StringRef text,
                               const rt::SocSpec &spec);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_PIPELINE_H
