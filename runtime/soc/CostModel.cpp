//===- CostModel.cpp ------------------------------------------------------===//
#include "runtime/soc/CostModel.h"

#include <algorithm>
#include <cmath>

namespace geflow::rt {

const char *engineName(Engine e) {
  switch (e) {
  case Engine::kAic:
    return "AIC";
  case Engine::kAiv:
    return "AIV";
  case Engine::kMix:
    return "MIX";
  case Engine::kAiCpu:
    return "AICPU";
  case Engine::kDvpp:
    return "DVPP";
  }
  return "?";
}

const char *coreGroupName(CoreGroup g) {
  switch (g) {
  case CoreGroup::kCube:
    return "cube";
  case CoreGroup::kVector:
    return "vector";
  case CoreGroup::kAiCpu:
    return "aicpu";
  case CoreGroup::kDvpp:
    return "dvpp";
  }
  return "?";
}

const char *memcpyKindName(MemcpyKind k) {
  switch (k) {
  case MemcpyKind::kHostToHost:
    return "H2H";
  case MemcpyKind::kHostToDevice:
    return "H2D";
  case MemcpyKind::kDeviceToHost:
    return "D2H";
  case MemcpyKind::kDeviceToDevice:
    return "D2D";
  }
  return "?";
}

VirtualNs toVirtualNs(double ns) {
  if (!(ns > 0))
    return 0;
  // 2^63 is exactly representable; every double below it fits after rounding.
  if (ns >= 9223372036854775808.0)
    return kMaxVirtualNs;
  return std::llround(ns);
}

CostModel::CostModel(const SocSpec &spec) : spec_(spec) {
  mixRatio_ = std::max<uint32_t>(1, spec.vectorCoreCnt / spec.cubeCoreCnt);
  launchNs_ = toVirtualNs(spec.launchLatencyUs * 1000.0);
  eventNs_ = toVirtualNs(spec.eventLatencyUs * 1000.0);
}

uint32_t CostModel::groupSize(CoreGroup g) const {
  switch (g) {
  case CoreGroup::kCube:
    return spec_.cubeCoreCnt;
  case CoreGroup::kVector:
    return spec_.vectorCoreCnt;
  case CoreGroup::kAiCpu:
    return spec_.aiCpuCnt;
  case CoreGroup::kDvpp:
    return spec_.dvppCoreCnt;
  }
  return 0;
}

uint32_t CostModel::engineCores(Engine e) const {
  switch (e) {
  case Engine::kAic:
    return spec_.cubeCoreCnt;
  case Engine::kAiv:
    return spec_.vectorCoreCnt;
  case Engine::kMix:
    return std::min(spec_.cubeCoreCnt, spec_.vectorCoreCnt / mixRatio_);
  case Engine::kAiCpu:
    return spec_.aiCpuCnt;
  case Engine::kDvpp:
    return spec_.dvppCoreCnt;
  }
  return 0;
}

double CostModel::flopsPerNsPerCore(Engine e) const {
  double ghz = spec_.clockMhz / 1000.0;
  switch (e) {
  case Engine::kAic:
    return spec_.cubeFlopsPerCycle * ghz;
  case Engine::kAiv:
    return spec_.vectorFlopsPerCycle * ghz;
  // A MIX block has its cube core and its vector cores working together.
  case Engine::kMix:
    return (spec_.cubeFlopsPerCycle + mixRatio_ * spec_.vectorFlopsPerCycle) *
           ghz;
  case Engine::kAiCpu:
    return spec_.aiCpuFlopsPerCycle * ghz;
  case Engine::kDvpp:
    return spec_.dvppFlopsPerCycle * ghz;
  }
  return 1;
}

VirtualNs CostModel::blockTimeNs(Engine e, const KernelCost &cost,
                                 uint32_t blockDim) const {
  blockDim = std::max<uint32_t>(1, blockDim);
  double flopRate = flopsPerNsPerCore(e);
  double computeNs = flopRate > 0 ? cost.flops / blockDim / flopRate : 0;
  // GB/s is bytes per ns; each core of the engine gets an equal share.
  double perCoreBw =
      spec_.hbmBandwidthGBps / std::max<uint32_t>(1, engineCores(e));
  double memNs = cost.bytes / blockDim / perCoreBw;
  return toVirtualNs(std::max(computeNs, memNs));
}

VirtualNs CostModel::kernelTimeNs(Engine e, const KernelCost &cost,
                                  uint32_t blockDim, uint32_t cores) const {
  blockDim = std::max<uint32_t>(1, blockDim);
  cores = std::clamp<uint32_t>(cores, 1, blockDim);
  uint64_t waves = blockDim / cores + (blockDim % cores != 0);
  return addNs(launchNs_, mulNs(blockTimeNs(e, cost, blockDim), waves));
}

VirtualNs CostModel::memcpyTimeNs(MemcpyKind kind, uint64_t bytes) const {
  double bw = kind == MemcpyKind::kDeviceToDevice
                  ? spec_.hbmBandwidthGBps / 2 // read and write the same HBM
                  : spec_.hostLinkBandwidthGBps;
  return addNs(launchNs_, toVirtualNs(static_cast<double>(bytes) / bw));
}

uint32_t CostModel::bestBlockDim(Engine e, const KernelCost &cost,
                                 uint32_t maxCores) const {
  maxCores =
      std::clamp<uint32_t>(maxCores, 1, std::max<uint32_t>(1, engineCores(e)));
  uint32_t best = 1;
  VirtualNs bestNs = kernelTimeNs(e, cost, 1, 1);
  for (uint32_t b = 2; b <= maxCores; ++b) {
    VirtualNs ns = kernelTimeNs(e, cost, b, b);
    if (ns < bestNs) {
      bestNs = ns;
      best = b;
    }
  }
  return best;
}

} // namespace geflow::rt
