//===- RunRuntimeShapes.h - geflow run for run-time shapes ------*- C++ -*-===//
//
// The CLI's side of RUNTIME_SHAPES models (tools/driver/RuntimeShapesModel.h):
// `geflow run` takes every input from a file, in any shape the model takes,
// and resolves the shapes per execution (the compile summary's side is in
// CompileSummary.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_RUNRUNTIMESHAPES_H
#define GEFLOW_TOOLS_GEFLOW_RUNRUNTIMESHAPES_H

#include "executor/model/OmModel.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace geflow::rt {
class Device;
}

namespace geflow::cli {

/// The `geflow run` flags a RUNTIME_SHAPES run reads.
struct RuntimeShapesRunFlags {
  std::string modelPath;
  std::vector<std::string> inputFiles;  // name=file
  std::vector<std::string> expectFiles; // name=file
  std::string outputDir, tracePath, profileDir;
  unsigned repeat = 1;
  double rtol = 1e-3, atol = 1e-5, profileGapUs = 1.0;
  uint64_t maxTensorBytes = UINT64_MAX;
};

/// `geflow run` of a RUNTIME_SHAPES model on `device` (tracing on when a
/// trace or profile is asked for).
llvm::Error runRuntimeShapesModel(std::unique_ptr<om::LoadedOm> om,
                                  rt::Device &device,
                                  const RuntimeShapesRunFlags &flags);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_RUNRUNTIMESHAPES_H
