//===- Main.cpp - the geflow command-line tool ----------------------------===//
//
// geflow <command> [options]: import ONNX into the ge dialect, compile it to
// OM, run it, dump a built model, print a run's profile. Every failure is one
// line on stderr and exit status 1.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/CommandLineErrors.h"
#include "tools/geflow/Commands.h"
#include "tools/geflow/RemoveOnSignal.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"

#include "llvm/Support/WithColor.h"
#include <google/protobuf/stubs/logging.h>

using namespace geflow::cli;

int geflow::cli::reportError(llvm::Error error) {
  llvm::handleAllErrors(std::move(error), [](const llvm::ErrorInfoBase &info) {
    llvm::WithColor::error(llvm::errs(), "geflow") << info.message() << "\n";
  });
  return 1;
}

llvm::cl::OptionCategory &geflow::cli::geflowCategory() {
  static llvm::cl::OptionCategory category("geflow options");
  return category;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  removeOutputsOnSignal();
  // protobuf logs to stderr while parsing a damaged file (invalid UTF-8 in a
  // string field) and then fails the parse, which we report in one line.
  google::protobuf::SetLogHandler(nullptr);
  Command *commands[] = {&importCommand(), &compileCommand(), &runCommand(),
                         &dumpCommand(), &profileCommand()};

  llvm::cl::HideUnrelatedOptions(geflowCategory());
  // LLVM's messages are caught and told again in one line.
  std::string clMessages;
  if (!parseCommandLine(
          argc, argv,
          "geflow: a GE-style graph compiler and executor for a simulated "
          "NPU\n\n"
          "  geflow import  MODEL.onnx [-o OUT.mlir] [--input-shape "
          "NAME:D0,D1,...]\n"
          "  geflow compile MODEL.onnx [-o MODEL.om] [--soc NAME] "
          "[--input-shape ...]\n"
          "  geflow run     MODEL.om [--input NAME=FILE ...] [--output-dir "
          "DIR] "
          "[--repeat N] [--threads N] [--trace FILE] [--profile DIR]\n"
          "  geflow dump    MODEL.om [--format pbtxt|mlir] [-o FILE]\n"
          "  geflow profile DIR\n",
          clMessages)) {
    llvm::cl::SubCommand *named = &llvm::cl::SubCommand::getTopLevel();
    std::vector<std::string> names;
    for (Command *command : commands) {
      names.push_back(command->subCommand.getName().str());
      if (command->subCommand)
        named = &command->subCommand;
    }
    return reportError(llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        describeCommandLineError(
            clMessages, commandLineContext(llvm::sys::path::filename(argv[0]),
                                           *named, names))));
  }

  for (Command *command : commands)
    if (command->subCommand)
      return command->run();

  llvm::WithColor::error(llvm::errs(), "geflow")
      << "no command given; run 'geflow --help' for the list\n";
  return 1;
}
