//===- IsaTestUtil.h - a test body under each ISA the machine has -*- C++ -*-//
//
// Kernels pick per-ISA bodies at run time (cpu::activeIsa()); a test that
// loops over machineIsas() checks the baseline, AVX2 and AVX-512 paths on
// one AVX-512 machine. IsaScope restores the level the test began with.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_KERNELS_ISATESTUTIL_H
#define GEFLOW_TESTS_UNIT_KERNELS_ISATESTUTIL_H

#include "executor/kernels/isa/CpuIsa.h"

#include <string>
#include <vector>

namespace geflow::kernels::test {

/// Every level this CPU and build run, lowest first (baseline always).
inline std::vector<cpu::Isa> machineIsas() {
  std::vector<cpu::Isa> isas;
  for (cpu::Isa isa : {cpu::Isa::kBaseline, cpu::Isa::kAvx2, cpu::Isa::kAvx512})
    if (isa <= cpu::detectedIsa())
      isas.push_back(isa);
  return isas;
}

/// Sets `isa` for its lifetime, then restores the level it found.
class IsaScope {
public:
  explicit IsaScope(cpu::Isa isa) : initial_(cpu::activeIsa()) {
    cpu::setActiveIsa(isa);
  }
  ~IsaScope() { cpu::setActiveIsa(initial_); }
  IsaScope(const IsaScope &) = delete;
  IsaScope &operator=(const IsaScope &) = delete;

  std::string name() const { return cpu::isaName(cpu::activeIsa()); }

private:
  cpu::Isa initial_;
};

} // namespace geflow::kernels::test

#endif // GEFLOW_TESTS_UNIT_KERNELS_ISATESTUTIL_H
