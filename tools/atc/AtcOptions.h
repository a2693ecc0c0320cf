//===- AtcOptions.h - ATC's command line as a compile job -------*- C++ -*-===//
//
// `atc --model=m.onnx --framework=5 --output=m --soc_version=Ascend310P3 ...`
// is `geflow compile` in ATC's spelling: the options geflow implements are
// read here into the CompileJob that `geflow compile` runs too
// (tools/geflow/CompileJob.h), with a note where geflow reads an option
// differently from ATC (a Caffe --framework over an ONNX file, an unused
// --weight, an --input_format the model does not have).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_ATC_ATCOPTIONS_H
#define GEFLOW_TOOLS_ATC_ATCOPTIONS_H

#include "tools/geflow/CompileJob.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace geflow::atc {

/// The options of ATC's that geflow implements.
llvm::cl::OptionCategory &atcCategory();
/// ATC's options that geflow accepts without applying, or refuses.
llvm::cl::OptionCategory &atcSwitchCategory();

/// Prints one "atc: note: ..." line, unless --log=error asked for none.
using NoteFn = llvm::function_ref<void(const llvm::Twine &)>;

/// The command line as a compile job. `note` gets each note; the error is
/// one line naming the option.
llvm::Expected<cli::CompileJob> readAtcCompileJob(NoteFn note);

/// True unless --log=error: notes are printed.
bool atcNotesWanted();

/// The geflow SoC (preset or spec file) an ATC --soc_version means:
/// Ascend310, Ascend310P* and Ascend310B* are ascend310p-sim; Ascend910*
/// (910B, 910_93 included) ascend910b-sim. A geflow preset name or an .ini
/// file is taken as it is.
llvm::Expected<std::string> socForVersion(llvm::StringRef socVersion);

/// `message` with geflow's flag names in ATC's spelling ("--input-shape" is
/// "--input_shape"), for errors that the shared compile path reports.
std::string inAtcSpelling(llvm::StringRef message);

} // namespace geflow::atc

#endif // GEFLOW_TOOLS_ATC_ATCOPTIONS_H
