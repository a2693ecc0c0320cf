//===- CpuIsa.h - the instruction set the host kernels run on ---*- C++ -*-===//
//
// The build must not assume the CPU it runs on (no -march=native: CI and
// users' machines differ), so each hot kernel has one body per instruction
// set, each compiled with its own flags, and picks one at run time from
// what the CPU has. One setting serves them all: the best level this CPU
// and build run, capped by GEFLOW_ISA=baseline|avx2|avx512 in the
// environment (to measure a lower path on a better machine) and, in tests,
// by setActiveIsa.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_CPUISA_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_CPUISA_H

namespace geflow::kernels::cpu {

/// Levels in increasing order: each implies the ones before it.
enum class Isa {
  kBaseline, // the build's own target (SSE2 on x86-64)
  kAvx2,     // AVX2 + FMA
  kAvx512,   // AVX-512 F, BW, VL and DQ
};

/// The best level this CPU and build run, GEFLOW_ISA not applied.
Isa detectedIsa();
/// The level kernels use now.
Isa activeIsa();
/// Makes the kernels use `isa` from now on (tests compare the bodies);
/// false, and no change, when this CPU or build does not run it.
bool setActiveIsa(Isa isa);
/// True when the CPU has AVX-512 VNNI (vpdpbusd, vpdpwssd) and the active
/// level is kAvx512: the int8 kernels' dot-product instructions.
bool hasAvx512Vnni();

/// "baseline", "avx2+fma" or "avx512".
const char *isaName(Isa isa);
/// The level GEFLOW_ISA names, for messages; false for anything else.
bool parseIsa(const char *text, Isa *isa);
/// The CPU's model name (from /proc/cpuinfo; "unknown" elsewhere).
const char *cpuModelName();

} // namespace geflow::kernels::cpu

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_CPUISA_H
