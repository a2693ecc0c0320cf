//===- SocSpec.h - A simulated chip, as CANN's platform config describes it
//===//
//
// CANN describes a chip in an INI file (`[SoCInfo] ai_core_cnt=...`). geflow
// reads the same shape plus a `[Sim]` section with the figures the simulator
// needs. The numbers in the shipped presets are illustrative, not measured.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SOC_SOCSPEC_H
#define GEFLOW_RUNTIME_SOC_SOCSPEC_H

#include "runtime/support/Status.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace geflow::rt {

struct SocSpec {
  // Where the spec came from ("ascend910b-sim", or a file path): errors cite
  // it.
  std::string source;

  // [SoCInfo]
  std::string socVersion;     // soc_version
  uint32_t aiCoreCnt = 0;     // ai_core_cnt: AI cores; equals cube_core_cnt
  uint32_t cubeCoreCnt = 0;   // cube_core_cnt: AIC
  uint32_t vectorCoreCnt = 0; // vector_core_cnt: AIV
  uint32_t aiCpuCnt = 0;      // ai_cpu_cnt: AICPU (0 = engine absent)

  // [Sim]
  double clockMhz = 0;              // clock_mhz
  double cubeFlopsPerCycle = 0;     // cube_flops_per_cycle, per cube core
  double vectorFlopsPerCycle = 0;   // vector_flops_per_cycle, per vector core
  double aiCpuFlopsPerCycle = 0;    // aicpu_flops_per_cycle, per AICPU core
  uint32_t dvppCoreCnt = 0;         // dvpp_core_cnt (0 = engine absent)
  double dvppFlopsPerCycle = 0;     // dvpp_flops_per_cycle, per DVPP core
  double hbmBandwidthGBps = 0;      // hbm_bandwidth_gbps, whole chip
  double hostLinkBandwidthGBps = 0; // host_link_bandwidth_gbps (PCIe)
  double launchLatencyUs = 0;       // launch_latency_us, per task
  double eventLatencyUs = 0;        // event_latency_us, record -> wait wake-up

  /// Every other [SoCInfo] key, kept so a CANN config can be read as is.
  std::map<std::string, std::string> extraSocInfo;
};

/// Parses INI text. `source` names the file or preset in error messages. An
/// unknown key in [Sim], a missing required key, a value that is not a number
/// or an inconsistent pair (ai_core_cnt != cube_core_cnt) is an error that
/// names the key.
Status parseSocSpec(const std::string &text, const std::string &source,
                    SocSpec &out);

/// Reads and parses a spec file.
Status loadSocSpecFile(const std::string &path, SocSpec &out);

/// Checks the invariants parseSocSpec checks; for specs built in code.
Status validateSocSpec(const SocSpec &spec);

/// Names of the presets embedded in the library, sorted.
std::vector<std::string> socPresetNames();

/// Looks up an embedded preset by name ("ascend910b-sim"); a name that is not
/// a preset but is a readable file path is loaded as a file.
Status loadSocSpec(const std::string &nameOrPath, SocSpec &out);

/// The preset a Device uses when none is given.
inline constexpr const char *kDefaultSocPreset = "ascend910b-sim";

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SOC_SOCSPEC_H
