//===- FuseLayerNorm.cpp - decomposed LayerNorm -> layer_normalization --===//
//
// Pipeline step 3, op fusion (docs/architecture.md). Exporters before ONNX 17
// write LayerNormalization as
//   m = ReduceMean(x), d = x - m, v = ReduceMean(d^2), s = Sqrt(v + eps),
//   n = d / s, y = n * gamma + beta
// with d^2 as Pow(d, 2) or Mul(d, d), d / s as Div or Mul(d, Reciprocal(s)),
// and gamma, beta optional. Both means reduce the same trailing dims with
// keepdims; eps is a scalar constant; every intermediate has no user outside
// the pattern (d has exactly its two). The result is one
// ge.layer_normalization, whose kernel normalises each row while it is in
// cache.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"
#include "ir/ShapeFunctions.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSELAYERNORM
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;
using namespace fusion;

/// The first normalised dim when `mean` reduces the trailing dims of its
/// input with keepdims = 1, else nullopt.
std::optional<int64_t> trailingAxis(ReduceMeanOp mean) {
  int64_t rank = mean.getData().getType().getRank();
  std::optional<ArrayRef<int64_t>> axes = mean.getAxes();
  if (mean.getKeepdims() != 1 || !axes || axes->empty())
    return std::nullopt;
  FailureOr<Shape> normalized = normalizeAxes(*axes, rank);
  if (failed(normalized))
    return std::nullopt;
  llvm::sort(*normalized);
  int64_t first = rank - static_cast<int64_t>(normalized->size());
  for (auto [i, axis] : llvm::enumerate(*normalized))
    if (axis != first + static_cast<int64_t>(i))
      return std::nullopt;
  return first;
}

/// d * d or Pow(d, 2), the only user of d besides the normalisation.
bool isSquareOf(Operation *op, Value d) {
  if (auto mul = dyn_cast<MulOp>(op))
    return mul.getA() == d && mul.getB() == d;
  if (auto pow = dyn_cast<PowOp>(op))
    return pow.getX() == d && isScalarNear(pow.getY(), 2.0);
  return false;
}

/// The normalised value d / s (Div, or Mul by Reciprocal(s)) when `op` is
/// that user of d; `s` is the Sqrt's result.
Operation *matchNormalize(Operation *op, Value d, Value s) {
  if (auto div = dyn_cast<DivOp>(op))
    return div.getA() == d && div.getB() == s ? op : nullptr;
  auto mul = dyn_cast<MulOp>(op);
  if (!mul)
    return nullptr;
  auto reciprocal = otherOperand(mul, d).getDefiningOp<ReciprocalOp>();
  return reciprocal && reciprocal.getX() == s ? op : nullptr;
}

/// A gamma or beta operand as LayerNormalization takes it: broadcasting to
/// the normalised dims (a constant loses its leading unit dims); null when
/// it cannot be.
Value normalizedParam(PatternRewriter &rewriter, Location loc, Value param,
                      ArrayRef<int64_t> normalized) {
  if (!param || !isStaticF32(param))
    return Value();
  ArrayRef<int64_t> shape = cast<RankedTensorType>(param.getType()).getShape();
  size_t extra =
      shape.size() > normalized.size() ? shape.size() - normalized.size() : 0;
  if (!llvm::all_of(shape.take_front(extra), [](int64_t d) { return d == 1; }))
    return Value();
  ArrayRef<int64_t> kept = shape.drop_front(extra);
  FailureOr<Shape> b = broadcastShapes(normalized, kept);
  if (failed(b) || !llvm::equal(*b, normalized))
    return Value();
  if (extra == 0)
    return param;
  std::optional<FloatConstant> c = getFloatConstant(param);
  if (!c)
    return Value();
  c->shape.assign(kept.begin(), kept.end());
  return createConstant(rewriter, loc, *c);
}

/// Anchored on the first ReduceMean (the mean of x).
struct FuseDecomposedLayerNorm : OpRewritePattern<ReduceMeanOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceMeanOp mean,
                                PatternRewriter &rewriter) const override {
    Value x = mean.getData();
    std::optional<int64_t> axis = trailingAxis(mean);
    if (!isStaticF32(x) || !axis)
      return rewriter.notifyMatchFailure(mean,
                                         "not a trailing-dims mean of f32");
    auto sub = soleUserOf<SubOp>(mean.getReduced());
    if (!sub || sub.getA() != x || sub.getB() != mean.getReduced() ||
        sub.getType() != x.getType())
      return rewriter.notifyMatchFailure(mean, "mean is not subtracted from x");
    Value d = sub.getC();
    // Distinct users: Mul(d, d) uses d twice.
    llvm::SmallSetVector<Operation *, 2> users;
    for (Operation *user : d.getUsers())
      users.insert(user);
    SmallVector<Operation *, 2> dUsers(users.begin(), users.end());
    if (dUsers.size() != 2)
      return rewriter.notifyMatchFailure(mean, "x - mean has other users");
    if (!isSquareOf(dUsers[0], d))
      std::swap(dUsers[0], dUsers[1]);
    Operation *square = dUsers[0];
    if (!isSquareOf(square, d))
      return rewriter.notifyMatchFailure(mean, "no square of x - mean");
    auto variance = soleUserOf<ReduceMeanOp>(square->getResult(0));
    if (!variance || variance.getAxes() != mean.getAxes() ||
        variance.getKeepdims() != 1)
      return rewriter.notifyMatchFailure(mean,
                                         "no variance over the same axes");
    auto addEps = soleUserOf<AddOp>(variance.getReduced());
    Value epsValue =
        addEps ? otherOperand(addEps, variance.getReduced()) : Value();
    std::optional<float> eps = scalarConstant(epsValue);
    if (!eps || addEps.getType() != variance.getType())
      return rewriter.notifyMatchFailure(mean, "no constant epsilon");
    auto sqrt = soleUserOf<SqrtOp>(addEps.getC());
    if (!sqrt)
      return rewriter.notifyMatchFailure(mean, "no square root");
    // Div(d, s), or Mul(d, Reciprocal(s)) with the reciprocal used once.
    Value s = sqrt.getY();
    Operation *normalize = matchNormalize(dUsers[1], d, s);
    if (!normalize || !s.hasOneUse() ||
        (isa<MulOp>(normalize) && !otherOperand(normalize, d).hasOneUse()))
      return rewriter.notifyMatchFailure(mean, "no normalisation by the root");
    SmallVector<Operation *, 12> matched = {mean,   sub,  square,   variance,
                                            addEps, sqrt, normalize};
    if (auto reciprocal =
            otherOperand(normalize, d).getDefiningOp<ReciprocalOp>();
        isa<MulOp>(normalize) && reciprocal)
      matched.push_back(reciprocal);

    // Optional Mul by gamma, then optional Add of beta.
    ArrayRef<int64_t> normalized =
        cast<RankedTensorType>(x.getType()).getShape().drop_front(*axis);
    Location loc = fusedLocOf(matched);
    Value result = normalize->getResult(0);
    // gamma and beta may be computed after the mean: build after them.
    rewriter.setInsertionPointAfter(result.getDefiningOp());
    // `user` (Mul by gamma, Add of beta) joins when its other operand is a
    // parameter LayerNormalization takes; returns that parameter.
    auto absorbParam = [&](Operation *user) -> Value {
      if (!user || user->getResult(0).getType() != x.getType())
        return Value();
      Value param = normalizedParam(rewriter, loc, otherOperand(user, result),
                                    normalized);
      if (param) {
        matched.push_back(user);
        result = user->getResult(0);
        rewriter.setInsertionPoint(user);
      }
      return param;
    };
    Value scale = absorbParam(soleUserOf<MulOp>(result));
    Value bias = absorbParam(soleUserOf<AddOp>(result));
    if (!scale) {
      // LayerNormalization needs a Scale: ones.
      FloatConstant ones;
      ones.shape.assign(normalized.begin(), normalized.end());
      ones.values.assign(mlir::ge::numElements(normalized), 1.0f);
      scale = createConstant(rewriter, loc, ones);
    }
    SmallVector<Value, 3> operands = {x, scale};
    if (bias)
      operands.push_back(bias);
    auto layerNorm = rewriter.create<LayerNormalizationOp>(
        fusedLocOf(matched), TypeRange{x.getType()}, operands,
        ArrayRef<NamedAttribute>{
            rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(*axis)),
            rewriter.getNamedAttr("epsilon", rewriter.getF32FloatAttr(*eps))});
    rewriter.replaceOp(result.getDefiningOp(), layerNorm.getY());
    return success();
  }
};

struct FuseLayerNormPass : impl::FuseLayerNormBase<FuseLayerNormPass> {
  using FuseLayerNormBase::FuseLayerNormBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseDecomposedLayerNorm>(&getContext());
    // Not converging within the driver's iteration cap leaves a correct,
    // partly rewritten function.
    (void)fusion::applyPatternsWhereRooted(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace geflow::passes
