//===- AssignEngines.cpp - ge.engine from the kernel plan -----------------===//
//
// Pipeline step 4 (docs/architecture.md): cube work on AIC, the rest on AIV.
// The engine is the one the op's kernel plans for (KernelPlanning.h), so
// compiler and kernels agree.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "passes/emit/KernelPlanning.h"
#include "passes/emit/OpDefBuilder.h"

namespace geflow::passes {

#define GEN_PASS_DEF_ASSIGNENGINES
#include "passes/Passes.h.inc"

mlir::LogicalResult assignEngines(mlir::func::FuncOp func,
                                  bool requireKernels) {
  mlir::WalkResult result = func.walk([&](mlir::Operation *op) {
    if (op == func.getOperation() || !isComputeOp(op) ||
        op->hasAttr(mlir::ge::GeDialect::kEngineAttr))
      return mlir::WalkResult::advance();
    mlir::FailureOr<OpPlan> plan = planComputeOp(op, requireKernels);
    if (mlir::failed(plan))
      return mlir::WalkResult::interrupt();
    op->setAttr(mlir::ge::GeDialect::kEngineAttr,
                mlir::ge::EngineAttr::get(func.getContext(),
                                          irEngine(plan->kernel.engine)));
    return mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

namespace {

struct AssignEnginesPass : impl::AssignEnginesBase<AssignEnginesPass> {
  using AssignEnginesBase::AssignEnginesBase;

  void runOnOperation() override {
    if (mlir::failed(assignEngines(getOperation(), requireKernels)))
      signalPassFailure();
  }
};

} // namespace
} // namespace geflow::passes
