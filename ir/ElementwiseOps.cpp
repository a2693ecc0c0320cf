//===- ElementwiseOps.cpp - verifiers of elementwise ge ops -----*- C++ -*-===//
//
// The broadcasting classes (add, equal, max, ...) verify through
// detail::verifyBroadcastOp; the ops here need a word more.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

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
