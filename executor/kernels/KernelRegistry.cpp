//===- KernelRegistry.cpp -------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

using namespace geflow;
using namespace geflow::kernels;

Kernel::~Kernel() = default;

namespace {
struct OpKernel {
  const char *op;
  const char *kernelClass;
};
const OpKernel kOpKernels[] = {
#define GE_OP(Name, Onnx, Since, Family, Engine, Kernel, Import)               \
  {#Name, #Kernel},
#include "ir/GeOpTable.def"
};
} // namespace

void KernelRegistry::serve(const std::string &kernelClass, KernelEntry entry) {
  for (const OpKernel &row : kOpKernels)
    if (kernelClass == row.kernelClass)
      add(row.op, entry);
}

const KernelEntry *KernelRegistry::find(const std::string &type) const {
  auto it = entries_.find(type);
  return it == entries_.end() ? nullptr : &it->second;
}

static const KernelRegistry &registry() {
  static const KernelRegistry instance = [] {
    KernelRegistry r;
    registerElementwiseKernels(r);
    registerSignalKernels(r);
    registerReduceKernels(r);
    registerSoftmaxKernels(r);
    registerTopKKernels(r);
    registerDataMovementKernels(r);
    registerIndexMapKernels(r);
    registerResizeKernels(r);
    registerConvKernels(r);
    registerConvTransposeKernels(r);
    registerPoolKernels(r);
    registerChannelBlockKernels(r);
    registerGemmKernels(r);
    registerNormKernels(r);
    registerFusedElementwiseKernels(r);
    registerAttentionKernels(r);
    registerIndexKernels(r);
    registerLossKernels(r);
    registerScanKernels(r);
    registerDetKernels(r);
    registerLpNormKernels(r);
    registerRecurrentKernels(r);
    registerEinsumKernels(r);
    registerQuantKernels(r);
    registerDataDependentKernels(r);
    return r;
  }();
  return instance;
}

static rt::Status noKernel(const om::OpDef &op) {
  return rt::makeStatus(rt::StatusCode::kInvalidArgument,
                        "node '" + op.name() + "' (" + op.type() +
                            "): no kernel for this op type");
}

bool kernels::hasKernel(const std::string &type) {
  return registry().find(type) != nullptr;
}

rt::Status kernels::planKernel(const om::OpDef &op, KernelPlan *out) {
  const KernelEntry *entry = registry().find(op.type());
  return entry ? entry->plan(op, out) : noKernel(op);
}

rt::Status kernels::createKernel(const KernelSpec &spec,
                                 std::unique_ptr<Kernel> *out) {
  const KernelEntry *entry = registry().find(spec.op->type());
  return entry ? entry->create(spec, out) : noKernel(*spec.op);
}
