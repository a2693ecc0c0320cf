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
#ifndef GEFLOW_EXECUTOR_KERNELS_CPUISA_H
#define GEFLOW_EXECUTOR_KERNELS_CPUISA_H

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
/// True when the active level is at least `isa`.
inline bool atLeast(Isa isa) { return activeIsa() >= isa; }
/// Makes the kernels use `isa` from now on (tests compare the bodies);
/// false, and no change, when this CPU or build does not run it.
bool setActiveIsa(Isa isa);
/// True when the CPU has AVX-512 VNNI (vpdpbusd, vpdpwssd) and the active
/// level is kAvx512: the int8 kernels' dot-product instructions.
bool hasAvx512Vnni();

/// Of a kernel's three bodies, the one the active level runs.
template <class Fn> Fn pickBody(Fn baseline, Fn avx2, Fn avx512) {
  const Isa isa = activeIsa();
  return isa >= Isa::kAvx512 ? avx512 : isa >= Isa::kAvx2 ? avx2 : baseline;
}

/// pickBody over the namespaces baseline, avx2 and avx512 of `ns`, where a
/// build for another architecture has only the baseline.
#if GEFLOW_HAVE_X86_KERNELS
#define GEFLOW_PICK_BODY(ns, fn)                                               \
  ::geflow::kernels::cpu::pickBody(&ns::baseline::fn, &ns::avx2::fn,           \
                                   &ns::avx512::fn)
#else
#define GEFLOW_PICK_BODY(ns, fn) (&ns::baseline::fn)
#endif

/// "baseline", "avx2+fma" or "avx512".
const char *isaName(Isa isa);
/// The level GEFLOW_ISA names, for messages; false for anything else.
bool parseIsa(const char *text, Isa *isa);
/// The CPU's model name (from /proc/cpuinfo; "unknown" elsewhere).
const char *cpuModelName();

} // namespace geflow::kernels::cpu

#endif // GEFLOW_EXECUTOR_KERNELS_CPUISA_H
