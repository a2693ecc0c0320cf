//===- Pipeline.h - the GE pipeline, built in one place ----------*- C++
//-*-===//
//
// The pass order of DESIGN.md ("Passes (pipeline order)"): fold, fuse, assign
// engines, apply user annotations, size the tasks, assign streams, insert
// events, plan memory; then emitOmModel builds the OM model. `geflow compile`, the conformance runner and
// `geflow-opt --ge-pipeline` all build it here.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_PIPELINE_H
#define GEFLOW_PASSES_PIPELINE_H

#include "executor/model/OmModel.h"
#include "frontends/onnx/OnnxImporter.h"
#include "passes/streams/StreamAssignment.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::passes {


struct CompileOptions {
  /// SoC preset name ("ascend910b-sim") or spec file the model is built for.
  std::string soc = "ascend910b-sim";
  /// How compileOnnxFile imports the model.
  OnnxImportOptions import;
  /// Memory planning: let buffers reuse dead buffers' memory; offset alignment.
  bool reuseMemory = true;
  int64_t memoryAlignment = 64;
  /// Fail on an op without a kernel instead of estimating its plan.
  bool requireKernels = false;
  /// Global core limits (`--aicore-num "aic|aiv"`), recorded in the model as
  /// ge.aicoreNum / ge.vectorcoreNum; 0: the chip's counts.
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  /// ModelDef name; empty: the file's stem (compileOnnxFile) or "model".
  std::string modelName;
  /// Logical stream assignment and its cap on streams (0: no cap beyond the
  /// per-engine max_parallel_num).
  StreamMode streamMode = StreamMode::kAuto;
  uint32_t maxStreams = 0;
  /// `--stream-plan plan.json`, applied by compileOnnxFile after import.
  std::string streamPlanPath;
  /// Fusion passes switched off by name (`--no-fuse=NAME`).
  std::vector<std::string> disabledFusions;
  /// `--dump-graph DIR`: ge_proto_<index>_<stage>.txt after each stage.
  std::string dumpGraphDir;
  /// Where the dumps are staged, to be committed with the command's other
  /// outputs (none: each is written at once).
  om::OutputFiles *dumpStaging = nullptr;
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
  double compileTimeMs = 0; // import included for compileOnnxFile
};

struct CompileResult {
  om::OmModel model;
  CompileStats stats;
};

/// Adds the pipeline to `pm` (anchored on builtin.module).
void buildGePipeline(mlir::OpPassManager &pm, const CompileOptions &options);

/// Runs the pipeline on `module` (which it changes) and emits the OM model.
llvm::Expected<om::OmModel> compileModule(mlir::ModuleOp module,
                                          const CompileOptions &options);

/// Imports `path`, compiles it and measures the result. Errors are one line
/// without an "error: " prefix, like the importer's.
llvm::Expected<CompileResult>
compileOnnxFile(llvm::StringRef path, const CompileOptions &options = {});

/// The stats of a built model (compileTimeMs left 0).
CompileStats summarize(const om::OmModel &model);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_PIPELINE_H
