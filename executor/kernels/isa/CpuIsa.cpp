//===- CpuIsa.cpp - the run-time choice of instruction set ----------------===//

#include "executor/kernels/isa/CpuIsa.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace geflow::kernels::cpu {
namespace {

Isa probe() {
#if GEFLOW_HAVE_X86_KERNELS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("fma"))
    return Isa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return Isa::kAvx2;
#endif
  return Isa::kBaseline;
}

Isa initialIsa() {
  Isa best = detectedIsa();
  Isa wanted = best;
  if (const char *forced = std::getenv("GEFLOW_ISA")) {
    if (!parseIsa(forced, &wanted)) {
      std::fprintf(stderr,
                   "warning: GEFLOW_ISA='%s' is not baseline, avx2 or avx512; "
                   "using %s\n",
                   forced, isaName(best));
      wanted = best;
    }
  }
  return wanted < best ? wanted : best;
}

// Relaxed: which body runs is not ordered with anything, and every body
// computes the same result within the kernels' tolerance.
std::atomic<Isa> &active() {
  static std::atomic<Isa> level{initialIsa()};
  return level;
}

} // namespace

Isa detectedIsa() {
  static const Isa best = probe();
  return best;
}

Isa activeIsa() { return active().load(std::memory_order_relaxed); }

bool setActiveIsa(Isa isa) {
  if (isa > detectedIsa())
    return false;
  active().store(isa, std::memory_order_relaxed);
  return true;
}

bool hasAvx512Vnni() {
#if GEFLOW_HAVE_X86_KERNELS
  static const bool vnni = __builtin_cpu_supports("avx512vnni");
  return vnni && activeIsa() == Isa::kAvx512;
#else
  return false;
#endif
}

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::kAvx512:
    return "avx512";
  case Isa::kAvx2:
    return "avx2+fma";
  case Isa::kBaseline:
    break;
  }
  return "baseline";
}

bool parseIsa(const char *text, Isa *isa) {
  if (std::strcmp(text, "baseline") == 0 || std::strcmp(text, "sse") == 0)
    *isa = Isa::kBaseline;
  else if (std::strcmp(text, "avx2") == 0)
    *isa = Isa::kAvx2;
  else if (std::strcmp(text, "avx512") == 0)
    *isa = Isa::kAvx512;
  else
    return false;
  return true;
}

const char *cpuModelName() {
  static const std::string name = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("model name", 0) != 0)
        continue;
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return line.substr(line.find_first_not_of(" \t", colon + 1));
    }
    return std::string("unknown");
  }();
  return name.c_str();
}

} // namespace geflow::kernels::cpu
