//===- ProfileSummary.cpp - Busy time, overlap, gaps ----------------------===//
#include "tools/geflow/profile/Profile.h"

#include <algorithm>
#include <limits>
#include <map>

namespace geflow::profile {
namespace {

using nlohmann::json;
using rt::TaskKind;
using rt::TaskRecord;
using rt::VirtualNs;

using Interval = std::pair<VirtualNs, VirtualNs>;

double us(VirtualNs ns) { return static_cast<double>(ns) / 1000.0; }

/// Kernels and copies occupy a stream; event tasks and callbacks only order it.
bool doesWork(const TaskRecord &r) {
  return r.kind == TaskKind::kKernel || r.kind == TaskKind::kMemcpy;
}

/// Sorted, disjoint union of `intervals`.
std::vector<Interval> merge(std::vector<Interval> intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<Interval> merged;
  for (const Interval &i : intervals) {
    if (i.second <= i.first)
      continue;
    if (!merged.empty() && i.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, i.second);
    else
      merged.push_back(i);
  }
  return merged;
}

VirtualNs length(const std::vector<Interval> &merged) {
  VirtualNs total = 0;
  for (const Interval &i : merged)
    total += i.second - i.first;
  return total;
}

/// Time covered by both disjoint sorted lists.
VirtualNs intersection(const std::vector<Interval> &a,
                       const std::vector<Interval> &b) {
  VirtualNs both = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    VirtualNs lo = std::max(a[i].first, b[j].first);
    VirtualNs hi = std::min(a[i].second, b[j].second);
    if (hi > lo)
      both += hi - lo;
    (a[i].second < b[j].second ? i : j)++;
  }
  return both;
}

/// The core groups a kernel occupies and the core-time it held in each.
std::vector<std::pair<rt::CoreGroup, VirtualNs>>
coreTimeOf(const TaskRecord &r) {
  if (r.kind != TaskKind::kKernel)
    return {};
  switch (r.engine) {
  case rt::Engine::kAic:
    return {{rt::CoreGroup::kCube, r.coreTimeNs}};
  case rt::Engine::kAiv:
    return {{rt::CoreGroup::kVector, r.coreTimeNs}};
  case rt::Engine::kMix:
    return {{rt::CoreGroup::kCube, r.coreTimeNs},
            {rt::CoreGroup::kVector, r.vectorCoreTimeNs}};
  case rt::Engine::kAiCpu:
    return {{rt::CoreGroup::kAiCpu, r.coreTimeNs}};
  case rt::Engine::kDvpp:
    return {{rt::CoreGroup::kDvpp, r.coreTimeNs}};
  }
  return {};
}

std::string quoted(const std::string &name) { return "'" + name + "'"; }

/// Each stream's records in stream order.
std::vector<std::vector<const TaskRecord *>> byStream(const Timeline &t) {
  std::vector<std::vector<const TaskRecord *>> streams(t.streamCount);
  for (const TaskRecord &r : t.records)
    if (r.stream < t.streamCount)
      streams[r.stream].push_back(&r);
  for (auto &tasks : streams)
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const TaskRecord *a, const TaskRecord *b) {
                       return a->seq < b->seq;
                     });
  return streams;
}

/// "event 4 from stream 0 after 'conv1'": an event wait, named by the stream
/// and the last work before the record it waited for.
std::string describeWait(const Timeline &t, const TaskRecord &wait) {
  std::string text = "event " + std::to_string(wait.eventId);
  auto record = std::find_if(
      t.records.begin(), t.records.end(), [&](const TaskRecord &r) {
        return r.kind == TaskKind::kEventRecord && r.eventId == wait.eventId &&
               r.eventSeq == wait.eventSeq;
      });
  if (record == t.records.end())
    return text + " from the caller's stream";
  text += " from stream " + std::to_string(record->stream);
  const TaskRecord *producer = nullptr;
  for (const TaskRecord &r : t.records)
    if (r.stream == record->stream && r.seq < record->seq && doesWork(r) &&
        (!producer || r.seq > producer->seq))
      producer = &r;
  if (producer)
    text += " after " + quoted(taskLabel(*producer));
  return text;
}

/// What kept a stream idle from `idleSince` until `stream[next]` started:
/// the event waits since its previous work that ended after it fell idle, in
/// stream order; else the cores the task queued for; else the host.
std::string waitReason(const Timeline &t,
                       const std::vector<const TaskRecord *> &stream,
                       size_t prevWork, size_t next, VirtualNs idleSince,
                       VirtualNs thresholdNs) {
  std::string reason;
  for (size_t i = prevWork; i < next; ++i)
    if (stream[i]->kind == TaskKind::kEventWait && stream[i]->endNs > idleSince)
      reason += (reason.empty() ? "" : ", then ") + describeWait(t, *stream[i]);
  if (!reason.empty())
    return reason;
  const TaskRecord &task = *stream[next];
  if (task.waitNs() >= thresholdNs)
    return std::string("free ") + rt::engineName(task.engine) + " cores";
  return "the host to submit";
}

json streamGaps(const Timeline &t,
                const std::vector<const TaskRecord *> &stream,
                VirtualNs thresholdNs) {
  json gaps = json::array();
  VirtualNs idleSince = 0;
  size_t prevWork = 0;
  for (size_t i = 0; i < stream.size(); ++i) {
    const TaskRecord &r = *stream[i];
    if (!doesWork(r))
      continue;
    if (r.startNs > idleSince && r.startNs - idleSince > thresholdNs)
      gaps.push_back({{"stream_id", r.stream},
                      {"start_us", us(idleSince)},
                      {"end_us", us(r.startNs)},
                      {"duration_us", us(r.startNs - idleSince)},
                      {"before_op", taskLabel(r)},
                      {"waiting_for", waitReason(t, stream, prevWork, i,
                                                 idleSince, thresholdNs)}});
    idleSince = std::max(idleSince, r.endNs);
    prevWork = i + 1;
  }
  return gaps;
}

/// Where host latency went: the kernels' host time in all (host_kernel_us)
/// and by op type, largest first (host_by_op_type). Nothing when no kernel
/// was timed (a run without host work).
void addHostTime(const Timeline &t, json &summary) {
  std::map<std::string, std::pair<uint64_t, size_t>> byType;
  uint64_t total = 0;
  for (const TaskRecord &r : t.records)
    if (r.kind == TaskKind::kKernel && r.hostNs > 0) {
      auto &[ns, kernels] = byType[r.opType];
      ns += r.hostNs;
      ++kernels;
      total += r.hostNs;
    }
  if (total == 0)
    return;
  std::vector<std::pair<std::string, std::pair<uint64_t, size_t>>> rows(
      byType.begin(), byType.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    return a.second.first > b.second.first;
  });
  json types = json::array();
  for (const auto &[type, row] : rows)
    types.push_back({{"op_type", type},
                     {"host_us", row.first / 1000.0},
                     {"share", double(row.first) / double(total)},
                     {"kernels", row.second}});
  summary["host_kernel_us"] = total / 1000.0;
  summary["host_by_op_type"] = std::move(types);
}

} // namespace

const char *overlapVerdict(double overlapPct) {
  if (overlapPct >= 0.5)
    return "overlapping";
  if (overlapPct <= 0.05)
    return "false parallelism";
  return "partial";
}

std::vector<TaskRecord>
toModelStreams(const std::vector<TaskRecord> &records,
               const std::vector<rt::StreamId> &modelStreams) {
  std::map<rt::StreamId, rt::StreamId> modelId;
  for (size_t i = 0; i < modelStreams.size(); ++i)
    modelId[modelStreams[i]] = static_cast<rt::StreamId>(i);
  std::vector<TaskRecord> kept;
  for (const TaskRecord &r : records)
    if (auto it = modelId.find(r.stream); it != modelId.end()) {
      kept.push_back(r);
      kept.back().stream = it->second;
    }
  if (kept.empty())
    return kept;
  VirtualNs origin = kept.front().startNs;
  for (const TaskRecord &r : kept)
    origin = std::min(origin, r.startNs);
  for (TaskRecord &r : kept) {
    // submit and ready may precede the first start; clamp, never wrap.
    auto rebase = [&](VirtualNs ns) { return ns > origin ? ns - origin : 0; };
    r.submitNs = rebase(r.submitNs);
    r.readyNs = rebase(r.readyNs);
    r.startNs = rebase(r.startNs);
    r.endNs = rebase(r.endNs);
  }
  return kept;
}

json summarize(const Timeline &t, const SummaryOptions &options) {
  VirtualNs makespan = 0;
  for (const TaskRecord &r : t.records)
    makespan = std::max(makespan, r.endNs);

  auto streams = byStream(t);
  std::vector<std::vector<Interval>> busy(t.streamCount);
  json streamRows = json::array(), gaps = json::array();
  for (uint32_t s = 0; s < t.streamCount; ++s) {
    std::vector<Interval> work;
    size_t kernels = 0;
    for (const TaskRecord *r : streams[s]) {
      if (doesWork(*r))
        work.push_back({r->startNs, r->endNs});
      kernels += r->kind == TaskKind::kKernel;
    }
    busy[s] = merge(std::move(work));
    VirtualNs busyNs = length(busy[s]);
    streamRows.push_back(
        {{"stream_id", s},
         {"busy_us", us(busyNs)},
         {"busy_fraction", makespan ? double(busyNs) / double(makespan) : 0.0},
         {"tasks", streams[s].size()},
         {"kernels", kernels}});
    for (json &gap : streamGaps(t, streams[s], options.gapThresholdNs))
      gaps.push_back(std::move(gap));
  }

  json groups = json::array();
  for (int g = 0; g < rt::kNumCoreGroups; ++g) {
    auto group = static_cast<rt::CoreGroup>(g);
    double coreNs = 0;
    std::vector<Interval> used;
    for (const TaskRecord &r : t.records)
      for (auto [which, held] : coreTimeOf(r))
        if (which == group && held > 0) {
          coreNs += double(held);
          used.push_back({r.startNs, r.endNs});
        }
    if (t.groupCores[g] == 0 && used.empty())
      continue;
    double capacity = double(t.groupCores[g]) * double(makespan);
    groups.push_back({{"group", rt::coreGroupName(group)},
                      {"cores", t.groupCores[g]},
                      {"busy_us", us(length(merge(std::move(used))))},
                      {"utilisation", capacity > 0 ? coreNs / capacity : 0.0}});
  }

  json pairs = json::array();
  for (uint32_t a = 0; a < t.streamCount; ++a)
    for (uint32_t b = a + 1; b < t.streamCount; ++b) {
      VirtualNs shorter = std::min(length(busy[a]), length(busy[b]));
      VirtualNs both = intersection(busy[a], busy[b]);
      double pct = shorter ? double(both) / double(shorter) : 0.0;
      pairs.push_back({{"streams", {a, b}},
                       {"both_busy_us", us(both)},
                       {"overlap_pct", pct},
                       {"verdict", overlapVerdict(pct)}});
    }

  json summary = {{"format", kSummaryFormat},
                  {"model", t.model},
                  {"soc", t.soc},
                  {"host_isa", t.hostIsa},
                  {"makespan_us", us(makespan)},
                  {"gap_threshold_us", us(options.gapThresholdNs)},
                  {"streams", streamRows},
                  {"core_groups", groups},
                  {"stream_pairs", pairs},
                  {"idle_gaps", gaps}};
  // Efficiency as `geflow compile` gives it: the copies in and out are the
  // executor's, the same for every schedule, so the schedule is measured over
  // the span of its kernels (docs/streams.md, "Lower bound").
  if (t.lowerBoundNs > 0) {
    VirtualNs first = std::numeric_limits<VirtualNs>::max(), last = 0;
    for (const TaskRecord &r : t.records)
      if (r.kind == TaskKind::kKernel) {
        first = std::min(first, r.startNs);
        last = std::max(last, r.endNs);
      }
    if (last > first) {
      summary["lower_bound_us"] = t.lowerBoundNs / 1000.0;
      summary["kernel_span_us"] = us(last - first);
      summary["efficiency"] = double(last - first) / t.lowerBoundNs;
    }
  }
  addHostTime(t, summary);
  if (!t.hostSpans.empty()) {
    double hostNs = 0;
    for (const HostSpan &span : t.hostSpans)
      hostNs += span.endNs - span.startNs;
    summary["host_shape_work_us"] = hostNs / 1000.0;
  }
  return summary;
}

} // namespace geflow::profile
