//===- DumpEnv.cpp - CANN's graph dump switches as compile options --------===//

#include "tools/driver/DumpEnv.h"

#include "llvm/ADT/StringRef.h"

#include <cstdlib>

using namespace geflow;

namespace {

/// The variable's value as an int in [lo, hi]; `fallback` when unset or
/// empty.
llvm::Expected<int> envLevel(const char *name, int lo, int hi, int fallback) {
  const char *value = std::getenv(name);
  if (!value || !*value)
    return fallback;
  int level = 0;
  if (llvm::StringRef(value).trim().getAsInteger(10, level) || level < lo ||
      level > hi)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   llvm::Twine(name) + "='" + value +
                                       "': expected " + llvm::Twine(lo) +
                                       " to " + llvm::Twine(hi));
  return level;
}

} // namespace

llvm::Error driver::applyDumpGraphEnv(passes::CompileOptions &options) {
  const char *dump = std::getenv("DUMP_GE_GRAPH");
  if (!dump || !*dump || !options.dumpGraphDir.empty())
    return llvm::Error::success();
  auto content = envLevel("DUMP_GE_GRAPH", 1, 3, 1);
  if (!content)
    return content.takeError();
  auto stages = envLevel("DUMP_GRAPH_LEVEL", 1, 4, 2);
  if (!stages)
    return stages.takeError();
  const char *path = std::getenv("DUMP_GRAPH_PATH");
  options.dumpGraphDir = path && *path ? path : ".";
  options.dumpLevels.content = static_cast<passes::DumpContent>(*content);
  options.dumpLevels.stages = static_cast<passes::DumpStages>(*stages);
  return llvm::Error::success();
}
