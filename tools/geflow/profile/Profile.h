//===- Profile.h - Did the streams overlap? -------------------------------===//
//
// Turns the TaskRecords of one execution into what a person reads to see
// whether a multi-stream model really ran in parallel: a summary (makespan,
// per-stream busy time, per-core-group utilisation, idle gaps with what the
// stream waited for, overlap_pct of every pair of streams with the field's
// verdict), msprof's op_summary.csv, a Perfetto trace and a self-contained
// timeline.html. Times are in the execution's own clock: 0 is the first task
// of any model stream.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_PROFILE_PROFILE_H
#define GEFLOW_TOOLS_GEFLOW_PROFILE_PROFILE_H

#include "runtime/Trace.h"

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <vector>

namespace geflow::om {
class OutputFiles;
}

namespace geflow::profile {

/// summary.json's "format", so a reader knows the file is ours.
inline constexpr const char *kSummaryFormat = "geflow-profile-1";

/// Host work of an execution (run-time shape resolution: planning,
/// inference, compiling stages), in wall-clock ns from its first span.
struct HostSpan {
  std::string name;
  int64_t startNs = 0, endNs = 0;
};

/// One execution as the profiler sees it.
struct Timeline {
  std::string model;
  std::string soc;
  /// The instruction set the host kernels ran on ("avx512", "avx2+fma", ...):
  /// host time depends on it as much as on the model.
  std::string hostIsa;
  /// Records of the model's streams only, `stream` being the model's stream
  /// id (0..N-1) and every time relative to the execution's first task.
  std::vector<rt::TaskRecord> records;
  uint32_t streamCount = 0;
  /// Cores of each rt::CoreGroup on the chip.
  std::array<uint32_t, rt::kNumCoreGroups> groupCores{};
  /// Host work between the device's tasks: a track of its own, since it
  /// runs on no stream.
  std::vector<HostSpan> hostSpans;
  /// The compiled schedule's lower bound (the OM's lower_bound_ns, 0 when it
  /// has none): the summary sets the kernels' span against it.
  double lowerBoundNs = 0;
};

/// Keeps the records of `modelStreams` (runtime ids, indexed by model stream
/// id), renumbers them to the model's ids and moves time 0 to their first
/// start. Tasks the executor adds on the caller's stream are left out.
std::vector<rt::TaskRecord>
toModelStreams(const std::vector<rt::TaskRecord> &records,
               const std::vector<rt::StreamId> &modelStreams);

struct SummaryOptions {
  /// A stream idle longer than this before a task is reported as a gap.
  rt::VirtualNs gapThresholdNs = 1000;
};

/// The verdict the field gives an overlap_pct: >= 0.5 "overlapping",
/// <= 0.05 "false parallelism", else "partial".
const char *overlapVerdict(double overlapPct);

/// summary.json's content.
nlohmann::json summarize(const Timeline &timeline,
                         const SummaryOptions &options = {});

/// The printed report, from a summary (fresh or read back from summary.json).
std::string formatReport(const nlohmann::json &summary);

/// msprof's Task Type (AI_CORE, AI_VECTOR_CORE, MIX, AI_CPU, DVPP, EVENT),
/// or MEMCPY / CALLBACK for the tasks msprof does not list.
const char *taskType(const rt::TaskRecord &record);
/// The op name of a kernel; "memcpy H2D", "wait event 3", ... otherwise.
std::string taskLabel(const rt::TaskRecord &record);

/// msprof's op_summary.csv: one row per kernel and event task.
std::string opSummaryCsv(const Timeline &timeline);

/// Chrome/Perfetto trace: a track per stream and per core group, kernels
/// named by op, each event record -> wait drawn as a flow arrow.
std::string traceJson(const Timeline &timeline);

/// A page that draws one lane per stream from data embedded in it.
std::string timelineHtml(const Timeline &timeline,
                         const nlohmann::json &summary);

/// Writes trace.json, op_summary.csv, summary.json and timeline.html into
/// `dir` (created if needed), each through a temporary file and a rename.
/// With `staging`, they are only staged there, to be committed with the
/// command's other outputs.
rt::Status writeProfile(const std::string &dir, const Timeline &timeline,
                        const nlohmann::json &summary,
                        om::OutputFiles *staging = nullptr);

/// Reads `dir`/summary.json back; a missing folder or file, or a summary
/// that is not one of ours, is a one-line error.
rt::Status readSummary(const std::string &dir, nlohmann::json *summary);

} // namespace geflow::profile

#endif // GEFLOW_TOOLS_GEFLOW_PROFILE_PROFILE_H
