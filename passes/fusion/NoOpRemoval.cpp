//===- NoOpRemoval.cpp ----------------------------------------------------===//

#include "passes/fusion/NoOpRemoval.h"

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace geflow::passes::fusion {
namespace {

using namespace mlir;
using namespace mlir::ge;

/// Whether every value of the constant operand `v` satisfies `pred`
/// (an absent operand counts as `absent`).
template <typename Pred> bool constantIntsAll(Value v, bool absent, Pred pred) {
  if (!v)
    return absent;
  std::optional<SmallVector<int64_t>> ints =
      mlir::ge::detail::getConstantInts(v);
  return ints && llvm::all_of(*ints, pred);
}

/// True when `op`, whose result has its first operand's type, returns that
/// operand unchanged.
bool isNoOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<IdentityOp, ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp, ExpandOp,
            CastOp, TileOp>([](Operation *) { return true; })
      .Case([](TransposeOp t) {
        std::optional<ArrayRef<int64_t>> perm = t.getPerm();
        if (!perm)
          return t.getData().getType().getRank() <= 1;
        for (auto [i, p] : llvm::enumerate(*perm))
          if (p != static_cast<int64_t>(i))
            return false;
        return true;
      })
      // Same shape with positive steps: every start is 0, every end the dim.
      .Case([](SliceOp s) {
        return constantIntsAll(s.getSteps(), true,
                               [](int64_t v) { return v > 0; });
      })
      .Case([](PadOp p) {
        return constantIntsAll(p.getPads(), false,
                               [](int64_t v) { return v == 0; });
      })
      .Default([](Operation *) { return false; });
}

struct RemoveNoOp : RewritePattern {
  explicit RemoveNoOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/2, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1 || op->getNumOperands() < 1 ||
        op->getResult(0).getType() != op->getOperand(0).getType() ||
        !isNoOp(op))
      return failure();
    rewriter.replaceOp(op, op->getOperand(0));
    return success();
  }
};

/// Dropout that copies (inference, or ratio 0): output = data, mask = true.
struct RemoveInferenceDropout : OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DropoutOp dropout,
                                PatternRewriter &rewriter) const override {
    Value mask = dropout.getMask();
    auto maskType = cast<RankedTensorType>(mask.getType());
    if (!mask.use_empty() && !maskType.hasStaticShape())
      return rewriter.notifyMatchFailure(dropout, "mask of a dynamic shape");
    if (!dropout.isIdentity())
      return rewriter.notifyMatchFailure(dropout, "training mode may be on");
    if (!mask.use_empty())
      rewriter.replaceAllUsesWith(
          mask, rewriter.create<ConstantOp>(
                    dropout.getLoc(), DenseElementsAttr::get(maskType, true)));
    rewriter.replaceAllUsesWith(dropout.getOutput(), dropout.getData());
    rewriter.eraseOp(dropout);
    return success();
  }
};

} // namespace

void populateNoOpRemovalPatterns(RewritePatternSet &patterns) {
  patterns.add<RemoveNoOp, RemoveInferenceDropout>(patterns.getContext());
}

} // namespace geflow::passes::fusion
