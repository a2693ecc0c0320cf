//===- ElementwiseOps.cpp - verifiers of elementwise ge ops -----*- C++ -*-===//
//
// The broadcasting classes (add, equal, max, ...) verify through
// detail::verifyBroadcastOp; the ops here need a word more, Size and Neg
// fold and CastLike canonicalizes to Cast here.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

LogicalResult ClipOp::verify() {
  Type elementType = getInput().getType().getElementType();
  for (auto [name, bound] : {std::pair<StringRef, Value>{"min", getMin()},
                             std::pair<StringRef, Value>{"max", getMax()}}) {
    if (!bound)
      continue;
    if (failed(verifyScalarOperand(*this, name, bound)))
      return failure();
    if (getElementTypeOrSelf(bound.getType()) != elementType)
      return emitOpError() << "operand '" << name << "' has element type "
                           << getElementTypeOrSelf(bound.getType())
                           << " but the input has " << elementType;
  }
  return success();
}

LogicalResult PowOp::verify() { return verifyBroadcastOp(*this); }

LogicalResult PReluOp::verify() {
  // ONNX: slope is unidirectionally broadcastable to X.
  ArrayRef<int64_t> x = getX().getType().getShape();
  ArrayRef<int64_t> slope = getSlope().getType().getShape();
  std::string why;
  FailureOr<Shape> shape = broadcastShapes(x, slope, &why);
  if (failed(shape) || shape->size() != x.size() ||
      llvm::any_of(llvm::zip(*shape, x), [](auto pair) {
        auto [b, d] = pair;
        return !ShapedType::isDynamic(d) && b != d;
      }))
    return emitOpError() << "slope of shape " << formatShape(slope)
                         << " does not broadcast to the input shape "
                         << formatShape(x);
  return verifyResultShape(*this, 0, x);
}

LogicalResult WhereOp::verify() { return verifyBroadcastOp(*this); }

LogicalResult GeluOp::verify() {
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError() << "attribute 'approximate' is \"" << getApproximate()
                         << "\" but must be \"none\" or \"tanh\"";
  return success();
}

LogicalResult CeluOp::verify() {
  // Celu divides by alpha (ONNX leaves alpha = 0 undefined).
  if (getAlpha().isZero())
    return emitOpError() << "attribute 'alpha' must not be 0";
  return success();
}

LogicalResult IsInfOp::verify() {
  if (failed(verifyFlagAttr(*this, "detect_negative", getDetectNegative())))
    return failure();
  return verifyFlagAttr(*this, "detect_positive", getDetectPositive());
}

LogicalResult SizeOp::verify() {
  if (getSize().getType().getRank() != 0)
    return emitOpError() << "result has shape "
                         << formatShape(getSize().getType().getShape())
                         << " but Size gives a scalar";
  return success();
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  RankedTensorType data = getData().getType();
  if (!data.hasStaticShape())
    return {};
  return DenseElementsAttr::get(getSize().getType(),
                                static_cast<int64_t>(data.getNumElements()));
}

// Shape arithmetic negates constants (ONNX's expanded LayerNormalization
// negates its axis before ConstantOfShape): folded, the shapes downstream
// become static at import.
OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  if (auto ints = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getX()))
    return ints.mapValues(ints.getElementType(),
                          [](const APInt &v) { return -v; });
  if (auto floats = dyn_cast_or_null<DenseFPElementsAttr>(adaptor.getX()))
    return floats.mapValues(floats.getElementType(), [](const APFloat &v) {
      APFloat negated = v;
      negated.changeSign();
      return negated.bitcastToAPInt();
    });
  return {};
}

LogicalResult ModOp::verify() {
  if (failed(verifyFlagAttr(*this, "fmod", getFmod())))
    return failure();
  Type element = getA().getType().getElementType();
  if (isa<FloatType>(element) && getFmod() != 1)
    return emitOpError() << "on " << element
                         << " needs attribute 'fmod' = 1 (ONNX)";
  return verifyBroadcastOp(*this);
}

LogicalResult BitShiftOp::verify() {
  if (getDirection() != "LEFT" && getDirection() != "RIGHT")
    return emitOpError() << "attribute 'direction' is \"" << getDirection()
                         << "\" but must be \"LEFT\" or \"RIGHT\"";
  return verifyBroadcastOp(*this);
}

LogicalResult CastLikeOp::verify() {
  Type target = getTargetType().getType().getElementType();
  Type result = getOutput().getType().getElementType();
  if (target != result)
    return emitOpError() << "result element type " << result
                         << " is not target_type's " << target;
  return verifyResultShape(*this, 0, getInput().getType().getShape());
}

namespace {
// Only target_type's element type matters: as ge.cast the op no longer keeps
// that operand's producer alive.
struct CastLikeToCast : OpRewritePattern<CastLikeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastLikeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getOutput().getType(),
                                        op.getInput());
    return success();
  }
};
} // namespace

void CastLikeOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                             MLIRContext *context) {
  patterns.add<CastLikeToCast>(context);
}
