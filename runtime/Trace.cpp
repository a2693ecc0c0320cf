//===- Trace.cpp - Chrome/Perfetto trace export ---------------------------===//
#include "runtime/Trace.h"

#include "runtime/support/TempFile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace geflow::rt {
namespace {

using nlohmann::json;

double us(VirtualNs ns) { return static_cast<double>(ns) / 1000.0; }

std::string label(const TaskRecord &r) {
  switch (r.kind) {
  case TaskKind::kKernel:
    return r.name.empty() ? std::string("kernel") : r.name;
  case TaskKind::kMemcpy:
    return std::string("memcpy ") + memcpyKindName(r.copyKind);
  case TaskKind::kCallback:
    return "callback";
  case TaskKind::kEventRecord:
    return "record event " + std::to_string(r.eventId);
  case TaskKind::kEventWait:
    return "wait event " + std::to_string(r.eventId);
  }
  return "?";
}

// The core groups a record occupies, with the number of cores.
std::vector<std::pair<CoreGroup, uint32_t>> groupsOf(const TaskRecord &r) {
  if (r.kind != TaskKind::kKernel || r.coresGranted == 0)
    return {};
  switch (r.engine) {
  case Engine::kAic:
    return {{CoreGroup::kCube, r.coresGranted}};
  case Engine::kAiv:
    return {{CoreGroup::kVector, r.coresGranted}};
  case Engine::kMix:
    return {{CoreGroup::kCube, r.coresGranted},
            {CoreGroup::kVector, r.vectorCoresGranted}};
  case Engine::kAiCpu:
    return {{CoreGroup::kAiCpu, r.coresGranted}};
  case Engine::kDvpp:
    return {{CoreGroup::kDvpp, r.coresGranted}};
  }
  return {};
}

json meta(const char *what, int pid, int tid, const std::string &name) {
  json m = {
      {"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
  if (tid >= 0)
    m["tid"] = tid;
  return m;
}

} // namespace

std::string chromeTraceJson(const std::vector<TaskRecord> &records) {
  // Streams are one process; each core group is a process of its own, so
  // Perfetto shows a group's lanes and its busy-cores counter together.
  constexpr int kStreamPid = 1;
  auto groupPid = [](CoreGroup g) { return 10 + static_cast<int>(g); };
  json events = json::array();
  events.push_back(meta("process_name", kStreamPid, -1, "streams"));

  std::map<StreamId, bool> streams;
  for (const TaskRecord &r : records) {
    if (!streams.count(r.stream)) {
      streams[r.stream] = true;
      events.push_back(meta("thread_name", kStreamPid,
                            static_cast<int>(r.stream),
                            "stream " + std::to_string(r.stream)));
    }
    json args = {{"stream", r.stream},
                 {"seq", r.seq},
                 {"kind", taskKindName(r.kind)},
                 {"submit_us", us(r.submitNs)},
                 {"wait_us", us(r.waitNs())}};
    if (r.kind == TaskKind::kKernel) {
      args["engine"] = engineName(r.engine);
      args["op_type"] = r.opType;
      args["block_dim"] = r.blockDim;
      args["cores"] = r.coresGranted;
      if (r.hostNs)
        args["host_us"] = us(r.hostNs);
      if (r.hostWallNs)
        args["host_wall_us"] = us(r.hostWallNs);
    }
    if (r.eventId != UINT32_MAX) {
      args["event"] = r.eventId;
      args["record"] = r.eventSeq;
    }
    if (r.kind == TaskKind::kMemcpy)
      args["bytes"] = r.bytes;
    if (r.failed)
      args["failed"] = true;
    events.push_back({{"ph", "X"},
                      {"name", label(r)},
                      {"cat", taskKindName(r.kind)},
                      {"pid", kStreamPid},
                      {"tid", r.stream},
                      {"ts", us(r.startNs)},
                      {"dur", us(r.endNs - r.startNs)},
                      {"args", args}});
  }

  // Core groups: tasks overlap there, so each goes on the lowest lane free
  // at its start; a counter track shows the busy cores.
  std::vector<const TaskRecord *> byStart;
  for (const TaskRecord &r : records)
    byStart.push_back(&r);
  std::stable_sort(byStart.begin(), byStart.end(),
                   [](const TaskRecord *a, const TaskRecord *b) {
                     return a->startNs < b->startNs;
                   });
  std::map<CoreGroup, std::vector<VirtualNs>> laneEnds;
  std::map<CoreGroup, std::map<VirtualNs, int64_t>> deltas;
  for (const TaskRecord *r : byStart) {
    for (auto [group, cores] : groupsOf(*r)) {
      std::vector<VirtualNs> &ends = laneEnds[group];
      size_t lane = 0;
      while (lane < ends.size() && ends[lane] > r->startNs)
        ++lane;
      if (lane == ends.size()) {
        if (ends.empty())
          events.push_back(meta("process_name", groupPid(group), -1,
                                std::string(coreGroupName(group)) + " cores"));
        ends.push_back(0);
        events.push_back(
            meta("thread_name", groupPid(group),
                 static_cast<int>(group) * 1000 + static_cast<int>(lane),
                 std::string(coreGroupName(group)) + " lane " +
                     std::to_string(lane)));
      }
      ends[lane] = r->endNs;
      events.push_back(
          {{"ph", "X"},
           {"name", label(*r)},
           {"pid", groupPid(group)},
           {"tid", static_cast<int>(group) * 1000 + static_cast<int>(lane)},
           {"ts", us(r->startNs)},
           {"dur", us(r->endNs - r->startNs)},
           {"args", {{"stream", r->stream}, {"cores", cores}}}});
      deltas[group][r->startNs] += cores;
      deltas[group][r->endNs] -= cores;
    }
  }
  for (auto &[group, changes] : deltas) {
    int64_t busy = 0;
    for (auto [t, d] : changes) {
      busy += d;
      events.push_back(
          {{"ph", "C"},
           {"name", std::string(coreGroupName(group)) + " cores busy"},
           {"pid", groupPid(group)},
           {"ts", us(t)},
           {"args", {{"busy", busy}}}});
    }
  }
  json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  return doc.dump();
}

Status writeChromeTrace(const std::vector<TaskRecord> &records,
                        const std::string &path) {
  // A unique temporary, not "<path>.tmp": two exports to one path must not
  // share it, and a user's own file of that name must survive.
  Status written = replaceFileAtomically(path, {chromeTraceJson(records)});
  if (!written.isOk()) // a file problem: ACL_ERROR_INVALID_FILE at the C API
    return makeStatus(StatusCode::kNotFound, "trace: " + written.message());
  return Status::ok();
}

bool aclRuntimeTraceEnabled() {
  static const bool enabled = [] {
    const char *v = std::getenv("ACL_RUNTIME_TRACE");
    return v && *v && std::strcmp(v, "0") != 0;
  }();
  return enabled;
}

std::string aclTraceLine(const TaskRecord &r) {
  char times[160];
  std::snprintf(times, sizeof times,
                " submit %.3f start %.3f end %.3f wait %.3f (us)%s",
                us(r.submitNs), us(r.startNs), us(r.endNs), us(r.waitNs()),
                r.failed ? " FAILED" : "");
  return "[ACL_RUNTIME_TRACE] stream " + std::to_string(r.stream) + " task " +
         std::to_string(r.seq) + " " + taskKindName(r.kind) + " " + label(r) +
         times;
}

void printAclTraceLine(const TaskRecord &record) {
  std::string line = aclTraceLine(record) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

} // namespace geflow::rt
