//===- CompileJob.cpp - one compile, whichever command line asked ---------===//

#include "tools/geflow/CompileJob.h"
#include "tools/geflow/CompileSummary.h"
#include "tools/geflow/ToolContext.h"

#include "tools/driver/CompileTiming.h"
#include "tools/driver/DumpEnv.h"
#include "tools/driver/RuntimeShapesCompile.h"

#include "executor/model/OutputFiles.h"

#include "runtime/soc/SocSpec.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {

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

/// The options the job's flags leave to the SoC and the environment: the
/// graph dump switches, and the core limit checked against the chip.
Error completeOptions(CompileJob &job) {
  // CANN's DUMP_GE_GRAPH / DUMP_GRAPH_LEVEL / DUMP_GRAPH_PATH, when no flag.
  if (Error error = driver::applyDumpGraphEnv(job.options))
    return error;
  // The SoC first: its errors are about the SoC, not about the model.
  rt::SocSpec spec;
  if (rt::Status st = rt::loadSocSpec(job.options.soc, spec); !st.isOk())
    return createStringError(inconvertibleErrorCode(),
                             "SoC '" + job.options.soc + "': " + st.message());
  if (!job.aicoreNum.empty())
    return passes::setGlobalCoreLimit(job.options, job.aicoreNum, spec);
  return Error::success();
}

Expected<driver::CompileResult> compileModel(const CompileJob &job) {
  auto result =
      job.gears.any()
          ? driver::compileOnnxFileWithGears(job.modelPath, job.options,
                                             job.gears)
          : driver::compileOnnxFileAnyShapes(job.modelPath, job.options);
  if (!result)
    return inModelFile(result.takeError(), job.modelPath,
                       {job.options.streamPlanPath, job.options.dumpGraphDir});
  return result;
}

/// `geflow run` refuses such a model; refusing it here writes nothing.
Error checkWorkspaceLimit(const driver::CompileResult &result,
                          const CompileJob &job) {
  uint64_t workspace = result.model.memoryPlan.workspace_size();
  if (workspace <= job.limits.workspaceBytes)
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      formatv("'{0}': the memory plan needs a workspace of {1} bytes, over "
              "the limit of {2} (--max-workspace-bytes)",
              job.modelPath, workspace, job.limits.workspaceBytes));
}

/// The OM file, then the staged --dump-graph files with it.
Error writeOm(const driver::CompileResult &result, const CompileJob &job,
              om::OutputFiles &outputs, TimingReport &timing) {
  mlir::TimingScope writeTiming(timing.nest("OM write"));
  SmallString<256> folder(job.omPath);
  sys::path::remove_filename(folder);
  if (job.makeOmFolder && !folder.empty() && !sys::fs::exists(folder))
    if (Error error = toError(outputs.createFolder(std::string(folder))))
      return error;
  if (Error error = toError(
          om::writeOmFile(result.model, job.omPath, &outputs,
                          result.validated ? om::OmWriteCheck::kAlreadyValidated
                                           : om::OmWriteCheck::kValidate)))
    return error;
  return toError(outputs.commit());
}

} // namespace

Error cli::runCompileJob(CompileJob &job) {
  if (Error error = completeOptions(job))
    return error;
  job.options.import.limits = job.limits.importLimits();
  TimingReport timing(job.timePasses);
  job.options.timing = job.options.import.timing = timing.rootTimer();
  // The OM file and the --dump-graph files are kept together or not at all.
  om::OutputFiles outputs;
  job.options.dumpStaging = &outputs;
  auto result = compileModel(job);
  if (!result)
    return result.takeError();
  if (Error error = checkWorkspaceLimit(*result, job))
    return error;
  if (Error error = writeOm(*result, job, outputs, timing))
    return error;
  printCompileSummary(*result, job);
  return Error::success();
}
