//===- SocSpecFuzzer.cpp - bytes -> SoC INI reader -> cost model
//------------===//
//
// The bytes are a SoC spec file (runtime/soc/presets/*.ini is the format). A
// spec the reader accepts must be one the cost model can price kernels and
// copies with: every figure a finite, representable virtual time.
//
//===----------------------------------------------------------------------===//

#include "runtime/soc/CostModel.h"
#include "runtime/soc/SocSpec.h"

#include <cstdint>
#include <string>

using namespace geflow::rt;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  SocSpec spec;
  if (!parseSocSpec(text, "fuzz.ini", spec).isOk())
    return 0;
  CostModel cost(spec);
  const KernelCost kernels[] = {{0, 0}, {1, 1}, {2e9, 4e6}, {1e18, 1e15}};
  for (int e = 0; e < kNumEngines; ++e) {
    Engine engine = static_cast<Engine>(e);
    uint32_t cores = cost.engineCores(engine);
    if (cores == 0)
      continue;
    for (const KernelCost &k : kernels) {
      (void)cost.kernelTimeNs(engine, k, 1, 1);
      (void)cost.kernelTimeNs(engine, k, 4 * cores + 1, cores);
      (void)cost.bestBlockDim(engine, k, cores);
    }
  }
  for (uint64_t bytes : {uint64_t(0), uint64_t(1) << 20, uint64_t(1) << 40})
    for (int kind = 0; kind < 4; ++kind)
      (void)cost.memcpyTimeNs(static_cast<MemcpyKind>(kind), bytes);
  return 0;
}
