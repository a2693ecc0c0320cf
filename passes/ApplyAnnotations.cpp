//===- ApplyAnnotations.cpp - user scopes into ge.* attributes ------------===//
//
// Pipeline step 5 (docs/architecture.md). The torchair scopes
// (`ge.npu_stream_switch`, `ge.limit_core_num`) become the same attributes the
// ONNX node annotations and the stream plan produce, so every later pass reads
// one form. Core limits are checked here because this is the first pass that
// knows the SoC.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "ir/GeOps.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/streams/CoreLimits.h"

#include "runtime/soc/SocSpec.h"

#include "mlir/IR/Builders.h"

namespace geflow::passes {

#define GEN_PASS_DEF_APPLYANNOTATIONS
#include "passes/Passes.h.inc"

using mlir::ge::GeDialect;

namespace {

/// Sets the scope's attributes on every op of its body that has none of its
/// own, then moves the body in front of the scope and erases it.
void inlineScope(mlir::Operation *scope,
                 llvm::ArrayRef<mlir::NamedAttribute> scopeAttrs) {
  mlir::Block &body = scope->getRegion(0).front();
  mlir::Operation *yield = body.getTerminator();
  for (mlir::Operation &op : body.without_terminator())
    for (const mlir::NamedAttribute &attr : scopeAttrs)
      if (!op.hasAttr(attr.getName()))
        op.setAttr(attr.getName(), attr.getValue());
  scope->getBlock()->getOperations().splice(scope->getIterator(),
                                            body.getOperations(), body.begin(),
                                            yield->getIterator());
  scope->replaceAllUsesWith(yield->getOperands());
  scope->erase();
}

mlir::LogicalResult checkCoreLimits(mlir::func::FuncOp func,
                                    const rt::SocSpec &spec) {
  mlir::WalkResult result = func.walk([&](mlir::Operation *op) {
    for (bool vector : {false, true}) {
      llvm::StringRef attrName =
          vector ? GeDialect::kVectorcoreNumAttr : GeDialect::kAicoreNumAttr;
      auto limit = op->getAttrOfType<mlir::IntegerAttr>(attrName);
      if (!limit)
        continue;
      std::string why = checkCoreLimit(limit.getInt(), vector, spec);
      if (why.empty())
        continue;
      op->emitError() << "node '" << nameFromLoc(op->getLoc()) << "' ("
                      << op->getName() << "): "
                      << (vector ? "_op_vectorcore_num " : "_op_aicore_num ")
                      << why;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return mlir::failure(result.wasInterrupted());
}

} // namespace

mlir::LogicalResult applyAnnotations(mlir::func::FuncOp func,
                                     const rt::SocSpec &spec) {
  // Innermost scopes first, so an inner scope's attributes are set before
  // the outer one fills in only what is still missing.
  llvm::SmallVector<mlir::Operation *> scopes;
  func.walk<mlir::WalkOrder::PostOrder>([&](mlir::Operation *op) {
    if (mlir::isa<mlir::ge::NpuStreamSwitchOp, mlir::ge::LimitCoreNumOp>(op))
      scopes.push_back(op);
  });
  mlir::Builder b(func.getContext());
  for (mlir::Operation *scope : scopes) {
    llvm::SmallVector<mlir::NamedAttribute> attrs;
    if (auto stream = mlir::dyn_cast<mlir::ge::NpuStreamSwitchOp>(scope)) {
      attrs.push_back(b.getNamedAttr(GeDialect::kStreamLabelAttr,
                                     b.getStringAttr(stream.getTag())));
      attrs.push_back(
          b.getNamedAttr(GeDialect::kStreamPriorityAttr,
                         b.getI64IntegerAttr(int64_t(stream.getPriority()))));
      attrs.push_back(b.getNamedAttr(GeDialect::kInnerParallelAttr,
                                     b.getBoolAttr(stream.getInnerParallel())));
    } else {
      auto limit = mlir::cast<mlir::ge::LimitCoreNumOp>(scope);
      attrs.push_back(
          b.getNamedAttr(GeDialect::kAicoreNumAttr,
                         b.getI64IntegerAttr(int64_t(limit.getAicoreNum()))));
      attrs.push_back(b.getNamedAttr(
          GeDialect::kVectorcoreNumAttr,
          b.getI64IntegerAttr(int64_t(limit.getVectorcoreNum()))));
    }
    inlineScope(scope, attrs);
  }
  return checkCoreLimits(func, spec);
}

namespace {

struct ApplyAnnotationsPass : impl::ApplyAnnotationsBase<ApplyAnnotationsPass> {
  using ApplyAnnotationsBase::ApplyAnnotationsBase;

  void runOnOperation() override {
    rt::SocSpec spec;
    if (mlir::failed(loadSocSpecFor(getOperation(), soc, spec)))
      return signalPassFailure();
    if (mlir::failed(applyAnnotations(getOperation(), spec)))
      signalPassFailure();
  }
};

} // namespace
} // namespace geflow::passes
