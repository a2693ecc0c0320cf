//===- DumpCommand.cpp - geflow dump --------------------------------------===//
//
// geflow dump MODEL.om [--format pbtxt|mlir] [-o FILE] [--elide-weights N]
// Prints a built model: its GraphDef in protobuf text format as GE dumps it
// (stream_id on every op, Send/Recv with event_id), or the ge module it was
// built from, rebuilt from the OM (parses again with geflow-opt).
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/Limits.h"
#include "tools/geflow/ToolContext.h"

#include "passes/GraphDump.h"
#include "passes/Pipeline.h"

#include "executor/model/OmModel.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {
cl::SubCommand dumpSub("dump", "Print a compiled OM model's graph");

enum class DumpFormat { kPbtxt, kMlir };

cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                               cl::desc("<model.om>"), cl::sub(dumpSub),
                               cl::cat(geflowCategory()));
cl::opt<DumpFormat> format(
    "format", cl::desc("What to print"),
    cl::values(clEnumValN(DumpFormat::kPbtxt, "pbtxt",
                          "the GraphDef in protobuf text format (default)"),
               clEnumValN(DumpFormat::kMlir, "mlir",
                          "the ge module rebuilt from the model")),
    cl::init(DumpFormat::kPbtxt), cl::sub(dumpSub), cl::cat(geflowCategory()));
cl::opt<std::string> outputPath("o", cl::desc("Write here (default: stdout)"),
                                cl::value_desc("file"), cl::init("-"),
                                cl::sub(dumpSub), cl::cat(geflowCategory()));
cl::opt<unsigned> elideWeightsOver(
    "elide-weights",
    cl::desc("mlir: print constants with more than N elements as "
             "dense_resource<__elided__> (0: print all)"),
    cl::value_desc("N"), cl::init(16), cl::sub(dumpSub),
    cl::cat(geflowCategory()));
// No workspace limit: dump allocates none.
LimitFlags limitFlags(dumpSub, LimitFlags::kModelBytes |
                                   LimitFlags::kTensorBytes |
                                   LimitFlags::kNodes);

Error dumpError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The task list's figures as comments above the graph.
std::string pbtxtHeader(const om::LoadedOm &om) {
  return formatv("# geflow dump of '{0}': model '{1}' for {2}\n"
                 "# stream_num: {3}\n# event_num: {4}\n",
                 modelPath, om.modelDef().name(), om.socName(),
                 om.taskDef().stream_num(), om.taskDef().event_num())
      .str();
}

int runDump() {
  auto limits = limitFlags.parse();
  if (!limits)
    return reportError(limits.takeError());
  om::OmLimits omLimits = limits->omLimits();
  omLimits.maxWorkspaceBytes = UINT64_MAX;
  std::unique_ptr<om::LoadedOm> om;
  if (rt::Status s = om::loadOmFile(modelPath, &om, omLimits); !s.isOk())
    return reportError(dumpError(s.message()));

  if (format == DumpFormat::kPbtxt) {
    std::string text = pbtxtHeader(*om) + passes::graphText(om->graph());
    if (Error error = writeTextOutput(outputPath, text))
      return reportError(std::move(error));
    return 0;
  }

  mlir::MLIRContext context(makeDialectRegistry());
  context.loadAllAvailableDialects();
  auto module = passes::buildModuleFromOm(context, *om);
  if (!module)
    return reportError(
        dumpError(modelPath + ": " + toString(module.takeError())));
  // Locations carry the node names, so the pbtxt and the module line up.
  if (Error error = writeModule(**module, outputPath, elideWeightsOver,
                                /*withLocations=*/true))
    return reportError(std::move(error));
  return 0;
}

Command command{dumpSub, runDump};
} // namespace

Command &geflow::cli::dumpCommand() { return command; }
