//===- ImportCommand.cpp - geflow import ----------------------------------===//
//
// geflow import MODEL.onnx [-o OUT.mlir] [--input-shape NAME:D0,D1,...]
//                          [--stream-plan plan.json]
// Imports an ONNX model into the ge dialect and prints or writes the module;
// with a stream plan, the annotations it gives are visible in the printed IR.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/Limits.h"
#include "tools/geflow/ToolContext.h"

#include "frontends/onnx/OnnxImporter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace geflow::cli;

namespace {
cl::SubCommand importSub("import", "Import an ONNX model into the ge dialect");

cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                               cl::desc("<model.onnx>"), cl::sub(importSub),
                               cl::cat(geflowCategory()));
cl::opt<std::string>
    outputPath("o", cl::desc("Write the module here (default: stdout)"),
               cl::value_desc("file"), cl::init("-"), cl::sub(importSub),
               cl::cat(geflowCategory()));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc(
        "Fix an input's shape, e.g. --input-shape image:1,3,224,224 "
        "(repeatable; several may be given in one value, space-separated)"),
    cl::value_desc("name:d0,d1,..."), cl::sub(importSub),
    cl::cat(geflowCategory()));
cl::opt<std::string> streamPlanPath(
    "stream-plan", cl::desc("JSON stream plan: scopes and wait_tensor edges"),
    cl::value_desc("plan.json"), cl::sub(importSub), cl::cat(geflowCategory()));
cl::opt<unsigned>
    elideWeightsOver("elide-weights",
                     cl::desc("Print constants with more than N elements as "
                              "__elided__ (0: print all; "
                              "the output then no longer parses)"),
                     cl::value_desc("N"), cl::init(0), cl::sub(importSub),
                     cl::cat(geflowCategory()));
LimitFlags limitFlags(importSub, LimitFlags::kModelBytes |
                                     LimitFlags::kTensorBytes |
                                     LimitFlags::kNodes);

int runImport() {
  auto options = parseImportOptions(inputShapes);
  if (!options)
    return reportError(options.takeError());
  auto limits = limitFlags.parse();
  if (!limits)
    return reportError(limits.takeError());
  options->limits = limits->importLimits();
  if (!streamPlanPath.empty()) {
    auto plan = geflow::streamplan::readStreamPlanFile(streamPlanPath);
    if (!plan)
      return reportError(plan.takeError());
    options->streamPlan = std::move(*plan);
  }

  mlir::MLIRContext context(makeDialectRegistry());
  auto module = geflow::importOnnxFile(context, inputPath, *options);
  if (!module)
    return reportError(
        inModelFile(module.takeError(), inputPath, {streamPlanPath}));

  if (Error error = writeModule(**module, outputPath, elideWeightsOver))
    return reportError(std::move(error));
  return 0;
}

Command command{importSub, runImport};
} // namespace

Command &geflow::cli::importCommand() { return command; }
