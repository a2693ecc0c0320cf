//===- EmitTasks.cpp - block_dim and cost of every task -------------------===//
//
// The per-op half of task emission (pipeline step 9), recorded on the IR so
// lit tests and dumps see what each KERNEL task will carry; emitOmModel
// (emit/OmEmitter.cpp) reads it back.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/KernelPlanning.h"
#include "passes/emit/NoTaskOps.h"
#include "passes/emit/OpDefBuilder.h"

#include "runtime/soc/CostModel.h"
#include "runtime/soc/SocSpec.h"

#include "mlir/IR/Builders.h"

namespace geflow::passes {

#define GEN_PASS_DEF_EMITTASKS
#include "passes/Passes.h.inc"

/// The op-level core limit that applies to `engine` (0: none).
static uint32_t coreLimitFor(mlir::Operation *op, rt::Engine engine) {
  llvm::StringRef name = engine == rt::Engine::kAiv
                             ? mlir::ge::GeDialect::kVectorcoreNumAttr
                             : mlir::ge::GeDialect::kAicoreNumAttr;
  if (engine != rt::Engine::kAic && engine != rt::Engine::kAiv &&
      engine != rt::Engine::kMix)
    return 0;
  auto limit = op->getAttrOfType<mlir::IntegerAttr>(name);
  return limit ? static_cast<uint32_t>(std::max<int64_t>(limit.getInt(), 0))
               : 0;
}

mlir::LogicalResult annotateTasks(mlir::func::FuncOp func,
                                  const rt::CostModel &costModel,
                                  bool requireKernels) {
  // Views and in-place joins launch nothing; they are still sized, so every
  // compute op carries the same attributes.
  markNoTaskOps(func);
  mlir::Builder builder(func.getContext());
  mlir::WalkResult result = func.walk([&](mlir::Operation *op) {
    if (!isComputeOp(op))
      return mlir::WalkResult::advance();
    mlir::FailureOr<OpPlan> plan = planComputeOp(op, requireKernels);
    if (mlir::failed(plan))
      return mlir::WalkResult::interrupt();
    // A user's or an earlier pass's engine wins over the plan's.
    rt::Engine engine = plan->kernel.engine;
    if (auto attr = op->getAttrOfType<mlir::ge::EngineAttr>(
            mlir::ge::GeDialect::kEngineAttr)) {
      if (std::optional<rt::Engine> runtime = runtimeEngine(attr.getValue()))
        engine = *runtime;
    } else {
      op->setAttr(
          mlir::ge::GeDialect::kEngineAttr,
          mlir::ge::EngineAttr::get(func.getContext(), irEngine(engine)));
    }
    uint32_t blockDim = chooseBlockDim(costModel, engine, plan->kernel,
                                       coreLimitFor(op, engine));
    op->setAttr(kBlockDimAttr, builder.getI64IntegerAttr(blockDim));
    op->setAttr(kFlopsAttr, builder.getF64FloatAttr(plan->kernel.cost.flops));
    op->setAttr(kBytesAttr, builder.getF64FloatAttr(plan->kernel.cost.bytes));
    return mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

namespace {

struct EmitTasksPass : impl::EmitTasksBase<EmitTasksPass> {
  using EmitTasksBase::EmitTasksBase;

  void runOnOperation() override {
    rt::SocSpec spec;
    if (mlir::failed(loadSocSpecFor(getOperation(), soc, spec)))
      return signalPassFailure();
    rt::CostModel costModel(spec);
    if (mlir::failed(annotateTasks(getOperation(), costModel, requireKernels)))
      signalPassFailure();
  }
};

} // namespace
} // namespace geflow::passes
