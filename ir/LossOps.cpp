//===- LossOps.cpp - verifiers of the loss, pick and local-norm ops -------===//
//
// The ops of GeLossOps.td, and the arg-reduce check ge.arg_max shares.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }
static bool sameDim(int64_t a, int64_t b) {
  return isDyn(a) || isDyn(b) || a == b;
}

LogicalResult mlir::ge::detail::verifyArgReduceOp(Operation *op, int64_t axis,
                                                  int64_t keepdims,
                                                  int64_t selectLastIndex) {
  ArrayRef<int64_t> data = shapeOf(op->getOperand(0));
  if (failed(verifyAxisAttr(op, "axis", axis, data.size())) ||
      failed(verifyFlagAttr(op, "keepdims", keepdims)) ||
      failed(verifyFlagAttr(op, "select_last_index", selectLastIndex)))
    return failure();
  int64_t a = *normalizeAxis(axis, data.size());
  return verifyResultShape(op, 0, reduceShape(data, {a}, keepdims));
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

/// Both losses: scores [N, C, d1..dk], classes [N, d1..dk], weight [C]; the
/// loss has the classes' shape ("none") or is a scalar.
static LogicalResult verifyLoss(Operation *op, StringRef scoresName,
                                StringRef classesName, Value scores,
                                Value classes, Value weight,
                                StringRef reduction) {
  ArrayRef<int64_t> x = shapeOf(scores), t = shapeOf(classes);
  if (x.size() < 2)
    return op->emitOpError()
           << "input '" << scoresName << "' has shape " << formatShape(x)
           << " but must be [N, C, d1..dk] (rank >= 2)";
  Shape expected{x[0]};
  expected.append(x.begin() + 2, x.end());
  bool ok = t.size() == expected.size();
  for (size_t i = 0; ok && i < t.size(); ++i)
    ok = sameDim(t[i], expected[i]);
  if (!ok)
    return op->emitOpError()
           << "input '" << classesName << "' has shape " << formatShape(t)
           << " but must be " << formatShape(expected) << " for '" << scoresName
           << "' of shape " << formatShape(x);
  if (weight) {
    ArrayRef<int64_t> w = shapeOf(weight);
    if (w.size() != 1 || !sameDim(w[0], x[1]))
      return op->emitOpError()
             << "input weight has shape " << formatShape(w) << " but must be ["
             << x[1] << "] (one weight per class)";
    if (getElementTypeOrSelf(weight) != getElementTypeOrSelf(scores))
      return op->emitOpError()
             << "the weight's element type must be the scores' one";
  }
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    return op->emitOpError() << "attribute 'reduction' is \"" << reduction
                             << "\" but must be \"none\", \"sum\" or \"mean\"";
  if (getElementTypeOrSelf(op->getResult(0)) != getElementTypeOrSelf(scores))
    return op->emitOpError()
           << "the loss's element type must be the scores' one";
  return verifyResultShape(op, 0, reduction == "none" ? expected : Shape{});
}

LogicalResult NegativeLogLikelihoodLossOp::verify() {
  return verifyLoss(*this, "input", "target", getInput(), getTarget(),
                    getWeight(), getReduction());
}

LogicalResult SoftmaxCrossEntropyLossOp::verify() {
  if (failed(verifyLoss(*this, "scores", "labels", getScores(), getLabels(),
                        getWeights(), getReduction())))
    return failure();
  if (!getLogProb())
    return success();
  if (getLogProb().getType() != getScores().getType())
    return emitOpError() << "result log_prob must have the scores' type";
  return success();
}

//===----------------------------------------------------------------------===//
// Scan, local normalisations, determinant
//===----------------------------------------------------------------------===//

LogicalResult CumSumOp::verify() {
  if (failed(verifyFlagAttr(*this, "exclusive", getExclusive())) ||
      failed(verifyFlagAttr(*this, "reverse", getReverse())) ||
      failed(verifyScalarOperand(*this, "axis", getAxis())))
    return failure();
  int64_t rank = getX().getType().getRank();
  if (rank == 0)
    return emitOpError() << "input 'x' must have rank >= 1";
  if (std::optional<SmallVector<int64_t>> axis = getConstantInts(getAxis()))
    return verifyAxisAttr(*this, "axis", (*axis)[0], rank);
  return success();
}

LogicalResult LRNOp::verify() {
  int64_t rank = getX().getType().getRank();
  if (rank < 2)
    return emitOpError() << "input 'X' has rank " << rank
                         << " but LRN needs [N, C, ...] (rank >= 2)";
  if (getSize() < 1)
    return emitOpError() << "attribute 'size' is " << getSize()
                         << " but must be >= 1";
  return success();
}

LogicalResult MeanVarianceNormalizationOp::verify() {
  int64_t rank = getX().getType().getRank();
  // ONNX's default axes [0, 2, 3] need a 4-D input.
  SmallVector<int64_t> axes{0, 2, 3};
  if (getAxes())
    axes.assign(getAxes()->begin(), getAxes()->end());
  std::string why;
  if (failed(normalizeAxes(axes, rank, &why)))
    return emitOpError() << "attribute 'axes'"
                         << (getAxes() ? "" : " (default [0, 2, 3])") << ": "
                         << why << " for an input of rank " << rank;
  return success();
}

LogicalResult DetOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getX());
  if (x.size() < 2 || !sameDim(x[x.size() - 1], x[x.size() - 2]))
    return emitOpError() << "input 'X' has shape " << formatShape(x)
                         << " but must be [*, M, M]";
  return verifyResultShape(*this, 0, x.drop_back(2));
}

LogicalResult LpNormalizationOp::verify() {
  if (failed(verifyAxisAttr(*this, "axis", getAxis(),
                            getInput().getType().getRank())))
    return failure();
  if (getP() != 1 && getP() != 2)
    return emitOpError() << "attribute 'p' is " << getP()
                         << " but must be 1 or 2";
  return success();
}

LogicalResult GlobalLpPoolOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getX());
  if (x.size() < 2)
    return emitOpError() << "input 'X' has rank " << x.size()
                         << " but GlobalLpPool needs [N, C, ...] (rank >= 2)";
  if (getP() < 1)
    return emitOpError() << "attribute 'p' is " << getP()
                         << " but must be >= 1";
  Shape expected(x.begin(), x.end());
  std::fill(expected.begin() + 2, expected.end(), 1);
  return verifyResultShape(*this, 0, expected);
}

LogicalResult LpPoolOp::verify() {
  ArrayRef<int64_t> x = shapeOf(getX());
  if (x.size() < 3)
    return emitOpError() << "input 'X' has rank " << x.size()
                         << " but LpPool needs rank >= 3";
  if (getP() < 1)
    return emitOpError() << "attribute 'p' is " << getP()
                         << " but must be >= 1";
  ArrayRef<int64_t> strides, pads;
  if (getStrides())
    strides = *getStrides();
  if (getPads())
    pads = *getPads();
  WindowParams params{getKernelShape(), strides, pads, {}, getAutoPad(), false};
  std::string why;
  FailureOr<Shape> shape = poolOutputShape(x, params, &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}
