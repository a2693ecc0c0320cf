//===- CompileDriver.h - an ONNX file through the GE pipeline ---*- C++ -*-===//
//
// `geflow compile`, the unit tests and host programs compile a model file
// here: import (frontends/onnx), the optional stream plan, then the passes'
// compileModule. It sits above both so that the passes know nothing of ONNX.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_COMPILEDRIVER_H
#define GEFLOW_TOOLS_DRIVER_COMPILEDRIVER_H

#include "frontends/onnx/OnnxImporter.h"
#include "passes/Pipeline.h"

#include "executor/model/OmModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <string>
#include <vector>

namespace geflow::driver {

/// The compiler's options plus how the file is imported.
struct CompileOptions : passes::CompileOptions {
  OnnxImportOptions import;
  /// `--stream-plan plan.json`, applied after import.
  std::string streamPlanPath;
  /// Run-time shapes: the declared cap on each output buffer of a
  /// data-dependent op, in bytes (0: the op's own upper bound).
  uint64_t maxDataDependentBytes = 0;
};

struct CompileResult {
  om::OmModel model;
  /// compileTimeMs includes the import.
  passes::CompileStats stats;
  /// A model with gears (Gears.h): each gear's own figures, in gear order;
  /// `stats` then sums kernels and tasks and takes the largest of the rest.
  std::vector<passes::CompileStats> gearStats;
  /// The model passed validateOmModel after it was built (the pipeline's and
  /// the gear merger's check); writing it need not check it again
  /// (om::OmWriteCheck). False for a run-time-shapes model.
  bool validated = false;
};

/// Imports `path`, compiles it and measures the result. The model's ModelDef
/// name defaults to the file's stem. Errors are one line without an "error: "
/// prefix, like the importer's.
llvm::Expected<CompileResult>
compileOnnxFile(llvm::StringRef path, const CompileOptions &options = {});

/// compileOnnxFile on a file readOnnxFile has read (and the caller looked
/// at); `start` is when the compile began, for CompileStats.
llvm::Expected<CompileResult>
compileOnnxFile(ReadOnnxFile file, const CompileOptions &options,
                std::chrono::steady_clock::time_point start);

/// Compiles a model built in memory (a run-time-shapes stage); `name` names
/// it in messages and is the ModelDef name unless options.modelName is set.
llvm::Expected<CompileResult>
compileOnnxModel(onnx::ModelProto model, llvm::StringRef name,
                 const CompileOptions &options = {});

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_COMPILEDRIVER_H
