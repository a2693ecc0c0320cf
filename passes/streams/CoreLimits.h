//===- CoreLimits.h - core limits checked against the SoC -------*- C++ -*-===//
//
// GE's rules for `_op_aicore_num` / `_op_vectorcore_num` and the global
// `ge.aicoreNum` option ("aic|aiv"): plain integers, at least 1, at most the
// chip's cube (vector) cores; a vector limit of 0 only on a chip that has no
// vector cores. One place, so the op-level and global checks cannot drift.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMS_CORELIMITS_H
#define GEFLOW_PASSES_STREAMS_CORELIMITS_H

#include "runtime/soc/SocSpec.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace geflow::passes {

/// Empty when `value` is a valid cube (`vector` false) or vector core limit
/// on `spec`; otherwise what is wrong, e.g. "is 30 but must be 1..24 (the
/// cube cores of ascend910b-sim)".
std::string checkCoreLimit(int64_t value, bool vector, const rt::SocSpec &spec);

struct GlobalCoreLimit {
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
};

/// Parses and checks `--aicore-num "aic|aiv"`.
llvm::Expected<GlobalCoreLimit> parseGlobalCoreLimit(llvm::StringRef text,
                                                     const rt::SocSpec &spec);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMS_CORELIMITS_H
