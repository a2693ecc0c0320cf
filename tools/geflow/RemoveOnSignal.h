//===- RemoveOnSignal.h - a killed geflow leaves no outputs -----*- C++ -*-===//
//
// No half-written or left-over output, also when geflow is
// interrupted (SIGINT, SIGTERM, SIGHUP) or crashes. om::OutputFiles removes
// its temporaries and folders on every error path it returns through; this
// covers the paths it never returns through.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_REMOVEONSIGNAL_H
#define GEFLOW_TOOLS_GEFLOW_REMOVEONSIGNAL_H

namespace geflow::cli {

/// From now on, the temporaries and folders that any om::OutputFiles holds
/// are removed if the process is killed by SIGINT, SIGTERM or SIGHUP, or
/// crashes; the signal then ends the process as it would have. Call once,
/// after llvm::InitLLVM (whose crash handlers this builds on).
void removeOutputsOnSignal();

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_REMOVEONSIGNAL_H
