//===- AtcSwitches.h - the ATC options geflow has no use for ----*- C++ -*-===//
//
// ATC has many options that tune what a chip's operator compiler does
// (precision modes, implementation modes, fusion switch files, tuning
// banks, weight compression). geflow accepts them, so that ATC's command
// lines run unchanged, and says in one note per option what it does instead.
// ATC options that change the model in ways geflow does not (single-op
// models, encryption, calibration) are a one-line error naming the option.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_ATC_ATCSWITCHES_H
#define GEFLOW_TOOLS_ATC_ATCSWITCHES_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

namespace geflow::atc {

/// Registers the switches as options of `category` (`atc --help` lists them
/// apart from the options geflow implements); once, before the command line
/// is parsed.
void registerAtcSwitches(llvm::cl::OptionCategory &category);

/// For each switch given: a note through `note`, or the error of the first
/// one geflow does not implement. A switch given its ATC default (which asks
/// for nothing, e.g. --enable_small_channel=0) makes no note.
llvm::Error
checkAtcSwitches(llvm::function_ref<void(const llvm::Twine &)> note);

} // namespace geflow::atc

#endif // GEFLOW_TOOLS_ATC_ATCSWITCHES_H
