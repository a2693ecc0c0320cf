//===- CompileCommand.cpp - geflow compile --------------------------------===//
//
// geflow compile MODEL.onnx -o MODEL.om [--soc NAME] [--input-shape ...]
// Imports, runs the GE pipeline, writes the OM artifact and prints a one-screen
// summary. The flags become a CompileJob, which `atc` (tools/atc) fills from
// ATC's spelling of them.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/CompileJob.h"
#include "tools/geflow/Limits.h"
#include "tools/geflow/ToolContext.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

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

/// The flags as a compile job; `geflow compile` and `atc` run the same
/// CompileJob (CompileJob.h).
Expected<CompileJob> readCompileJob() {
  CompileJob job;
  job.modelPath = inputPath;
  // -o, or MODEL.om beside the input.
  job.omPath = outputPath;
  if (job.omPath.empty()) {
    SmallString<256> path(inputPath.getValue());
    sys::path::replace_extension(path, ".om");
    job.omPath = std::string(path);
  }
  auto importOptions = parseImportOptions(inputShapes);
  if (!importOptions)
    return importOptions.takeError();
  auto limits = limitFlags.parse();
  if (!limits)
    return limits.takeError();
  job.limits = *limits;
  driver::CompileOptions &options = job.options;
  options.soc = socName;
  options.import = std::move(*importOptions);
  options.reuseMemory = !noMemoryReuse;
  options.streamMode = streamMode;
  options.maxStreams = maxStreams;
  options.streamPlanPath = streamPlanPath;
  options.disabledFusions.assign(disabledFusions.begin(),
                                 disabledFusions.end());
  options.dumpGraphDir = dumpGraphDir;
  options.maxDataDependentBytes = maxDataDependentBytes;
  job.aicoreNum = aicoreNum;
  job.gears = {dynamicBatchSize, dynamicImageSize, dynamicDims};
  job.timePasses = timePasses;
  return job;
}

int runCompile() {
  auto job = readCompileJob();
  if (!job)
    return reportError(job.takeError());
  if (Error error = runCompileJob(*job))
    return reportError(std::move(error));
  return 0;
}

Command command{compileSub, runCompile};
} // namespace

Command &geflow::cli::compileCommand() { return command; }
