//===- SocSpec.cpp - INI parsing and validation of SoC specs --------------===//
#include "runtime/soc/SocSpec.h"

#include "runtime/soc/Presets.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace geflow::rt {
namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

Status specError(const std::string &source, const std::string &msg) {
  return makeStatus(StatusCode::kInvalidSpec,
                    "soc spec '" + source + "': " + msg);
}

// One INI file as section -> key -> (value, line).
struct IniValue {
  std::string value;
  int line = 0;
};
using IniSection = std::map<std::string, IniValue>;

Status parseIni(const std::string &text, const std::string &source,
                std::map<std::string, IniSection> &out) {
  std::istringstream in(text);
  std::string raw, section;
  int lineNo = 0;
  while (std::getline(in, raw)) {
    ++lineNo;
    std::string line = trim(raw);
    if (line.empty() || line[0] == ';' || line[0] == '#')
      continue;
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3)
        return specError(source, "line " + std::to_string(lineNo) +
                                     ": malformed section header '" + line +
                                     "'");
      section = trim(line.substr(1, line.size() - 2));
      out[section];
      continue;
    }
    size_t eq = line.find('=');
    if (eq == std::string::npos)
      return specError(source, "line " + std::to_string(lineNo) +
                                   ": expected 'key=value', got '" + line +
                                   "'");
    std::string key = trim(line.substr(0, eq));
    if (key.empty())
      return specError(source,
                       "line " + std::to_string(lineNo) + ": empty key");
    if (section.empty())
      return specError(source, "line " + std::to_string(lineNo) + ": key '" +
                                   key + "' outside any [section]");
    IniSection &sec = out[section];
    if (sec.count(key))
      return specError(source, "[" + section + "] " + key + " (line " +
                                   std::to_string(lineNo) + ") is set twice");
    sec[key] = IniValue{trim(line.substr(eq + 1)), lineNo};
  }
  return Status::ok();
}

// Reads a number that must be present, finite and within [lo, hi].
Status readNumber(const std::string &source, const IniSection &sec,
                  const std::string &secName, const std::string &key,
                  bool required, double lo, double hi, double &out) {
  auto it = sec.find(key);
  if (it == sec.end()) {
    if (required)
      return specError(source, "[" + secName + "] " + key + " is missing");
    return Status::ok();
  }
  const std::string &v = it->second.value;
  char *end = nullptr;
  errno = 0;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || errno != 0 || end != v.c_str() + v.size() ||
      !std::isfinite(d))
    return specError(source, "[" + secName + "] " + key + " = '" + v +
                                 "' (line " + std::to_string(it->second.line) +
                                 ") is not a number");
  if (d < lo || d > hi) {
    std::ostringstream os;
    os << "[" << secName << "] " << key << " = " << v << " (line "
       << it->second.line << ") is outside [" << lo << ", " << hi << "]";
    return specError(source, os.str());
  }
  out = d;
  return Status::ok();
}

Status readCount(const std::string &source, const IniSection &sec,
                 const std::string &secName, const std::string &key,
                 bool required, uint32_t lo, uint32_t &out) {
  double d = out;
  GEFLOW_RT_RETURN_IF_ERROR(
      readNumber(source, sec, secName, key, required, lo, 4096, d));
  if (d != std::floor(d))
    return specError(source, "[" + secName + "] " + key + " = " +
                                 sec.at(key).value + " is not an integer");
  out = static_cast<uint32_t>(d);
  return Status::ok();
}

} // namespace

Status validateSocSpec(const SocSpec &s) {
  const std::string &src = s.source;
  if (s.cubeCoreCnt == 0)
    return specError(src, "[SoCInfo] cube_core_cnt must be at least 1");
  if (s.vectorCoreCnt == 0)
    return specError(src, "[SoCInfo] vector_core_cnt must be at least 1");
  if (s.aiCoreCnt != s.cubeCoreCnt)
    return specError(
        src, "[SoCInfo] ai_core_cnt = " + std::to_string(s.aiCoreCnt) +
                 " but cube_core_cnt = " + std::to_string(s.cubeCoreCnt) +
                 "; an AI core is one cube core, they must match");
  auto positive = [&](double v, const char *key) -> Status {
    if (!(v > 0))
      return specError(src, std::string("[Sim] ") + key + " must be > 0");
    return Status::ok();
  };
  GEFLOW_RT_RETURN_IF_ERROR(positive(s.clockMhz, "clock_mhz"));
  GEFLOW_RT_RETURN_IF_ERROR(
      positive(s.cubeFlopsPerCycle, "cube_flops_per_cycle"));
  GEFLOW_RT_RETURN_IF_ERROR(
      positive(s.vectorFlopsPerCycle, "vector_flops_per_cycle"));
  GEFLOW_RT_RETURN_IF_ERROR(positive(s.hbmBandwidthGBps, "hbm_bandwidth_gbps"));
  GEFLOW_RT_RETURN_IF_ERROR(
      positive(s.hostLinkBandwidthGBps, "host_link_bandwidth_gbps"));
  if (s.aiCpuCnt > 0)
    GEFLOW_RT_RETURN_IF_ERROR(
        positive(s.aiCpuFlopsPerCycle, "aicpu_flops_per_cycle"));
  if (s.dvppCoreCnt > 0)
    GEFLOW_RT_RETURN_IF_ERROR(
        positive(s.dvppFlopsPerCycle, "dvpp_flops_per_cycle"));
  if (s.launchLatencyUs < 0)
    return specError(src, "[Sim] launch_latency_us must be >= 0");
  if (s.eventLatencyUs < 0)
    return specError(src, "[Sim] event_latency_us must be >= 0");
  return Status::ok();
}

Status parseSocSpec(const std::string &text, const std::string &source,
                    SocSpec &out) {
  std::map<std::string, IniSection> ini;
  GEFLOW_RT_RETURN_IF_ERROR(parseIni(text, source, ini));
  if (!ini.count("SoCInfo"))
    return specError(source, "section [SoCInfo] is missing");
  if (!ini.count("Sim"))
    return specError(source, "section [Sim] is missing");
  const IniSection &soc = ini["SoCInfo"];
  const IniSection &sim = ini["Sim"];

  SocSpec s;
  s.source = source;
  static const char *kSimKeys[] = {"clock_mhz",
                                   "cube_flops_per_cycle",
                                   "vector_flops_per_cycle",
                                   "aicpu_flops_per_cycle",
                                   "dvpp_core_cnt",
                                   "dvpp_flops_per_cycle",
                                   "hbm_bandwidth_gbps",
                                   "host_link_bandwidth_gbps",
                                   "launch_latency_us",
                                   "event_latency_us"};
  // [Sim] is ours, so a key we do not know is a typo, not a CANN extension.
  for (const auto &[key, value] : sim) {
    if (std::find_if(std::begin(kSimKeys), std::end(kSimKeys),
                     [&](const char *k) { return key == k; }) ==
        std::end(kSimKeys))
      return specError(source, "[Sim] " + key + " (line " +
                                   std::to_string(value.line) +
                                   ") is not a known key");
  }
  static const char *kSocKeys[] = {"soc_version", "ai_core_cnt",
                                   "cube_core_cnt", "vector_core_cnt",
                                   "ai_cpu_cnt"};
  for (const auto &[key, value] : soc)
    if (std::find_if(std::begin(kSocKeys), std::end(kSocKeys),
                     [&](const char *k) { return key == k; }) ==
        std::end(kSocKeys))
      s.extraSocInfo[key] = value.value;

  if (soc.count("soc_version"))
    s.socVersion = soc.at("soc_version").value;
  else
    s.socVersion = source;
  GEFLOW_RT_RETURN_IF_ERROR(
      readCount(source, soc, "SoCInfo", "ai_core_cnt", true, 1, s.aiCoreCnt));
  GEFLOW_RT_RETURN_IF_ERROR(readCount(source, soc, "SoCInfo", "cube_core_cnt",
                                      true, 1, s.cubeCoreCnt));
  GEFLOW_RT_RETURN_IF_ERROR(readCount(source, soc, "SoCInfo", "vector_core_cnt",
                                      true, 1, s.vectorCoreCnt));
  GEFLOW_RT_RETURN_IF_ERROR(
      readCount(source, soc, "SoCInfo", "ai_cpu_cnt", false, 0, s.aiCpuCnt));

  constexpr double kBig = 1e12;
  GEFLOW_RT_RETURN_IF_ERROR(
      readNumber(source, sim, "Sim", "clock_mhz", true, 1, 1e5, s.clockMhz));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim",
                                       "cube_flops_per_cycle", true, 1, kBig,
                                       s.cubeFlopsPerCycle));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim",
                                       "vector_flops_per_cycle", true, 1, kBig,
                                       s.vectorFlopsPerCycle));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim",
                                       "aicpu_flops_per_cycle", false, 0, kBig,
                                       s.aiCpuFlopsPerCycle));
  GEFLOW_RT_RETURN_IF_ERROR(
      readCount(source, sim, "Sim", "dvpp_core_cnt", false, 0, s.dvppCoreCnt));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim",
                                       "dvpp_flops_per_cycle", false, 0, kBig,
                                       s.dvppFlopsPerCycle));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim", "hbm_bandwidth_gbps",
                                       true, 1e-3, kBig, s.hbmBandwidthGBps));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim",
                                       "host_link_bandwidth_gbps", true, 1e-3,
                                       kBig, s.hostLinkBandwidthGBps));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim", "launch_latency_us",
                                       true, 0, 1e6, s.launchLatencyUs));
  GEFLOW_RT_RETURN_IF_ERROR(readNumber(source, sim, "Sim", "event_latency_us",
                                       true, 0, 1e6, s.eventLatencyUs));
  GEFLOW_RT_RETURN_IF_ERROR(validateSocSpec(s));
  out = std::move(s);
  return Status::ok();
}

Status loadSocSpecFile(const std::string &path, SocSpec &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return makeStatus(StatusCode::kNotFound,
                      "soc spec file '" + path + "' cannot be opened");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parseSocSpec(ss.str(), path, out);
}

std::vector<std::string> socPresetNames() {
  std::vector<std::string> names;
  for (const EmbeddedPreset &p : embeddedSocPresets())
    names.push_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

Status loadSocSpec(const std::string &nameOrPath, SocSpec &out) {
  for (const EmbeddedPreset &p : embeddedSocPresets())
    if (nameOrPath == p.name)
      return parseSocSpec(p.text, p.name, out);
  std::ifstream probe(nameOrPath);
  if (probe)
    return loadSocSpecFile(nameOrPath, out);
  std::string known;
  for (const std::string &n : socPresetNames())
    known += (known.empty() ? "" : ", ") + n;
  return makeStatus(StatusCode::kNotFound, "soc spec '" + nameOrPath +
                                               "' is neither a preset (" +
                                               known + ") nor a readable file");
}

} // namespace geflow::rt
