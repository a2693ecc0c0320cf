//===- CompileCommand.cpp - geflow compile --------------------------------===//
//
// geflow compile MODEL.onnx -o MODEL.om [--soc NAME] [--input-shape ...]
// Imports, runs the GE pipeline, writes the OM artifact and prints a one-screen
// summary.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/Limits.h"
#include "tools/geflow/ToolContext.h"

#include "tools/geflow/RunRuntimeShapes.h"

#include "tools/driver/CompileDriver.h"
#include "tools/driver/CompileTiming.h"
#include "tools/driver/DumpEnv.h"
#include "tools/driver/Gears.h"
#include "tools/driver/RuntimeShapesCompile.h"

#include "executor/model/OutputFiles.h"

#include "runtime/soc/SocSpec.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {
cl::SubCommand compileSub("compile", "Compile an ONNX model to an OM artifact");

cl::opt<std::string> inputPath(cl::Positional, cl::Required,
                               cl::desc("<model.onnx>"), cl::sub(compileSub),
                               cl::cat(geflowCategory()));
cl::opt<std::string> outputPath(
    "o", cl::desc("The OM file to write (default: MODEL.om beside the input)"),
    cl::value_desc("file"), cl::sub(compileSub), cl::cat(geflowCategory()));
cl::opt<std::string> socName("soc",
                             cl::desc("SoC preset or spec file to compile for"),
                             cl::value_desc("name"), cl::init("ascend910b-sim"),
                             cl::sub(compileSub), cl::cat(geflowCategory()));
cl::list<std::string> inputShapes(
    "input-shape",
    cl::desc("Fix an input's shape, e.g. image:1,3,224,224 (repeatable)"),
    cl::value_desc("name:d0,d1,..."), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<bool>
    noMemoryReuse("no-memory-reuse",
                  cl::desc("Give every tensor its own workspace bytes"),
                  cl::sub(compileSub), cl::cat(geflowCategory()));
cl::opt<passes::StreamMode> streamMode(
    "streams", cl::desc("Logical stream assignment"),
    cl::values(clEnumValN(passes::StreamMode::kSingle, "single",
                          "one stream; a user stream label is an error"),
               clEnumValN(passes::StreamMode::kLabel, "label",
                          "one stream per user stream label"),
               clEnumValN(passes::StreamMode::kAuto, "auto",
                          "labels, then extra streams where the simulated "
                          "makespan improves (default)")),
    cl::init(passes::StreamMode::kAuto), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<unsigned> maxStreams("max-streams",
                             cl::desc("At most N streams (0: no cap)"),
                             cl::value_desc("N"), cl::init(0),
                             cl::sub(compileSub), cl::cat(geflowCategory()));
cl::opt<std::string>
    streamPlanPath("stream-plan",
                   cl::desc("JSON stream plan: scopes and wait_tensor edges"),
                   cl::value_desc("plan.json"), cl::sub(compileSub),
                   cl::cat(geflowCategory()));
cl::opt<std::string> aicoreNum(
    "aicore-num", cl::desc("Global core limit \"aic|aiv\", e.g. \"8|16\""),
    cl::value_desc("aic|aiv"), cl::sub(compileSub), cl::cat(geflowCategory()));
cl::list<std::string>
    disabledFusions("no-fuse",
                    cl::desc("Switch a fusion pass off (repeatable, or a,b,c)"),
                    cl::value_desc("name"), cl::CommaSeparated,
                    cl::sub(compileSub), cl::cat(geflowCategory()));
cl::opt<std::string> dumpGraphDir(
    "dump-graph",
    cl::desc("Write ge_proto_<index>_<stage>.txt graphs after each stage"),
    cl::value_desc("dir"), cl::sub(compileSub), cl::cat(geflowCategory()));
cl::opt<std::string> dynamicBatchSize(
    "dynamic-batch-size",
    cl::desc("ATC's batch gears, e.g. \"1,2,4,8\": the -1 at dim 0 of "
             "--input-shape"),
    cl::value_desc("b0,b1,..."), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<std::string> dynamicImageSize(
    "dynamic-image-size",
    cl::desc("ATC's image-size gears, e.g. \"224,224;448,448\": the -1s at "
             "H,W of NCHW inputs"),
    cl::value_desc("h,w;h,w;..."), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<std::string> dynamicDims(
    "dynamic-dims",
    cl::desc("ATC's ND gears, e.g. \"1,16;1,32\": one value per -1 of the "
             "inputs, in order"),
    cl::value_desc("d,..;d,..;..."), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<uint64_t> maxDataDependentBytes(
    "max-data-dependent-bytes",
    cl::desc("Shapes known at run time: the declared cap on each output of "
             "a data-dependent op (NonZero, ...); a larger one fails the run "
             "(default: the op's own upper bound)"),
    cl::value_desc("bytes"), cl::init(0), cl::sub(compileSub),
    cl::cat(geflowCategory()));
cl::opt<bool> timePasses(
    "time-passes",
    cl::desc("Print each phase's wall time and peak RSS to stderr (MLIR's "
             "timing report, with the passes nested)"),
    cl::sub(compileSub), cl::cat(geflowCategory()));
LimitFlags limitFlags(compileSub,
                      LimitFlags::kModelBytes | LimitFlags::kTensorBytes |
                          LimitFlags::kNodes | LimitFlags::kWorkspaceBytes);

std::string humanBytes(uint64_t bytes) {
  if (bytes < 1024)
    return formatv("{0} B", bytes).str();
  if (bytes < 1024 * 1024)
    return formatv("{0:F1} KiB", bytes / 1024.0).str();
  return formatv("{0:F1} MiB", bytes / (1024.0 * 1024.0)).str();
}

/// A model with gears: the mode, the inputs' template and one line per gear
/// (the totals above sum kernels and tasks and take the largest of the rest).
void printGears(const driver::CompileResult &result) {
  const om::GearTable &table = result.model.modelDef.gears();
  if (table.gear_size() == 0)
    return;
  std::string inputs = shapesText(table.input());
  outs() << formatv("  gears         {0} ({1}, inputs {2})\n",
                    table.gear_size(), om::GearTable::Mode_Name(table.mode()),
                    inputs);
  for (int i = 0; i < table.gear_size(); ++i) {
    const om::Gear &gear = table.gear(i);
    const passes::CompileStats &g = result.gearStats[i];
    outs() << formatv("    {0,-9} dims {1,-9} kernels {2,-5} streams {3,-2} "
                      "predicted {4:F1} us  workspace {5}\n",
                      gear.label(), dimsText(gear.dims()), g.kernelCount,
                      g.streamCount, g.predictedNs / 1e3,
                      humanBytes(g.workspaceBytes));
  }
}

/// The schedule against its lower bound (passes/streams/LowerBound.h), from
/// the OM's attributes: efficiency = predicted makespan / bound.
void printEfficiency(const om::ModelDef &model) {
  auto attr = [&](const char *name) -> double {
    auto it = model.attr().find(name);
    return it == model.attr().end() ? 0.0 : double(it->second.i());
  };
  double bound = attr("lower_bound_ns"),
         predicted = attr("predicted_makespan_ns");
  if (bound <= 0 || predicted <= 0)
    return;
  outs() << formatv("  lower bound   {0:F1} us (critical path {1:F1} us, "
                    "busiest engine {2:F1} us, by segments {3:F1} us)\n",
                    bound / 1e3, attr("lower_bound_critical_path_ns") / 1e3,
                    attr("lower_bound_engine_work_ns") / 1e3,
                    attr("lower_bound_segments_ns") / 1e3);
  outs() << formatv("  efficiency    {0:F2} (predicted / bound)\n",
                    predicted / bound);
}

/// The flags as the driver's options, the SoC's and the core limit's
/// included; `limits` gets the --max-* caps.
Error readCompileOptions(driver::CompileOptions &options, Limits &limits) {
  auto importOptions = parseImportOptions(inputShapes);
  if (!importOptions)
    return importOptions.takeError();
  auto parsedLimits = limitFlags.parse();
  if (!parsedLimits)
    return parsedLimits.takeError();
  limits = *parsedLimits;
  importOptions->limits = limits.importLimits();
  options.soc = socName;
  options.import = std::move(*importOptions);
  options.reuseMemory = !noMemoryReuse;
  options.streamMode = streamMode;
  options.maxStreams = maxStreams;
  options.streamPlanPath = streamPlanPath;
  options.disabledFusions.assign(disabledFusions.begin(),
                                 disabledFusions.end());
  options.dumpGraphDir = dumpGraphDir;
  // CANN's DUMP_GE_GRAPH / DUMP_GRAPH_LEVEL / DUMP_GRAPH_PATH, when no flag.
  if (Error error = driver::applyDumpGraphEnv(options))
    return error;
  options.maxDataDependentBytes = maxDataDependentBytes;
  // The SoC first: its errors are about --soc, not about the model.
  rt::SocSpec spec;
  if (rt::Status st = rt::loadSocSpec(socName, spec); !st.isOk())
    return createStringError(inconvertibleErrorCode(),
                             "SoC '" + socName + "': " + st.message());
  if (!aicoreNum.empty())
    return passes::setGlobalCoreLimit(options, aicoreNum, spec);
  return Error::success();
}

/// -o, or MODEL.om beside the input.
std::string omPath() {
  if (!outputPath.empty())
    return outputPath;
  SmallString<256> path(inputPath.getValue());
  sys::path::replace_extension(path, ".om");
  return std::string(path);
}

/// `--time-passes`: MLIR's timing report of the whole command, printed when
/// the command ends, even when the compile fails.
class TimingReport {
public:
  explicit TimingReport(bool enabled) {
    if (!enabled)
      return;
    timing.emplace();
    total.emplace(timing->getRootScope());
    root = timing->getRootTimer();
  }
  ~TimingReport() {
    if (timing)
      timing->print(errs());
  }
  TimingReport(const TimingReport &) = delete;
  TimingReport &operator=(const TimingReport &) = delete;

  /// The timer the phases nest under; null when not timing.
  mlir::Timer *rootTimer() { return timing ? &root : nullptr; }
  mlir::Timer nest(StringRef name) {
    return timing ? root.nest(name) : mlir::Timer();
  }

private:
  std::optional<driver::CompileTimingManager> timing;
  std::optional<mlir::TimingScope> total;
  mlir::Timer root;
};

Expected<driver::CompileResult>
compileModel(const driver::CompileOptions &options) {
  driver::GearOptions gears{dynamicBatchSize, dynamicImageSize, dynamicDims};
  auto result =
      gears.any() ? driver::compileOnnxFileWithGears(inputPath, options, gears)
                  : driver::compileOnnxFileAnyShapes(inputPath, options);
  if (!result)
    return inModelFile(result.takeError(), inputPath,
                       {streamPlanPath, dumpGraphDir});
  return result;
}

/// `geflow run` refuses such a model; refusing it here writes nothing.
Error checkWorkspaceLimit(const driver::CompileResult &result,
                          const Limits &limits) {
  uint64_t workspace = result.model.memoryPlan.workspace_size();
  if (workspace <= limits.workspaceBytes)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      formatv("'{0}': the memory plan needs a workspace of {1} bytes, over "
              "the limit of {2} (--max-workspace-bytes)",
              inputPath, workspace, limits.workspaceBytes));
}

/// The OM file, then the staged --dump-graph files with it.
Error writeOm(const driver::CompileResult &result, const std::string &output,
              om::OutputFiles &outputs, TimingReport &timing) {
  mlir::TimingScope writeTiming(timing.nest("OM write"));
  if (Error error = toError(
          om::writeOmFile(result.model, output, &outputs,
                          result.validated ? om::OmWriteCheck::kAlreadyValidated
                                           : om::OmWriteCheck::kValidate)))
    return error;
  return toError(outputs.commit());
}

void printSummary(const driver::CompileResult &result,
                  const std::string &output) {
  if (driver::hasRuntimeShapes(result.model.modelDef)) {
    printRuntimeShapesCompileSummary(result.model.modelDef, inputPath, output,
                                     result.stats.compileTimeMs);
    return;
  }
  const passes::CompileStats &s = result.stats;
  outs() << formatv("geflow compile: {0} -> {1} ({2})\n", inputPath, output,
                    result.model.socName);
  outs() << formatv("  ops           {0} ({1} compute)\n", s.opCount,
                    s.computeOpCount);
  outs() << formatv("  kernels       {0}\n", s.kernelCount);
  outs() << formatv("  tasks         {0}\n", s.taskCount);
  outs() << formatv("  streams       {0}\n", s.streamCount);
  outs() << formatv("  events        {0} ({1} cross-stream dependencies "
                    "before reduction)\n",
                    s.eventCount, s.eventsBeforeReduction);
  if (s.predictedNs > 0)
    outs() << formatv(
        "  predicted     {0:F1} us on {1} stream(s), {2:F1} us on "
        "one (simulated)\n",
        s.predictedNs / 1e3, s.streamCount, s.predictedSingleStreamNs / 1e3);
  printEfficiency(result.model.modelDef);
  outs() << formatv("  weights       {0}\n", humanBytes(s.weightsBytes));
  outs() << formatv("  workspace     {0} ({1} without reuse)\n",
                    humanBytes(s.workspaceBytes),
                    humanBytes(s.workspaceBytesWithoutReuse));
  printGears(result);
  outs() << formatv("  compile time  {0:F1} ms\n", s.compileTimeMs);
}

int runCompile() {
  driver::CompileOptions options;
  Limits limits;
  if (Error error = readCompileOptions(options, limits))
    return reportError(std::move(error));
  std::string output = omPath();
  TimingReport timing(timePasses);
  options.timing = options.import.timing = timing.rootTimer();
  // The OM file and the --dump-graph files are kept together or not at all.
  om::OutputFiles outputs;
  options.dumpStaging = &outputs;
  auto result = compileModel(options);
  if (!result)
    return reportError(result.takeError());
  if (Error error = checkWorkspaceLimit(*result, limits))
    return reportError(std::move(error));
  if (Error error = writeOm(*result, output, outputs, timing))
    return reportError(std::move(error));
  printSummary(*result, output);
  return 0;
}

Command command{compileSub, runCompile};
} // namespace

Command &geflow::cli::compileCommand() { return command; }
