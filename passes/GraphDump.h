//===- GraphDump.h - GE-style graph dumps between pipeline stages -*- C++
//-*-===//
//
// `geflow compile --dump-graph DIR` writes ge_proto_<5-digit
// index>_<stage>.txt, the GraphDef (emit/GraphBuilder.h) in protobuf text
// format, as GE's DUMP_GE_GRAPH does: after import, after fusion (when fusion
// passes ran), after logical stream assignment, after event insertion, and the
// built model. The stages are keyed on pass arguments in one table
// (GraphDump.cpp), so the dumps follow the pipeline as passes are added to it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_GRAPHDUMP_H
#define GEFLOW_PASSES_GRAPHDUMP_H

#include "passes/GraphDumpLevels.h"

#include "executor/model/OutputFiles.h"
#include "executor/model/om.pb.h"

#include "mlir/IR/Operation.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace geflow::passes {

/// The dump stage a pass belongs to ("fusion", "stream_assignment", ...), or
/// "" for a pass that ends no stage.
llvm::StringRef dumpStageOfPass(llvm::StringRef passArgument);

/// `graph` in protobuf text format (every op with its stream_id).
std::string graphText(const om::GraphDef &graph);

/// Writes the stage files of one compilation into one folder.
class GraphDumper {
public:
  /// Creates `dir` when missing; an error names the folder. The graphs are
  /// named `graphName` (empty: the module's name, else "model").
  /// With `staging`, the folder and files are made there and kept only
  /// when the caller commits it. `levels` filters what is written.
  static llvm::Expected<std::unique_ptr<GraphDumper>>
  create(llvm::StringRef dir, llvm::StringRef graphName = "",
         om::OutputFiles *staging = nullptr, GraphDumpLevels levels = {});

  /// Writes `graph` as the next file, ge_proto_<index>_<stage>.txt,
  /// atomically (a temporary file renamed into place).
  llvm::Error dump(const om::GraphDef &graph, llvm::StringRef stage);
  /// The same for the model function of `op` (a module or a function).
  llvm::Error dump(mlir::Operation *op, llvm::StringRef stage);

  /// Dumps a stage once its last pass has run (several passes may make one
  /// stage, as the fusion passes do). Errors are kept for takeError.
  std::unique_ptr<mlir::PassInstrumentation> instrumentation();

  /// Dumps a stage still pending at the end of the pipeline, then returns the
  /// first error of any dump.
  llvm::Error finish(mlir::Operation *op);

  /// Paths written so far, in order.
  const std::vector<std::string> &written() const { return written_; }

private:
  class Instrumentation;
  GraphDumper(std::string dir, std::string graphName, om::OutputFiles *staging,
              GraphDumpLevels levels)
      : dir_(std::move(dir)), graphName_(std::move(graphName)),
        staging_(staging), levels_(levels) {}
  void keep(llvm::Error err);
  /// dump's file, of `graph` as it is (levels_ applied by dump).
  llvm::Error write(const om::GraphDef &graph, llvm::StringRef stage);

  std::string dir_;
  std::string graphName_;
  om::OutputFiles *staging_;
  GraphDumpLevels levels_;
  unsigned nextIndex_ = 0;
  std::vector<std::string> written_;
  std::string pendingStage_;
  std::string firstError_;
};

} // namespace geflow::passes

#endif // GEFLOW_PASSES_GRAPHDUMP_H
