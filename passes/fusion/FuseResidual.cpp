//===- FuseResidual.cpp - residual add (+ activation) into the conv
//---------===//
//
// Pipeline step 3, op fusion (docs/architecture.md): y = act(conv(x) + z),
// ResNet's block ending, becomes one ge.fused_conv with the residual operand Z
// (ONNX Runtime's FusedConv Z): the conv adds z to each output tile before the
// activation while the tile is hot, so neither the Add nor the activation
// launches a kernel of its own. z must have the conv output's type exactly (no
// broadcasting), and the conv output (and the sum, when an activation follows)
// must have no other user.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/GeOps.h"

#include "mlir/IR/PatternMatch.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSERESIDUAL
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace fusion;

/// The addend of `add` that a conv may absorb: produced by a conv (no
/// activation, no residual yet) whose only user is `add`. When both are,
/// the later one, so the residual is the value computed first.
std::optional<unsigned> convAddend(mlir::ge::AddOp add) {
  std::optional<unsigned> chosen;
  for (unsigned i = 0; i < 2; ++i) {
    Value v = add->getOperand(i);
    Operation *conv = v.getDefiningOp();
    if (cubeKind(conv) != CubeKind::kConv || cubeResidual(conv) ||
        soleUser(v) != add || v.getType() != add.getType() ||
        add->getOperand(1 - i).getType() != add.getType())
      continue;
    if (!chosen ||
        add->getOperand(*chosen).getDefiningOp()->isBeforeInBlock(conv))
      chosen = i;
  }
  return chosen;
}

struct FuseResidualAddIntoConv : OpRewritePattern<mlir::ge::AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mlir::ge::AddOp add,
                                PatternRewriter &rewriter) const override {
    std::optional<unsigned> index = convAddend(add);
    if (!index)
      return rewriter.notifyMatchFailure(add,
                                         "no conv addend of the sum's type");
    Operation *conv = add->getOperand(*index).getDefiningOp();
    Value residual = add->getOperand(1 - *index);
    // The optional trailing activation.
    Operation *last = add;
    std::optional<Activation> activation;
    if (Operation *user = soleUser(add.getResult());
        user && user->getBlock() == add->getBlock()) {
      activation = matchActivation(user);
      if (activation)
        last = user;
    }
    SmallVector<NamedAttribute, 2> attrs;
    if (activation)
      attrs = activationAttrs(rewriter, *activation);
    // At the last op of the chain: X, W, B are defined before the conv and
    // the residual before the add, so all of them dominate it.
    rewriter.setInsertionPoint(last);
    Operation *fused =
        createFusedCube(rewriter, fusedLoc(conv, last), conv, Value(),
                        cubeBias(conv), residual, attrs);
    rewriter.replaceOp(last, fused->getResults());
    if (last != add)
      rewriter.eraseOp(add);
    rewriter.eraseOp(conv);
    return success();
  }
};

struct FuseResidualPass : impl::FuseResidualBase<FuseResidualPass> {
  using FuseResidualBase::FuseResidualBase;

  void runOnOperation() override {
    applyFusionPatterns<FuseResidualAddIntoConv>(getOperation());
  }
};

} // namespace
} // namespace geflow::passes
