//===- PassSupport.h - what several files of passes/ share ------*- C++ -*-===//
#ifndef GEFLOW_PASSES_PASSSUPPORT_H
#define GEFLOW_PASSES_PASSSUPPORT_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

namespace geflow::passes {

/// The library's errors are one line for a person to read; no caller
/// dispatches on an error code.
llvm::Error makeError(const llvm::Twine &message);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_PASSSUPPORT_H
