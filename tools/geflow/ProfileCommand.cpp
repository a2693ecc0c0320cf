//===- ProfileCommand.cpp - geflow profile, and run's --profile -----------===//
//
// geflow profile DIR
// Prints the report of a folder written by `geflow run --profile DIR` again,
// from its summary.json.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/ToolContext.h"
#include "tools/geflow/profile/Profile.h"

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {
cl::SubCommand
    profileSub("profile",
               "Print the report of a profile written by geflow run --profile");

cl::opt<std::string> profileDir(cl::Positional, cl::Required, cl::desc("<dir>"),
                                cl::sub(profileSub), cl::cat(geflowCategory()));

Error statusError(const rt::Status &status) {
  return createStringError(inconvertibleErrorCode(), status.message());
}

int runProfile() {
  nlohmann::json summary;
  if (rt::Status s = profile::readSummary(profileDir, &summary); !s.isOk())
    return reportError(statusError(s));
  outs() << profile::formatReport(summary);
  return 0;
}

Command command{profileSub, runProfile};
} // namespace

Command &geflow::cli::profileCommand() { return command; }

Error geflow::cli::writeRunProfile(
    rt::Device &device, const exec::LoadedModel &model, const std::string &soc,
    const std::string &dir, double gapThresholdUs, om::OutputFiles &files) {
  auto bound = model.om().modelDef().attr().find("lower_bound_ns");
  double lowerBoundNs = bound == model.om().modelDef().attr().end()
                            ? 0.0
                            : double(bound->second.i());
  return writeStreamsProfile(device, model.name(), soc, model.streamIds(), {},
                             dir, gapThresholdUs, files, lowerBoundNs);
}

Error geflow::cli::writeStreamsProfile(
    rt::Device &device, const std::string &model, const std::string &soc,
    const std::vector<uint32_t> &streams, std::vector<profile::HostSpan> spans,
    const std::string &dir, double gapThresholdUs, om::OutputFiles &files,
    double lowerBoundNs) {
  profile::Timeline timeline;
  timeline.lowerBoundNs = lowerBoundNs;
  timeline.model = model;
  timeline.soc = soc;
  timeline.hostIsa = hostIsaText();
  timeline.streamCount = static_cast<uint32_t>(streams.size());
  timeline.records = profile::toModelStreams(device.traceRecords(), streams);
  timeline.hostSpans = std::move(spans);
  rt::CostModel cost(device.spec());
  for (int g = 0; g < rt::kNumCoreGroups; ++g)
    timeline.groupCores[g] = cost.groupSize(static_cast<rt::CoreGroup>(g));

  profile::SummaryOptions options;
  options.gapThresholdNs = static_cast<rt::VirtualNs>(gapThresholdUs * 1000.0);
  nlohmann::json summary = profile::summarize(timeline, options);
  if (rt::Status s = profile::writeProfile(dir, timeline, summary, &files);
      !s.isOk())
    return statusError(s);
  outs() << profile::formatReport(summary);
  outs() << "  profile written to " << dir
         << " (trace.json, op_summary.csv, summary.json, timeline.html)\n";
  return Error::success();
}
