//===- ProfileFiles.cpp - op_summary.csv, trace.json, the profile folder --===//
#include "tools/geflow/profile/Profile.h"

#include "executor/model/OutputFiles.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace geflow::profile {
namespace {

using nlohmann::json;
using rt::TaskKind;
using rt::TaskRecord;

/// RFC 4180: a field with a comma, quote or newline is quoted, quotes doubled.
std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string fixed3(rt::VirtualNs ns) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", static_cast<double>(ns) / 1000.0);
  return text;
}

rt::Status fileError(const std::string &message) {
  return rt::makeStatus(rt::StatusCode::kInternal, message);
}

} // namespace

const char *taskType(const TaskRecord &r) {
  switch (r.kind) {
  case TaskKind::kEventRecord:
  case TaskKind::kEventWait:
    return "EVENT";
  case TaskKind::kMemcpy:
    return "MEMCPY";
  case TaskKind::kCallback:
    return "CALLBACK";
  case TaskKind::kKernel:
    break;
  }
  switch (r.engine) {
  case rt::Engine::kAic:
    return "AI_CORE";
  case rt::Engine::kAiv:
    return "AI_VECTOR_CORE";
  case rt::Engine::kMix:
    return "MIX";
  case rt::Engine::kAiCpu:
    return "AI_CPU";
  case rt::Engine::kDvpp:
    return "DVPP";
  }
  return "";
}

std::string taskLabel(const TaskRecord &r) {
  switch (r.kind) {
  case TaskKind::kKernel:
    return r.name;
  case TaskKind::kMemcpy:
    return std::string("memcpy ") + rt::memcpyKindName(r.copyKind);
  case TaskKind::kEventRecord:
    return "record event " + std::to_string(r.eventId);
  case TaskKind::kEventWait:
    return "wait event " + std::to_string(r.eventId);
  case TaskKind::kCallback:
    return "callback";
  }
  return "";
}

std::string opSummaryCsv(const Timeline &timeline) {
  std::string csv = "Op Name,OP Type,Task Type,Stream ID,Task Start Time(us),"
                    "Task Duration(us),Task Wait Time(us),Block Dim,"
                    "Host Time(us),Host Wall Time(us)\n";
  for (const TaskRecord &r : timeline.records) {
    // msprof's op_summary lists compute and event tasks, not copies.
    std::string type = taskType(r);
    if (type == "MEMCPY" || type == "CALLBACK")
      continue;
    bool isEvent = type == "EVENT";
    std::string name =
        isEvent ? (r.kind == TaskKind::kEventRecord ? "event_record_"
                                                    : "event_wait_") +
                      std::to_string(r.eventId)
                : r.name;
    std::string opType =
        isEvent
            ? (r.kind == TaskKind::kEventRecord ? "EVENT_RECORD" : "EVENT_WAIT")
            : r.opType;
    csv += csvField(name) + "," + csvField(opType) + "," + type + "," +
           std::to_string(r.stream) + "," + fixed3(r.startNs) + "," +
           fixed3(r.endNs - r.startNs) + "," + fixed3(r.waitNs()) + "," +
           std::to_string(isEvent ? 0 : r.blockDim) + "," + fixed3(r.hostNs) +
           "," + fixed3(r.hostWallNs) + "\n";
  }
  return csv;
}

/// The host spans as a process of their own (wall clock, not virtual
/// time: the two clocks are side by side, not aligned).
static void addHostTrack(const Timeline &timeline, json &events) {
  if (timeline.hostSpans.empty())
    return;
  constexpr int kHostPid = 2;
  events.push_back(
      {{"ph", "M"},
       {"name", "process_name"},
       {"pid", kHostPid},
       {"args", {{"name", "host: shape resolution (wall clock)"}}}});
  for (const HostSpan &span : timeline.hostSpans)
    events.push_back(
        {{"ph", "X"},
         {"name", span.name},
         {"cat", "host"},
         {"pid", kHostPid},
         {"tid", 0},
         {"ts", static_cast<double>(span.startNs) / 1000.0},
         {"dur", static_cast<double>(span.endNs - span.startNs) / 1000.0}});
}

std::string traceJson(const Timeline &timeline) {
  json trace = json::parse(rt::chromeTraceJson(timeline.records));
  // Perfetto draws an arrow from a flow's "s" to its "f", each bound to the
  // slice on its track at that time: the record task and the wait task.
  constexpr int kStreamPid = 1; // rt::chromeTraceJson's streams process
  std::map<std::pair<uint32_t, uint64_t>, const TaskRecord *> records;
  for (const TaskRecord &r : timeline.records)
    if (r.kind == TaskKind::kEventRecord)
      records[{r.eventId, r.eventSeq}] = &r;
  uint64_t flowId = 0;
  json &events = trace["traceEvents"];
  for (const TaskRecord &wait : timeline.records) {
    if (wait.kind != TaskKind::kEventWait)
      continue;
    auto it = records.find({wait.eventId, wait.eventSeq});
    if (it == records.end())
      continue;
    const TaskRecord &record = *it->second;
    std::string name = "event " + std::to_string(wait.eventId);
    ++flowId;
    events.push_back({{"ph", "s"},
                      {"id", flowId},
                      {"name", name},
                      {"cat", "event"},
                      {"pid", kStreamPid},
                      {"tid", record.stream},
                      {"ts", static_cast<double>(record.startNs) / 1000.0}});
    events.push_back({{"ph", "f"},
                      {"bp", "e"},
                      {"id", flowId},
                      {"name", name},
                      {"cat", "event"},
                      {"pid", kStreamPid},
                      {"tid", wait.stream},
                      {"ts", static_cast<double>(wait.startNs) / 1000.0}});
  }
  addHostTrack(timeline, events);
  return trace.dump();
}

rt::Status writeProfile(const std::string &dir, const Timeline &timeline,
                        const json &summary, om::OutputFiles *staging) {
  om::OutputFiles own;
  om::OutputFiles &files = staging ? *staging : own;
  auto prefixed = [](const rt::Status &s) {
    return fileError("profile: " + s.message());
  };
  if (rt::Status s = files.createFolder(dir); !s.isOk())
    return prefixed(s);
  std::filesystem::path root(dir);
  std::pair<const char *, std::string> texts[] = {
      {"trace.json", traceJson(timeline)},
      {"op_summary.csv", opSummaryCsv(timeline)},
      {"timeline.html", timelineHtml(timeline, summary)},
      // Last: its presence says the folder is complete.
      {"summary.json", summary.dump(2) + "\n"}};
  for (const auto &[name, text] : texts)
    if (rt::Status s = files.stage((root / name).string(), {text}); !s.isOk())
      return prefixed(s);
  if (staging)
    return rt::Status::ok();
  rt::Status committed = own.commit();
  return committed.isOk() ? committed : prefixed(committed);
}

rt::Status readSummary(const std::string &dir, json *summary) {
  auto notFound = [](const std::string &message) {
    return rt::makeStatus(rt::StatusCode::kNotFound, message);
  };
  if (!std::filesystem::is_directory(dir))
    return notFound("profile: '" + dir + "' is not a folder");
  std::filesystem::path path = std::filesystem::path(dir) / "summary.json";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return notFound("profile: '" + path.string() +
                    "' is missing; write it with geflow run --profile " + dir);
  std::stringstream text;
  text << in.rdbuf();
  *summary = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (summary->is_discarded())
    return fileError("profile: '" + path.string() + "' is not valid JSON");
  const json &s = *summary;
  if (!s.is_object() || s.value("format", "") != kSummaryFormat ||
      !s.contains("makespan_us") || !s["makespan_us"].is_number() ||
      !s.contains("streams") || !s["streams"].is_array() ||
      !s.contains("stream_pairs") || !s["stream_pairs"].is_array())
    return fileError("profile: '" + path.string() +
                     "' is not a geflow profile summary (format " +
                     kSummaryFormat + ")");
  return rt::Status::ok();
}

} // namespace geflow::profile
