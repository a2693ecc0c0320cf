//===- FuseBatchNorm.cpp - inference batch norm into conv/gemm weights ---===//
//
// Pipeline step 3, op fusion (docs/architecture.md): BatchNormalization
// (inference) right after a conv, gemm or matmul with constant weights is an
// affine map per output channel,
//   y = s * (op(x) + b) + (beta - mean * s),  s = scale / sqrt(var + eps),
// so it folds into the producer: s scales W's output channels (conv: W[m];
// gemm/matmul: B's column n) and the bias becomes s * b + beta - mean * s.
// The batch norm's channel axis is dim 1, so a gemm or a rank-2 matmul
// output [M, N] has its channels along N. Everything the fold reads must be
// constant and the producer's result must have no other user.
//
// A batch norm that cannot fold (DenseNet's, after a Concat) but feeds an
// elementwise op becomes that affine map as a Mul and an Add by per-channel
// constants, which ge-fuse-elementwise then runs in one pass with the op
// after it (BN + ReLU: one pass over memory instead of two).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/GeOps.h"
#include "ir/OpFacts.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEBATCHNORM
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace fusion;

/// The batch norm as y = scale[c] * x + shift[c].
struct ChannelAffine {
  SmallVector<float> scale, shift;
};

std::optional<ChannelAffine> affineOf(mlir::ge::BatchNormalizationOp bn,
                                      int64_t channels) {
  std::optional<FloatConstant> gamma = getFloatConstant(bn.getScale()),
                               beta = getFloatConstant(bn.getB()),
                               mean = getFloatConstant(bn.getInputMean()),
                               var = getFloatConstant(bn.getInputVar());
  if (!gamma || !beta || !mean || !var)
    return std::nullopt;
  for (const FloatConstant *c : {&*gamma, &*beta, &*mean, &*var})
    if (static_cast<int64_t>(c->values.size()) != channels)
      return std::nullopt;
  float epsilon = bn.getEpsilon().convertToFloat();
  ChannelAffine affine;
  for (int64_t c = 0; c < channels; ++c) {
    float s = gamma->values[c] / std::sqrt(var->values[c] + epsilon);
    affine.scale.push_back(s);
    affine.shift.push_back(beta->values[c] - mean->values[c] * s);
  }
  return affine;
}

/// `weight` with channel c (of `channels`) scaled by scale[c]; the channel is
/// the outermost dim (`channelOuter`, conv W and a transposed gemm B) or the
/// innermost (a gemm or matmul B of [K, N]).
FloatConstant scaleChannels(FloatConstant weight, ArrayRef<float> scale,
                            bool channelOuter) {
  int64_t channels = scale.size();
  int64_t inner = weight.values.size() / channels;
  for (size_t i = 0; i < weight.values.size(); ++i)
    weight.values[i] *= scale[channelOuter ? i / inner : i % channels];
  return weight;
}

struct FoldBatchNormIntoCubeOp
    : OpRewritePattern<mlir::ge::BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(mlir::ge::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    Value produced = bn.getX();
    Operation *cube = produced.getDefiningOp();
    std::optional<CubeKind> kind = cubeKind(cube);
    if (!kind || cubeResidual(cube) || soleUser(produced) != bn)
      return rewriter.notifyMatchFailure(bn,
                                         "input is not a cube op's only use");
    auto type = cast<RankedTensorType>(produced.getType());
    if (type.getRank() < 2 || type.isDynamicDim(1) ||
        (*kind != CubeKind::kConv && type.getRank() != 2))
      return rewriter.notifyMatchFailure(bn, "channels are not a weight axis");
    int64_t channels = type.getDimSize(1);
    std::optional<FloatConstant> weight = getFloatConstant(cube->getOperand(1));
    std::optional<ChannelAffine> affine = affineOf(bn, channels);
    if (!weight || !affine)
      return rewriter.notifyMatchFailure(bn,
                                         "weights or statistics not constant");

    // Where the channel sits in the weight, and gemm's alpha and beta.
    bool channelOuter = *kind == CubeKind::kConv;
    float beta = 1.0f;
    if (*kind == CubeKind::kGemm) {
      channelOuter = cube->getAttrOfType<IntegerAttr>("transB") &&
                     cube->getAttrOfType<IntegerAttr>("transB").getInt() != 0;
      if (auto b = cube->getAttrOfType<FloatAttr>("beta"))
        beta = b.getValueAsDouble();
    }
    if (*kind == CubeKind::kMatMul && weight->shape.size() != 2)
      return rewriter.notifyMatchFailure(bn, "matmul weight is not 2-D");

    // New bias: s * (beta * b) + shift, shaped [M] for a conv, [N] otherwise
    // (or b's broadcast shape when b is bigger).
    FloatConstant shift{{channels}, affine->shift};
    FloatConstant scale{{channels}, affine->scale};
    std::optional<FloatConstant> bias = shift;
    if (Value oldBias = cubeBias(cube)) {
      std::optional<FloatConstant> old = getFloatConstant(oldBias);
      if (!old)
        return rewriter.notifyMatchFailure(bn, "bias is not constant");
      if (*kind == CubeKind::kConv)
        old->shape = {channels}; // conv B is [M]
      bias = broadcastCombine(*old, scale,
                              [&](float b, float s) { return s * beta * b; });
      if (bias)
        bias = broadcastCombine(*bias, shift, std::plus<float>());
      if (!bias)
        return rewriter.notifyMatchFailure(bn, "bias does not broadcast");
    }

    Location loc = fusedLoc(cube, bn);
    Value newWeight = createConstant(
        rewriter, loc, scaleChannels(*weight, affine->scale, channelOuter));
    Value newBias = createConstant(rewriter, loc, *bias);
    SmallVector<NamedAttribute, 1> attrs;
    if (*kind == CubeKind::kGemm)
      attrs.push_back(
          rewriter.getNamedAttr("beta", rewriter.getF32FloatAttr(1.0f)));
    Operation *fused = createFusedCube(rewriter, loc, cube, newWeight, newBias,
                                       Value(), attrs);
    rewriter.replaceOp(bn, fused->getResults());
    rewriter.eraseOp(cube);
    return success();
  }
};

/// A batch norm whose only user is an elementwise op (a step of the fused
/// elementwise kernel): x * scale + shift with both [1, C, 1, ...]. Tried
/// only where the fold above does not apply (lower benefit); a batch norm
/// that ends a chain stays one op, whose kernel needs no broadcast gather.
struct LowerBatchNormBeforeElementwise
    : OpRewritePattern<mlir::ge::BatchNormalizationOp> {
  LowerBatchNormBeforeElementwise(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/0) {}

  LogicalResult matchAndRewrite(mlir::ge::BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    Operation *user = soleUser(bn.getY());
    if (!user || user->getName().getDialectNamespace() != "ge" ||
        mlir::ge::elementwiseStepArity(user->getName().stripDialect()) == 0)
      return rewriter.notifyMatchFailure(bn, "no elementwise op after it");
    auto type = dyn_cast<RankedTensorType>(bn.getX().getType());
    if (!type || !type.hasStaticShape() || type.getRank() < 2 ||
        bn.getY().getType() != type)
      return rewriter.notifyMatchFailure(bn, "not a static [N, C, ...] map");
    int64_t channels = type.getDimSize(1);
    std::optional<ChannelAffine> affine = affineOf(bn, channels);
    if (!affine)
      return rewriter.notifyMatchFailure(bn, "statistics not constant");
    SmallVector<int64_t, 4> shape(type.getRank(), 1);
    shape[1] = channels;
    Location loc = bn.getLoc();
    Value scale = createConstant(rewriter, loc, {shape, affine->scale});
    Value shift = createConstant(rewriter, loc, {shape, affine->shift});
    Value scaled =
        rewriter.create<mlir::ge::MulOp>(loc, type, bn.getX(), scale);
    rewriter.replaceOpWithNewOp<mlir::ge::AddOp>(bn, type, scaled, shift);
    return success();
  }
};

struct FuseBatchNormPass : impl::FuseBatchNormBase<FuseBatchNormPass> {
  using FuseBatchNormBase::FuseBatchNormBase;

  void runOnOperation() override {
    applyFusionPatterns<FoldBatchNormIntoCubeOp,
                        LowerBatchNormBeforeElementwise>(getOperation());
  }
};

} // namespace
} // namespace geflow::passes
