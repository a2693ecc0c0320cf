//===- KernelRegistry.h - op type -> kernel, filled by each family -*- C++
//-*-===//
//
// Each op family file (Elementwise.cpp, Conv.cpp, ...) defines one
// register<Family>Kernels function. It serves its kernel classes by the name
// the op table gives them (serve), or adds an entry per op type by hand.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_KERNELREGISTRY_H
#define GEFLOW_EXECUTOR_KERNELS_KERNELREGISTRY_H

#include "executor/kernels/Kernel.h"

#include <string>
#include <unordered_map>

namespace geflow::kernels {

using PlanFn = rt::Status (*)(const om::OpDef &op, KernelPlan *out);
using CreateFn = rt::Status (*)(const KernelSpec &spec,
                                std::unique_ptr<Kernel> *out);

struct KernelEntry {
  PlanFn plan;
  CreateFn create;
};

class KernelRegistry {
public:
  void add(const std::string &type, KernelEntry entry) {
    entries_[type] = entry;
  }
  /// Adds `entry` for every op the op table (ir/GeOpTable.def) says kernel
  /// class `kernelClass` serves.
  void serve(const std::string &kernelClass, KernelEntry entry);
  const KernelEntry *find(const std::string &type) const;

private:
  std::unordered_map<std::string, KernelEntry> entries_;
};

void registerElementwiseKernels(KernelRegistry &registry);
void registerElementwiseUnaryKernels(KernelRegistry &registry);
void registerSignalKernels(KernelRegistry &registry);
void registerReduceKernels(KernelRegistry &registry);
void registerSoftmaxKernels(KernelRegistry &registry);
void registerTopKKernels(KernelRegistry &registry);
void registerDataMovementKernels(KernelRegistry &registry);
void registerIndexMapKernels(KernelRegistry &registry);
void registerResizeKernels(KernelRegistry &registry);
void registerConvKernels(KernelRegistry &registry);
void registerConvTransposeKernels(KernelRegistry &registry);
void registerPoolKernels(KernelRegistry &registry);
void registerChannelBlockKernels(KernelRegistry &registry);
void registerGemmKernels(KernelRegistry &registry);
void registerNormKernels(KernelRegistry &registry);
void registerFusedElementwiseKernels(KernelRegistry &registry);
void registerAttentionKernels(KernelRegistry &registry);
void registerIndexKernels(KernelRegistry &registry);
void registerLossKernels(KernelRegistry &registry);
void registerScanKernels(KernelRegistry &registry);
void registerDetKernels(KernelRegistry &registry);
void registerLpNormKernels(KernelRegistry &registry);
void registerRecurrentKernels(KernelRegistry &registry);
void registerEinsumKernels(KernelRegistry &registry);
void registerQuantKernels(KernelRegistry &registry);
/// Plans only: DataDependent.h.
void registerDataDependentKernels(KernelRegistry &registry);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_KERNELREGISTRY_H
