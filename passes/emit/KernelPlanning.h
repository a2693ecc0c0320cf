//===- KernelPlanning.h - engine, split and cost of one op ------*- C++ -*-===//
//
// The kernel plan (executor/kernels/Kernel.h) is the source of truth for an
// op's engine, how finely it splits and what it costs, so the compiler and
// the kernels agree by construction. Until an op's kernel exists, the
// compiler falls back to its own table and a roofline estimate from the
// shapes, unless the caller requires kernels.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_EMIT_KERNELPLANNING_H
#define GEFLOW_PASSES_EMIT_KERNELPLANNING_H

#include "executor/kernels/Kernel.h"
#include "executor/model/om.pb.h"
#include "ir/GeDialect.h"
#include "runtime/soc/CostModel.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace geflow::passes {

struct OpPlan {
  kernels::KernelPlan kernel;
  /// False when the plan is the compiler's estimate (no kernel yet).
  bool fromKernel = false;
};

/// The plan of `op` (an OpDef from fillOpDef). A kernel that exists but
/// refuses the op is an error; a missing kernel is an error only when
/// `requireKernels`.
llvm::Expected<OpPlan> planOp(const om::OpDef &op, bool requireKernels);

/// The compiler's engine rule, the op table's Engine column: cube work (conv,
/// conv_transpose, gemm, matmul and their fused forms) on AIC, everything
/// else on AIV.
rt::Engine defaultEngine(llvm::StringRef opType);

/// The runtime's engine for a `ge.engine` value; nullopt for HOST, which the
/// runtime has no core group for.
std::optional<rt::Engine> runtimeEngine(mlir::ge::Engine engine);
/// The `ge.engine` value of a runtime engine.
mlir::ge::Engine irEngine(rt::Engine engine);
/// The OM's engine for a `ge.engine` value.
om::Engine omEngine(mlir::ge::Engine engine);

/// The block_dim of a task: the CostModel's best split of `plan.cost` on
/// `engine`, within [1, min(plan.maxBlocks, the engine's cores, coreLimit)]
/// (coreLimit 0 = none).
uint32_t chooseBlockDim(const rt::CostModel &costModel, rt::Engine engine,
                        const kernels::KernelPlan &plan, uint32_t coreLimit);

} // namespace geflow::passes

#endif // GEFLOW_PASSES_EMIT_KERNELPLANNING_H
