//===- Main.cpp - atc: ATC's command line over geflow's compiler ----------===//
//
// atc --model=m.onnx --framework=5 --output=m --soc_version=Ascend310P3 ...
// compiles as `geflow compile` does (one CompileJob, tools/geflow/CompileJob.h)
// and ends as ATC ends: "ATC run success, welcome to the next use." on
// stdout, or the one-line error on stderr and "ATC run failed, ..." with a
// non-zero exit status and no output file.
//
//===----------------------------------------------------------------------===//

#include "tools/atc/AtcOptions.h"
#include "tools/atc/AtcSwitches.h"

#include "tools/geflow/CommandLineErrors.h"
#include "tools/geflow/CompileJob.h"
#include "tools/geflow/RemoveOnSignal.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <google/protobuf/stubs/logging.h>

using namespace llvm;
using namespace geflow;

namespace {

cl::opt<bool> shortHelp("h", cl::desc("Alias for --help"),
                        cl::cat(atc::atcCategory()));

/// ATC's last lines: its error, then the verdict on stdout.
int fail(const Twine &message) {
  WithColor::error(errs(), "atc") << atc::inAtcSpelling(message.str()) << "\n";
  outs() << "ATC run failed, Please check the detail log, Try 'atc --help' "
            "for more information\n";
  return 1;
}

int fail(Error error) {
  std::string message = toString(std::move(error));
  return fail(message);
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cli::removeOutputsOnSignal();
  // protobuf logs to stderr while parsing a damaged file and then fails the
  // parse, which is reported in one line.
  google::protobuf::SetLogHandler(nullptr);
  atc::registerAtcSwitches(atc::atcSwitchCategory());
  cl::HideUnrelatedOptions({&atc::atcCategory(), &atc::atcSwitchCategory()});

  std::string clMessages;
  if (!cli::parseCommandLine(
          argc, argv,
          "atc: ATC's command line over geflow's compiler\n\n"
          "  atc --model=MODEL.onnx --framework=5 --output=PATH "
          "--soc_version=Ascend310P3 [...]\n"
          "  writes PATH.om as `geflow compile MODEL.onnx -o PATH.om` does\n",
          clMessages))
    return fail(cli::describeCommandLineError(
        clMessages,
        cli::commandLineContext("atc", cl::SubCommand::getTopLevel(), {})));
  if (shortHelp) {
    cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    return 0;
  }

  auto note = [](const Twine &message) {
    if (atc::atcNotesWanted())
      WithColor::note(errs(), "atc") << message << "\n";
  };
  auto job = atc::readAtcCompileJob(note);
  if (!job)
    return fail(job.takeError());
  if (Error error = cli::runCompileJob(*job))
    return fail(std::move(error));
  outs() << "ATC run success, welcome to the next use.\n";
  return 0;
}
