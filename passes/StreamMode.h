//===- StreamMode.h - `--streams single|label|auto` -------------*- C++ -*-===//
//
// The stream assignment's mode, as the compile options, the pass options and
// the tools name it; the assignment itself is passes/streams/.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_STREAMMODE_H
#define GEFLOW_PASSES_STREAMMODE_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace geflow::passes {

/// `--streams`, pipeline step 6 (docs/architecture.md).
enum class StreamMode {
  kSingle, // everything on stream 0; a user stream label is an error
  kLabel,  // user labels only: each tag its own stream, the rest on stream 0
  kAuto,   // labels, then GE's automatic split, kept only where it pays
};

/// "single", "label", "auto", and back.
llvm::StringRef streamModeName(StreamMode mode);
std::optional<StreamMode> parseStreamMode(llvm::StringRef name);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_STREAMMODE_H
