//===- FuseBiasActivation.cpp - cube op + bias add + activation
//------------===//
//
// Pipeline step 3, op fusion (docs/architecture.md): a conv, gemm or matmul
// followed by an Add of a constant bias and by an activation becomes one
// ge.fused_conv / fused_gemm / fused_matmul, which adds the bias and applies
// the activation to each output tile while it is in cache. The bias must
// broadcast the way the fused op adds it: along the output channel (dim 1) for
// a conv, to [M, N] for a gemm, to the product for a matmul. The intermediate
// result must have no other user.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/GeOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEBIASACTIVATION
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace fusion;

/// The cube op's new bias: its old constant bias (if any) plus `add`, shaped
/// as the fused op takes it; null when the shapes do not allow it.
Value combinedBias(PatternRewriter &rewriter, Location loc, Operation *cube,
                   CubeKind kind, const FloatConstant &add) {
  std::optional<FloatConstant> old;
  if (Value bias = cubeBias(cube)) {
    old = getFloatConstant(bias);
    if (!old)
      return Value();
  }
  auto result = cast<RankedTensorType>(cube->getResult(0).getType());
  if (kind == CubeKind::kConv) {
    int64_t channels = result.getDimSize(1);
    std::optional<SmallVector<float>> perChannel =
        perChannelValues(add, result.getRank(), 1, channels);
    if (!perChannel)
      return Value();
    FloatConstant bias{{channels}, *perChannel};
    if (old)
      for (int64_t c = 0; c < channels; ++c)
        bias.values[c] += old->values[c];
    return createConstant(rewriter, loc, bias);
  }
  if (!old)
    return createConstant(rewriter, loc, add);
  // gemm adds beta * C; the fused gemm gets beta = 1 and C = beta * C + add.
  float beta = 1.0f;
  if (auto gemm = dyn_cast<mlir::ge::FusedGemmOp>(cube))
    beta = gemm.getBeta().convertToFloat();
  else if (auto plain = dyn_cast<mlir::ge::GemmOp>(cube))
    beta = plain.getBeta().convertToFloat();
  std::optional<FloatConstant> sum = broadcastCombine(
      *old, add, [&](float c, float b) { return beta * c + b; });
  return sum ? createConstant(rewriter, loc, *sum) : Value();
}

/// add(cube(...), constant) -> fused cube op with the constant in its bias.
struct FoldBiasAddIntoCubeOp : OpRewritePattern<mlir::ge::AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mlir::ge::AddOp add,
                                PatternRewriter &rewriter) const override {
    for (unsigned i = 0; i < 2; ++i) {
      Value produced = add->getOperand(i);
      Operation *cube = produced.getDefiningOp();
      std::optional<CubeKind> kind = cubeKind(cube);
      std::optional<FloatConstant> constant =
          getFloatConstant(add->getOperand(1 - i));
      if (!kind || !constant || soleUser(produced) != add ||
          add.getType() != produced.getType())
        continue;
      // gemm's C broadcasts to [M, N] only from the trailing dims.
      if (*kind == CubeKind::kGemm && constant->shape.size() > 2)
        continue;
      Location loc = fusedLoc(cube, add);
      Value bias = combinedBias(rewriter, loc, cube, *kind, *constant);
      if (!bias)
        continue;
      SmallVector<NamedAttribute, 1> attrs;
      if (*kind == CubeKind::kGemm)
        attrs.push_back(
            rewriter.getNamedAttr("beta", rewriter.getF32FloatAttr(1.0f)));
      Operation *fused = createFusedCube(rewriter, loc, cube, Value(), bias,
                                         cubeResidual(cube), attrs);
      rewriter.replaceOp(add, fused->getResults());
      rewriter.eraseOp(cube);
      return success();
    }
    return rewriter.notifyMatchFailure(add,
                                       "not a cube op plus a constant bias");
  }
};

/// activation(cube(...)) -> fused cube op applying the activation.
struct FuseActivationIntoCubeOp : RewritePattern {
  explicit FuseActivationIntoCubeOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    std::optional<Activation> activation = matchActivation(op);
    if (!activation)
      return failure();
    Value produced = op->getOperand(0);
    Operation *cube = produced.getDefiningOp();
    if (!cubeKind(cube) || soleUser(produced) != op)
      return rewriter.notifyMatchFailure(op,
                                         "input is not a cube op's only use");
    Operation *fused = createFusedCube(
        rewriter, fusedLoc(cube, op), cube, Value(), cubeBias(cube),
        cubeResidual(cube), activationAttrs(rewriter, *activation));
    rewriter.replaceOp(op, fused->getResults());
    rewriter.eraseOp(cube);
    return success();
  }
};

struct FuseBiasActivationPass
    : impl::FuseBiasActivationBase<FuseBiasActivationPass> {
  using FuseBiasActivationBase::FuseBiasActivationBase;

  void runOnOperation() override {
    applyFusionPatterns<FoldBiasAddIntoCubeOp, FuseActivationIntoCubeOp>(
        getOperation());
  }
};

} // namespace
} // namespace geflow::passes
