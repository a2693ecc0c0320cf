//===- CoreLimits.cpp - core limits checked against the SoC ---------------===//

#include "passes/streams/CoreLimits.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

namespace geflow::passes {

std::string checkCoreLimit(int64_t value, bool vector,
                           const rt::SocSpec &spec) {
  uint32_t cores = vector ? spec.vectorCoreCnt : spec.cubeCoreCnt;
  const char *kind = vector ? "vector" : "cube";
  if (cores == 0) {
    if (value == 0)
      return "";
    return llvm::formatv("is {0} but {1} has no {2} cores, so it must be 0",
                         value, spec.source, kind);
  }
  if (value >= 1 && value <= int64_t(cores))
    return "";
  return llvm::formatv("is {0} but must be 1..{1} (the {2} cores of {3})",
                       value, cores, kind, spec.source);
}

llvm::Expected<GlobalCoreLimit> parseGlobalCoreLimit(llvm::StringRef text,
                                                     const rt::SocSpec &spec) {
  auto fail = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--aicore-num \"" + text + "\": " + why);
  };
  auto [aic, aiv] = text.split('|');
  if (!text.contains('|') || aic.empty() || aiv.empty() ||
      !llvm::all_of(aic, llvm::isDigit) || !llvm::all_of(aiv, llvm::isDigit))
    return fail("must be two plain integers \"aic|aiv\", e.g. \"24|48\"");
  GlobalCoreLimit limit;
  if (aic.getAsInteger(10, limit.aicoreNum) ||
      aiv.getAsInteger(10, limit.vectorcoreNum))
    return fail("a core count is too large");
  if (std::string why = checkCoreLimit(limit.aicoreNum, false, spec);
      !why.empty())
    return fail("aicore_num " + why);
  if (std::string why = checkCoreLimit(limit.vectorcoreNum, true, spec);
      !why.empty())
    return fail("vectorcore_num " + why);
  return limit;
}

} // namespace geflow::passes
