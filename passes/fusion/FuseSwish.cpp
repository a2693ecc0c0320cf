//===- FuseSwish.cpp - x * Sigmoid(alpha x) -> ge.swish -------------------===//
//
// Pipeline step 3, op fusion (docs/architecture.md). PyTorch exports SiLU
// (EfficientNet, YOLO, LLaMA-style MLPs) as x * Sigmoid(x), and QuickGELU as
// x * Sigmoid(1.702 x); both are ONNX 24's Swish(x, alpha), which the
// importer's opset does not have. As one op, ge-fuse-bias-activation can fold
// it into the conv or matmul that makes x, so the gate is computed while the
// output tile is in cache instead of by two passes over memory. The Sigmoid
// (and the scaling Mul) must have no other user; x may have others.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"

#include "mlir/IR/PatternMatch.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSESWISH
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;
using namespace fusion;

/// The alpha of sigmoid's argument `arg` when it is `x` (1) or x times a
/// scalar constant used only there.
std::optional<float> gateScale(Value arg, Value x) {
  if (arg == x)
    return 1.0f;
  auto scale = soleUseProducer<MulOp>(arg);
  if (!scale)
    return std::nullopt;
  Value factor = otherOperand(scale, x);
  if (!factor || factor == x)
    return std::nullopt;
  return scalarConstant(factor);
}

/// Anchored on the Mul: one operand is a Sigmoid used only here, whose
/// argument is the other operand (or it scaled).
struct FuseSigmoidGate : OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    for (auto [gate, x] : {std::pair(mul.getB(), mul.getA()),
                           std::pair(mul.getA(), mul.getB())}) {
      auto sigmoid = soleUseProducer<SigmoidOp>(gate);
      if (!sigmoid || x.getType() != mul.getType() || !isStaticF32(x))
        continue;
      std::optional<float> alpha = gateScale(sigmoid.getX(), x);
      if (!alpha)
        continue;
      SmallVector<Operation *, 3> fused{sigmoid, mul};
      if (Operation *scale = sigmoid.getX().getDefiningOp();
          scale && sigmoid.getX() != x)
        fused.insert(fused.begin(), scale);
      auto swish = rewriter.create<SwishOp>(fusedLocOf(fused), x.getType(), x,
                                            rewriter.getF32FloatAttr(*alpha));
      rewriter.replaceOp(mul, swish.getY());
      return success();
    }
    return rewriter.notifyMatchFailure(mul, "not x * sigmoid(alpha x)");
  }
};

struct FuseSwishPass : impl::FuseSwishBase<FuseSwishPass> {
  using FuseSwishBase::FuseSwishBase;

  void runOnOperation() override {
    applyFusionPatterns<FuseSigmoidGate>(getOperation());
  }
};

} // namespace
} // namespace geflow::passes
