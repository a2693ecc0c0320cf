//===- Commands.h - the geflow subcommands ----------------------*- C++ -*-===//
//
// Each subcommand lives in its own file and owns its llvm::cl options, which
// are bound to its SubCommand. Main.cpp dispatches on the one the user named.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_TOOLS_GEFLOW_COMMANDS_H
#define GEFLOW_TOOLS_GEFLOW_COMMANDS_H

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::rt {
class Device;
}
namespace geflow::profile {
struct HostSpan;
}
namespace geflow::exec {
class LoadedModel;
}
namespace geflow::om {
class OutputFiles;
}

namespace geflow::cli {

struct Command {
  llvm::cl::SubCommand &subCommand;
  /// Runs the command once its options are parsed; returns the exit status.
  int (*run)();
};

/// Every geflow option is in this category; the rest of LLVM's are hidden.
llvm::cl::OptionCategory &geflowCategory();

Command &importCommand();
Command &compileCommand();
Command &runCommand();
Command &dumpCommand();
Command &profileCommand();

/// `geflow run --profile DIR`: stages the profile of the device's last
/// execution of `model` (tracing on) for `dir` in `files` and prints its
/// report.
llvm::Error writeRunProfile(rt::Device &device, const exec::LoadedModel &model,
                            const std::string &soc, const std::string &dir,
                            double gapThresholdUs, om::OutputFiles &files);

/// The same for executions spread over several models' streams (`streams`,
/// runtime ids, become model streams 0..N-1 in order), with host work as a
/// track of its own (run-time shape resolution). `lowerBoundNs`: the OM's
/// lower bound, for the efficiency line (0: none).
llvm::Error writeStreamsProfile(rt::Device &device, const std::string &model,
                                const std::string &soc,
                                const std::vector<uint32_t> &streams,
                                std::vector<profile::HostSpan> spans,
                                const std::string &dir, double gapThresholdUs,
                                om::OutputFiles &files,
                                double lowerBoundNs = 0);

/// Prints `geflow: error: <message>` as one line and returns exit status 1.
int reportError(llvm::Error error);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_COMMANDS_H
