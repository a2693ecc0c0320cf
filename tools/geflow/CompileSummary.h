//===- CompileSummary.h - the one-screen summary of a compile ---*- C++ -*-===//
//
// What `geflow compile` and `atc` print once the OM is written: op, kernel,
// task, stream and event counts, the predicted makespan against its lower
// bound, weights and workspace, a line per gear; or, for a model whose
// shapes are known only at run time, why and its inputs.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_COMPILESUMMARY_H
#define GEFLOW_TOOLS_GEFLOW_COMPILESUMMARY_H

#include "tools/geflow/CompileJob.h"

namespace geflow::cli {

/// Prints the summary of `result`, which `job` compiled, on stdout.
void printCompileSummary(const driver::CompileResult &result,
                         const CompileJob &job);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_COMPILESUMMARY_H
