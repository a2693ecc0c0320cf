//===- DumpCommand.cpp - geflow dump --------------------------------------===//
//
// geflow dump MODEL.om [--format pbtxt|mlir] [-o FILE] [--elide-weights N]
//                      [--gear N]
// Prints a built model: its GraphDef in protobuf text format as GE dumps it
// (stream_id on every op, Send/Recv with event_id), or the ge module it was
// built from, rebuilt from the OM (parses again with geflow-opt). A model with
// gears prints every gear's graph (its ops carry GE's _batch_label), or the
// one --gear picks; in MLIR each gear is a module @<model>_<label>, the
// modules separated by `// -----` as geflow-opt --split-input-file reads.
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
cl::opt<int> gearIndex("gear",
                       cl::desc("A model with gears: print gear N only "
                                "(default: every gear)"),
                       cl::value_desc("N"), cl::init(-1), cl::sub(dumpSub),
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
  std::string text =
      formatv("# geflow dump of '{0}': model '{1}' for {2}\n"
              "# stream_num: {3}\n# event_num: {4}\n",
              modelPath, om.modelDef().name(), om.socName(),
              om.taskDef().stream_num(), om.taskDef().event_num())
          .str();
  const om::GearTable &table = om.modelDef().gears();
  if (table.gear_size() > 0)
    text += formatv("# gears: {0} ({1})\n", table.gear_size(),
                    om::GearTable::Mode_Name(table.mode()))
                .str();
  return text;
}

/// Gear `i`'s figures as comments above its graph.
std::string gearHeader(const om::LoadedOm &om, size_t i) {
  const om::Gear &gear = om.modelDef().gears().gear(i);
  std::string inputs = shapesText(gear.input_shape());
  const om::LoadedOm &program = om.gear(i);
  return formatv("# gear {0} '{1}': dims {2}, inputs {3}, stream_num {4}, "
                 "event_num {5}, workspace {6} bytes\n",
                 i, gear.label(), dimsText(gear.dims()), inputs,
                 program.taskDef().stream_num(), program.taskDef().event_num(),
                 program.memoryPlan().workspace_size())
      .str();
}

/// The gears to print: all, or the one --gear names.
Expected<std::vector<size_t>> selectedGears(const om::LoadedOm &om) {
  size_t count = om.modelDef().gears().gear_size();
  std::vector<size_t> gears;
  if (gearIndex < 0) {
    for (size_t i = 0; i < std::max<size_t>(count, 1); ++i)
      gears.push_back(i);
    return gears;
  }
  if (size_t(gearIndex) >= std::max<size_t>(count, 1))
    return dumpError(formatv("--gear {0}: '{1}' has {2} gear(s) (0..{3})",
                             int(gearIndex), modelPath,
                             std::max<size_t>(count, 1),
                             std::max<size_t>(count, 1) - 1)
                         .str());
  gears.push_back(gearIndex);
  return gears;
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

  auto gears = selectedGears(*om);
  if (!gears)
    return reportError(gears.takeError());
  bool withGears = om->modelDef().gears().gear_size() > 0;

  if (format == DumpFormat::kPbtxt) {
    std::string text = pbtxtHeader(*om);
    for (size_t i : *gears)
      text += (withGears ? gearHeader(*om, i) : "") +
              passes::graphText(om->gear(i).graph());
    if (Error error = writeTextOutput(outputPath, text))
      return reportError(std::move(error));
    return 0;
  }

  mlir::MLIRContext context(makeDialectRegistry());
  context.loadAllAvailableDialects();
  std::string text;
  for (size_t i : *gears) {
    auto module = passes::buildModuleFromOm(context, om->gear(i));
    if (!module)
      return reportError(
          dumpError(modelPath + ": " + toString(module.takeError())));
    if (withGears)
      (*module)->setSymNameAttr(mlir::StringAttr::get(
          &context, om->modelDef().name() + "_" +
                        om->modelDef().gears().gear(i).label()));
    // Locations carry the node names, so the pbtxt and the module line up.
    text += (text.empty() ? "" : "// -----\n") +
            moduleText(**module, elideWeightsOver, /*withLocations=*/true);
  }
  if (Error error = writeTextOutput(outputPath, text))
    return reportError(std::move(error));
  return 0;
}

Command command{dumpSub, runDump};
} // namespace

Command &geflow::cli::dumpCommand() { return command; }
