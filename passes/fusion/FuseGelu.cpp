//===- FuseGelu.cpp - decomposed GELU -> ge.gelu
//---------------------------===//
//
// Pipeline step 3, op fusion (docs/architecture.md). Exporters before ONNX 20
// write GELU as
//   erf form:  0.5 * x * (1 + Erf(x / sqrt(2)))      (x * (1/sqrt 2) too)
//   tanh form: 0.5 * x * (1 + Tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
// with x^3 as Pow(x, 3), x * (x * x) or (x * x) * x, and the outer product
// in any of the orders exporters use: (x * a) * 0.5, (x * 0.5) * a,
// (a * 0.5) * x, each operand pair in either order. Every intermediate must
// have no other user. The result is ge.gelu {approximate = "none" | "tanh"},
// which ge-fuse-bias-activation can then fold into a preceding matmul.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEGELU
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;
using namespace fusion;

/// The x that `u` scales when u = x / c or u = x * (1/c), used only once.
Value dividedBy(Value u, double c) {
  if (auto div = soleUseProducer<DivOp>(u); div && isScalarNear(div.getB(), c))
    return div.getA();
  if (auto mul = soleUseProducer<MulOp>(u)) {
    if (isScalarNear(mul.getB(), 1.0 / c))
      return mul.getA();
    if (isScalarNear(mul.getA(), 1.0 / c))
      return mul.getB();
  }
  return Value();
}

/// Whether `v` is x^3: Pow(x, 3), x * (x * x) or (x * x) * x.
bool isCubeOf(Value v, Value x) {
  if (auto pow = soleUseProducer<PowOp>(v))
    return pow.getX() == x && isScalarNear(pow.getY(), 3.0);
  auto mul = soleUseProducer<MulOp>(v);
  if (!mul)
    return false;
  Value square = otherOperand(mul, x);
  auto inner = soleUseProducer<MulOp>(square);
  return inner && inner.getA() == x && inner.getB() == x;
}

/// The x of `u` = sqrt(2/pi) * (x + 0.044715 * x^3), the tanh form's input.
Value tanhArgument(Value u) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  auto scaled = soleUseProducer<MulOp>(u);
  if (!scaled)
    return Value();
  Value inner = isScalarNear(scaled.getA(), kSqrt2OverPi)   ? scaled.getB()
                : isScalarNear(scaled.getB(), kSqrt2OverPi) ? scaled.getA()
                                                            : Value();
  auto sum = soleUseProducer<AddOp>(inner);
  if (!sum)
    return Value();
  for (Value x : {sum.getA(), sum.getB()}) {
    auto cubic = soleUseProducer<MulOp>(otherOperand(sum, x));
    if (!cubic)
      continue;
    for (Value c : {cubic.getA(), cubic.getB()})
      if (isScalarNear(c, 0.044715) && isCubeOf(otherOperand(cubic, c), x))
        return x;
  }
  return Value();
}

/// The op computing 0.5 * x * a, where `a` = 1 + erf(...) or 1 + tanh(...)
/// has one use; null when the uses of `a` are something else.
Operation *halfXTimes(Value a, Value x) {
  auto first = soleUserOf<MulOp>(a);
  if (!first)
    return nullptr;
  Value other = otherOperand(first, a);
  // (x * a) * 0.5  or  (a * 0.5) * x
  if (other == x || isScalarNear(other, 0.5)) {
    auto second = soleUserOf<MulOp>(first.getC());
    if (!second)
      return nullptr;
    Value last = otherOperand(second, first.getC());
    bool ok = other == x ? isScalarNear(last, 0.5) : last == x;
    return ok ? second.getOperation() : nullptr;
  }
  // (x * 0.5) * a
  auto half = soleUseProducer<MulOp>(other);
  if (half && ((half.getA() == x && isScalarNear(half.getB(), 0.5)) ||
               (half.getB() == x && isScalarNear(half.getA(), 0.5))))
    return first;
  return nullptr;
}

/// Anchored on the Erf or the Tanh: x from its argument, then 1 + it, then
/// the product with 0.5 * x.
template <class CoreOp> struct FuseDecomposedGelu : OpRewritePattern<CoreOp> {
  using OpRewritePattern<CoreOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(CoreOp core,
                                PatternRewriter &rewriter) const override {
    constexpr bool kErf = std::is_same_v<CoreOp, ErfOp>;
    Value x = kErf ? dividedBy(core.getX(), std::sqrt(2.0))
                   : tanhArgument(core.getX());
    if (!x || !isStaticF32(x))
      return rewriter.notifyMatchFailure(core, "not a GELU argument");
    auto plusOne = soleUserOf<AddOp>(core.getY());
    if (!plusOne || !isScalarNear(otherOperand(plusOne, core.getY()), 1.0))
      return rewriter.notifyMatchFailure(core, "not 1 + the core");
    Operation *root = halfXTimes(plusOne.getC(), x);
    if (!root || root->getResult(0).getType() != x.getType())
      return rewriter.notifyMatchFailure(core, "not 0.5 * x * (1 + core)");
    rewriter.setInsertionPoint(root);
    auto gelu = rewriter.create<GeluOp>(
        fusedLocOf({core, plusOne, root}), x.getType(), x,
        rewriter.getStringAttr(kErf ? "none" : "tanh"));
    rewriter.replaceOp(root, gelu.getY());
    return success();
  }
};

struct FuseGeluPass : impl::FuseGeluBase<FuseGeluPass> {
  using FuseGeluBase::FuseGeluBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseDecomposedGelu<ErfOp>, FuseDecomposedGelu<TanhOp>>(
        &getContext());
    (void)fusion::applyPatternsWhereRooted(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace geflow::passes
