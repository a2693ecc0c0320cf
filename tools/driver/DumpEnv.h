//===- DumpEnv.h - CANN's graph dump switches as compile options -*- C++
//-*-===//
//
// CANN users dump graphs with environment variables rather than flags:
//   DUMP_GE_GRAPH=1|2|3   dump; 1 everything, 2 without weights, 3 node
//                         relations only
//   DUMP_GRAPH_LEVEL=1..4 1 after every pass, 2 the default stages, 3 the
//                         final graph, 4 the earliest graph
//   DUMP_GRAPH_PATH=DIR   the folder (default: the current one)
// They map onto `--dump-graph` (passes/GraphDump.h, GraphDumpLevels.h), so
// the files are named as with the flag. `geflow compile` and the Python
// module's compile call this once; an explicit --dump-graph wins.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_DUMPENV_H
#define GEFLOW_TOOLS_DRIVER_DUMPENV_H

#include "passes/Pipeline.h"

#include "llvm/Support/Error.h"

namespace geflow::driver {

/// Sets options.dumpGraphDir and options.dumpLevels from the environment
/// when DUMP_GE_GRAPH is set and options.dumpGraphDir is empty. A value out
/// of range is a one-line error naming the variable.
llvm::Error applyDumpGraphEnv(passes::CompileOptions &options);

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_DUMPENV_H
