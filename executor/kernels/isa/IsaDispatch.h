//===- IsaDispatch.h - how a kernel picks its per-ISA body ------*- C++ -*-===//
//
// The one way a kernel with per-ISA bodies picks one: each body lives in a
// namespace named after its level (ns::baseline, ns::avx2, ns::avx512, and
// ns::avx512vnni for the int8 dot products), built with that level's flags
// (isa/CMakeLists.txt), and the kernel calls GEFLOW_PICK_BODY(ns, fn) once
// per call, outside its loops. The choice is made on every call (one load),
// so tests that switch the level with cpu::setActiveIsa see each body.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_ISADISPATCH_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_ISADISPATCH_H

#include "executor/kernels/isa/CpuIsa.h"

namespace geflow::kernels::cpu {

/// Of a kernel's three bodies (or any three values), the one for the
/// active level.
template <class T> T pickBody(T baseline, T avx2, T avx512) {
  const Isa isa = activeIsa();
  return isa >= Isa::kAvx512 ? avx512 : isa >= Isa::kAvx2 ? avx2 : baseline;
}

/// The same with a fourth body for CPUs with AVX-512 VNNI.
template <class T> T pickBody(T baseline, T avx2, T avx512, T avx512vnni) {
  return hasAvx512Vnni() ? avx512vnni : pickBody(baseline, avx2, avx512);
}

} // namespace geflow::kernels::cpu

/// pickBody over the namespaces baseline, avx2 and avx512 of `ns`, where a
/// build for another architecture has only the baseline.
#if GEFLOW_HAVE_X86_KERNELS
#define GEFLOW_PICK_BODY(ns, fn)                                               \
  ::geflow::kernels::cpu::pickBody(&ns::baseline::fn, &ns::avx2::fn,           \
                                   &ns::avx512::fn)
#define GEFLOW_PICK_BODY_VNNI(ns, fn)                                          \
  ::geflow::kernels::cpu::pickBody(&ns::baseline::fn, &ns::avx2::fn,           \
                                   &ns::avx512::fn, &ns::avx512vnni::fn)
#else
#define GEFLOW_PICK_BODY(ns, fn) (&ns::baseline::fn)
#define GEFLOW_PICK_BODY_VNNI(ns, fn) (&ns::baseline::fn)
#endif

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_ISADISPATCH_H
