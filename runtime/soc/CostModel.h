//===- CostModel.h - FLOPs and bytes to virtual time ----------------------===//
//
// The one place that turns a kernel's cost into simulated time. The scheduler
// prices every task with it, and the compiler's passes use it to choose
// block_dim and to decide whether an extra stream pays off, so both sides agree
// by construction.
//
// A kernel of `blockDim` blocks on `cores` granted cores runs in
// ceil(blockDim / cores) waves. A block is a roofline: the longer of its
// compute time (its FLOPs at one core's peak) and its memory time (its bytes
// at one core's share of HBM bandwidth, the chip's bandwidth split evenly over
// the engine's cores). Every task also pays the spec's launch latency.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SOC_COSTMODEL_H
#define GEFLOW_RUNTIME_SOC_COSTMODEL_H

#include "runtime/soc/SocSpec.h"

#include <cstdint>
#include <limits>

namespace geflow::rt {

/// Virtual time, in nanoseconds since the device was created.
using VirtualNs = int64_t;

/// Virtual time saturates here instead of overflowing: a legal spec and a
/// legal cost can price a task beyond any real program (1e30 FLOPs on a slow
/// chip), and the timeline must stay ordered and defined, not wrap around.
inline constexpr VirtualNs kMaxVirtualNs =
    std::numeric_limits<VirtualNs>::max();
/// Rounds a duration to whole nanoseconds: NaN and negatives are 0, anything
/// past kMaxVirtualNs is kMaxVirtualNs.
VirtualNs toVirtualNs(double ns);
/// a + b for durations and times (both >= 0), saturating.
inline VirtualNs addNs(VirtualNs a, VirtualNs b) {
  VirtualNs sum;
  return __builtin_add_overflow(a, b, &sum) ? kMaxVirtualNs : sum;
}
/// a * n for a duration a >= 0, saturating.
inline VirtualNs mulNs(VirtualNs a, uint64_t n) {
  VirtualNs product;
  return __builtin_mul_overflow(a, n, &product) ? kMaxVirtualNs : product;
}

/// The execution units a kernel can target, GE's names.
enum class Engine : uint8_t {
  kAic = 0, // cube cores (AI Core)
  kAiv,     // vector cores
  kMix,     // a cube core plus its vector cores, as one block
  kAiCpu,
  kDvpp,
};
inline constexpr int kNumEngines = 5;
const char *engineName(Engine e); // "AIC", "AIV", ...

/// The physical core groups the engines draw from.
enum class CoreGroup : uint8_t { kCube = 0, kVector, kAiCpu, kDvpp };
inline constexpr int kNumCoreGroups = 4;
const char *coreGroupName(CoreGroup g); // "cube", "vector", ...

enum class MemcpyKind : uint8_t {
  kHostToHost = 0,
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,
};
const char *memcpyKindName(MemcpyKind k); // "H2D", ...

struct KernelCost {
  double flops = 0; // whole kernel, all blocks
  double bytes = 0; // HBM traffic of the whole kernel
};

class CostModel {
public:
  explicit CostModel(const SocSpec &spec);

  const SocSpec &spec() const { return spec_; }

  /// Cores of `g` on the chip.
  uint32_t groupSize(CoreGroup g) const;
  /// How many cores an engine can use for one kernel: for MIX, the number of
  /// cube cores (each taking mixVectorRatio() vector cores along).
  uint32_t engineCores(Engine e) const;
  /// Vector cores that accompany one cube core in a MIX block.
  uint32_t mixVectorRatio() const { return mixRatio_; }

  /// Time of one block of a kernel split into `blockDim` blocks.
  VirtualNs blockTimeNs(Engine e, const KernelCost &cost,
                        uint32_t blockDim) const;
  /// Time of the whole kernel on `cores` cores, waves and launch latency
  /// included. `cores` is clamped to [1, blockDim].
  VirtualNs kernelTimeNs(Engine e, const KernelCost &cost, uint32_t blockDim,
                         uint32_t cores) const;
  /// A copy of `bytes`: host links for H2D/D2H/H2H, HBM read+write for D2D.
  VirtualNs memcpyTimeNs(MemcpyKind kind, uint64_t bytes) const;
  /// The block_dim in [1, maxCores] that minimises kernelTimeNs when the kernel
  /// gets every core it asks for; the smallest such value on ties.
  uint32_t bestBlockDim(Engine e, const KernelCost &cost,
                        uint32_t maxCores) const;

  VirtualNs launchLatencyNs() const { return launchNs_; }
  VirtualNs eventLatencyNs() const { return eventNs_; }

private:
  double flopsPerNsPerCore(Engine e) const;

  SocSpec spec_;
  uint32_t mixRatio_ = 1;
  VirtualNs launchNs_ = 0;
  VirtualNs eventNs_ = 0;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SOC_COSTMODEL_H
