//===- CommandLineErrors.h - one line per command-line error ----*- C++ -*-===//
//
// llvm::cl reports a bad command line in its own words, over several lines
// ("Unknown command line argument '--foo'.  Try: ...", "Did you mean ...",
// "Must specify at least 1 positional argument: See: ..."). geflow's rule is
// one line, `geflow: error: ...`, naming the problem and its place: the
// option, the value and the command. describeCommandLineError turns the
// first problem LLVM found into that line.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_COMMANDLINEERRORS_H
#define GEFLOW_TOOLS_GEFLOW_COMMANDLINEERRORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>
#include <vector>

namespace geflow::cli {

/// llvm::cl::ParseCommandLineOptions, with all it prints on stderr caught in
/// `messages` instead: its error stream and also what an option prints
/// straight to llvm::errs() ("for the -o option: requires a value!").
/// Caught text of a parse that succeeds is printed after all.
bool parseCommandLine(int argc, const char *const *argv,
                      llvm::StringRef overview, std::string &messages);

/// What the line names besides LLVM's message.
struct CommandLineContext {
  std::string programName;           // as LLVM prefixes its lines: "geflow"
  std::string command;               // "geflow compile", or "geflow"
  std::vector<std::string> options;  // the command's visible option names
  std::vector<std::string> commands; // every subcommand's name
  std::string positional;            // "<model.onnx>", "" if none
};

/// The context of `sub`, the subcommand the user named (or the top level).
CommandLineContext commandLineContext(llvm::StringRef programName,
                                      llvm::cl::SubCommand &sub,
                                      const std::vector<std::string> &commands);

/// One line, without the "geflow: error: " prefix, for the first problem in
/// `llvmMessages` (what llvm::cl::ParseCommandLineOptions printed), e.g.
/// "unknown option '--fus' for 'geflow compile' (did you mean '--no-fuse'?)".
std::string describeCommandLineError(llvm::StringRef llvmMessages,
                                     const CommandLineContext &context);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_COMMANDLINEERRORS_H
