//===- GraphDump.cpp - GE-style graph dumps between pipeline stages -------===//

#include "passes/GraphDump.h"

#include "passes/PassSupport.h"
#include "passes/emit/GraphBuilder.h"

#include "executor/model/OmFormat.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/text_format.h>

namespace geflow::passes {
namespace {

/// The stage table: which passes end which dump stage. A prefix entry ends
/// in '-' and covers a family of passes that together make one stage.
struct DumpStage {
  llvm::StringLiteral pass;
  llvm::StringLiteral stage;
};
constexpr DumpStage kDumpStages[] = {
    {"ge-fuse-", "fusion"},
    {"ge-fold-", "fusion"},
    {"ge-assign-streams", "stream_assignment"},
    {"ge-insert-events", "event_insertion"},
};

} // namespace

llvm::StringRef dumpStageOfPass(llvm::StringRef passArgument) {
  for (const DumpStage &entry : kDumpStages) {
    bool matches = entry.pass.ends_with("-")
                       ? passArgument.starts_with(entry.pass)
                       : passArgument == entry.pass;
    if (matches)
      return entry.stage;
  }
  return "";
}

std::string graphText(const om::GraphDef &graph) {
  std::string text;
  google::protobuf::TextFormat::PrintToString(graph, &text);
  return text;
}

llvm::Expected<std::unique_ptr<GraphDumper>>
GraphDumper::create(llvm::StringRef dir, llvm::StringRef graphName,
                    om::OutputFiles *staging, GraphDumpLevels levels) {
  if (llvm::sys::fs::exists(dir) && !llvm::sys::fs::is_directory(dir))
    return makeError("--dump-graph '" + dir + "': not a folder");
  if (staging) {
    if (rt::Status s = staging->createFolder(dir.str()); !s.isOk())
      return makeError("--dump-graph: " + s.message());
  } else if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return makeError("--dump-graph '" + dir +
                     "': cannot create the folder: " + ec.message());
  }
  return std::unique_ptr<GraphDumper>(
      new GraphDumper(dir.str(), graphName.str(), staging, levels));
}

llvm::Error GraphDumper::dump(const om::GraphDef &graph,
                              llvm::StringRef stage) {
  if ((levels_.stages == DumpStages::kFinal && stage != "build") ||
      (levels_.stages == DumpStages::kEarliest && stage != "import"))
    return llvm::Error::success();
  if (levels_.content == DumpContent::kAll)
    return write(graph, stage);
  om::GraphDef filtered = graph;
  for (om::OpDef &op : *filtered.mutable_op()) {
    if (levels_.content == DumpContent::kRelations) {
      op.clear_attr();
      op.clear_input_desc();
      op.clear_output_desc();
      continue;
    }
    for (auto it = op.mutable_attr()->begin(); it != op.mutable_attr()->end();)
      it = it->second.has_t() ? op.mutable_attr()->erase(it) : std::next(it);
  }
  if (levels_.content == DumpContent::kRelations)
    filtered.clear_attr();
  return write(filtered, stage);
}

llvm::Error GraphDumper::write(const om::GraphDef &graph,
                               llvm::StringRef stage) {
  llvm::SmallString<256> path(dir_);
  llvm::sys::path::append(
      path, llvm::formatv("ge_proto_{0:d5}_{1}.txt", nextIndex_, stage).str());
  std::string text =
      llvm::formatv("# geflow graph '{0}' after {1}\n", graph.name(), stage)
          .str() +
      graphText(graph);
  rt::Status status = staging_
                          ? staging_->stage(std::string(path), {text})
                          : om::writeFileAtomically(std::string(path), text);
  if (!status.isOk())
    return makeError("--dump-graph: " + status.message());
  ++nextIndex_;
  written_.push_back(std::string(path));
  return llvm::Error::success();
}

llvm::Error GraphDumper::dump(mlir::Operation *op, llvm::StringRef stage) {
  // A function pass hands over the function, a module pass the module.
  auto module = llvm::dyn_cast<mlir::ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<mlir::ModuleOp>();
  llvm::Expected<mlir::func::FuncOp> func = findModelFunction(module);
  llvm::Expected<GraphBuild> build =
      !func ? func.takeError()
            : buildGraph(*func, !graphName_.empty()
                                    ? llvm::StringRef(graphName_)
                                    : module.getSymName().value_or("model"));
  if (!build)
    return makeError("--dump-graph after " + stage + ": " +
                     llvm::toString(build.takeError()));
  return dump(build->graph, stage);
}

void GraphDumper::keep(llvm::Error err) {
  if (!err)
    return;
  std::string message = llvm::toString(std::move(err));
  if (firstError_.empty())
    firstError_ = std::move(message);
}

/// A stage is dumped when a pass outside it starts or an enclosing pass
/// ends, so a stage of several passes is dumped once, after the last.
class GraphDumper::Instrumentation : public mlir::PassInstrumentation {
public:
  explicit Instrumentation(GraphDumper &dumper) : dumper_(dumper) {}

  void runBeforePass(mlir::Pass *pass, mlir::Operation *op) override {
    if (!dumper_.pendingStage_.empty() &&
        dumpStageOfPass(pass->getArgument()) != dumper_.pendingStage_)
      flush(op);
  }

  void runAfterPass(mlir::Pass *pass, mlir::Operation *op) override {
    // DUMP_GRAPH_LEVEL=1: also after each pass, named by its argument.
    if (dumper_.levels_.stages == DumpStages::kEvery &&
        !pass->getArgument().empty())
      dumper_.keep(dumper_.dump(op, "pass_" + pass->getArgument().str()));
    llvm::StringRef stage = dumpStageOfPass(pass->getArgument());
    if (!stage.empty())
      dumper_.pendingStage_ = stage.str();
    else if (!dumper_.pendingStage_.empty())
      flush(op);
  }

private:
  void flush(mlir::Operation *op) {
    std::string stage = std::move(dumper_.pendingStage_);
    dumper_.pendingStage_.clear();
    dumper_.keep(dumper_.dump(op, stage));
  }

  GraphDumper &dumper_;
};

std::unique_ptr<mlir::PassInstrumentation> GraphDumper::instrumentation() {
  return std::make_unique<Instrumentation>(*this);
}

llvm::Error GraphDumper::finish(mlir::Operation *op) {
  if (!pendingStage_.empty()) {
    std::string stage = std::move(pendingStage_);
    pendingStage_.clear();
    keep(dump(op, stage));
  }
  return firstError_.empty() ? llvm::Error::success() : makeError(firstError_);
}

} // namespace geflow::passes
