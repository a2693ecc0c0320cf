//===- ProfileReport.cpp - The printed report of a summary ----------------===//
//
// Reads only the summary, so `geflow run --profile` and `geflow profile DIR`
// print the same text. Fields are read defensively: the file may have been
// edited by hand, and a missing field prints as 0 rather than failing.
//
//===----------------------------------------------------------------------===//
#include "tools/geflow/profile/Profile.h"

#include <cstdio>

namespace geflow::profile {
namespace {

using nlohmann::json;

double number(const json &j, const char *key) {
  return j.is_object() && j.contains(key) && j[key].is_number()
             ? j[key].get<double>()
             : 0.0;
}

std::string text(const json &j, const char *key) {
  return j.is_object() && j.contains(key) && j[key].is_string()
             ? j[key].get<std::string>()
             : std::string();
}

const json &array(const json &j, const char *key) {
  static const json empty = json::array();
  return j.is_object() && j.contains(key) && j[key].is_array() ? j[key] : empty;
}

template <typename... Args>
std::string format(const char *pattern, Args... args) {
  std::string line(std::snprintf(nullptr, 0, pattern, args...), '\0');
  std::snprintf(line.data(), line.size() + 1, pattern, args...);
  return line;
}

std::string pairName(const json &pair) {
  const json &ids = array(pair, "streams");
  if (ids.size() != 2 || !ids[0].is_number() || !ids[1].is_number())
    return "?";
  return std::to_string(ids[0].get<int64_t>()) + "-" +
         std::to_string(ids[1].get<int64_t>());
}

} // namespace

std::string formatReport(const json &summary) {
  const json &streams = array(summary, "streams");
  std::string report =
      format("profile of %s on %s: %zu stream(s), makespan %.3f us\n",
             text(summary, "model").c_str(), text(summary, "soc").c_str(),
             streams.size(), number(summary, "makespan_us"));
  if (summary.contains("efficiency"))
    report +=
        format("  efficiency         %.2f (kernels span %.3f us, lower "
               "bound %.3f us)\n",
               number(summary, "efficiency"), number(summary, "kernel_span_us"),
               number(summary, "lower_bound_us"));
  if (!text(summary, "host_isa").empty())
    report +=
        format("  host isa           %s\n", text(summary, "host_isa").c_str());

  report += "  streams            busy (us)   busy   kernels\n";
  for (const json &s : streams)
    report += format("    stream %-8lld %12.3f %5.1f%% %9lld\n",
                     static_cast<long long>(number(s, "stream_id")),
                     number(s, "busy_us"), 100 * number(s, "busy_fraction"),
                     static_cast<long long>(number(s, "kernels")));

  report += "  core groups        cores   busy (us)   utilisation\n";
  for (const json &g : array(summary, "core_groups"))
    report +=
        format("    %-14s %7lld %11.3f %12.1f%%\n", text(g, "group").c_str(),
               static_cast<long long>(number(g, "cores")), number(g, "busy_us"),
               100 * number(g, "utilisation"));

  const json &pairs = array(summary, "stream_pairs");
  if (pairs.empty())
    report += "  stream pairs: none (one stream)\n";
  else
    report += "  stream pairs       both busy (us)  overlap_pct  verdict\n";
  for (const json &p : pairs)
    report += format("    %-14s %14.3f %12.2f  %s\n", pairName(p).c_str(),
                     number(p, "both_busy_us"), number(p, "overlap_pct"),
                     text(p, "verdict").c_str());

  const json &gaps = array(summary, "idle_gaps");
  report += format("  idle gaps longer than %.3f us: %zu\n",
                   number(summary, "gap_threshold_us"), gaps.size());
  for (const json &g : gaps)
    report += format("    stream %lld idle %.3f us (%.3f..%.3f) before '%s': "
                     "waiting for %s\n",
                     static_cast<long long>(number(g, "stream_id")),
                     number(g, "duration_us"), number(g, "start_us"),
                     number(g, "end_us"), text(g, "before_op").c_str(),
                     text(g, "waiting_for").c_str());
  if (summary.contains("host_kernel_us")) {
    // The op types that hold most of the host time; the rest in one line.
    constexpr size_t kShown = 8;
    const json &types = array(summary, "host_by_op_type");
    report += format("  host kernel time   %.3f us (CPU time summed over host "
                     "threads)\n",
                     number(summary, "host_kernel_us"));
    double restUs = 0;
    size_t restKernels = 0;
    for (size_t i = 0; i < types.size(); ++i) {
      const json &row = types[i];
      if (i < kShown)
        report += format("    %-22s %12.3f us %5.1f%% %6lld kernels\n",
                         text(row, "op_type").c_str(), number(row, "host_us"),
                         100 * number(row, "share"),
                         static_cast<long long>(number(row, "kernels")));
      else {
        restUs += number(row, "host_us");
        restKernels += static_cast<size_t>(number(row, "kernels"));
      }
    }
    if (types.size() > kShown)
      report += format("    %-22s %12.3f us %13zu kernels\n", "(other types)",
                       restUs, restKernels);
  }
  if (summary.contains("host_shape_work_us"))
    report += format("  host shape work    %.3f us (wall clock, between the "
                     "stages)\n",
                     number(summary, "host_shape_work_us"));
  return report;
}

} // namespace geflow::profile
