//===- CompileJob.h - one compile, whichever command line asked -*- C++ -*-===//
//
// `geflow compile` and `atc` are two spellings of one compile: each front end
// turns its flags into a CompileJob and runs it here, so that the import, the
// pipeline, the gears, the limits, the atomic OM write and the summary are
// the same code whichever was typed.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_COMPILEJOB_H
#define GEFLOW_TOOLS_GEFLOW_COMPILEJOB_H

#include "tools/geflow/Limits.h"

#include "tools/driver/CompileDriver.h"
#include "tools/driver/Gears.h"

#include "llvm/Support/Error.h"

#include <string>

namespace geflow::cli {

struct CompileJob {
  std::string modelPath;
  /// The OM file to write.
  std::string omPath;
  /// Creates the OM file's folder when it is missing (ATC does; removed
  /// again if the compile fails).
  bool makeOmFolder = false;
  /// Everything the driver takes: SoC, import (input shapes, limits, model
  /// edits), memory reuse, streams, fusions, graph dumps.
  driver::CompileOptions options;
  driver::GearOptions gears;
  /// Global core limit "aic|aiv", checked against the SoC ("" for none).
  std::string aicoreNum;
  Limits limits;
  /// Prints each phase's wall time and peak RSS to stderr.
  bool timePasses = false;
  /// How the summary names the command and the SoC: "geflow compile", and
  /// what follows the SoC's name ("for --soc_version=Ascend310").
  std::string commandName = "geflow compile";
  std::string socNote;
};

/// Compiles the model, writes the OM (and the --dump-graph files) all or
/// nothing, and prints the summary on stdout. CANN's DUMP_GE_GRAPH switches
/// apply when no dump folder is set. The error is one line, without the
/// front end's "geflow: error: " or "atc: error: ".
llvm::Error runCompileJob(CompileJob &job);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_COMPILEJOB_H
