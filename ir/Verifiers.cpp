//===- Verifiers.cpp - verifier helpers shared by op families ---*- C++ -*-===//

#include "ir/GeVerifiers.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::ge;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

LogicalResult mlir::ge::detail::verifyResultShape(Operation *op, unsigned index,
                                                  ArrayRef<int64_t> expected) {
  ArrayRef<int64_t> actual = shapeOf(op->getResult(index));
  bool ok = actual.size() == expected.size();
  for (size_t i = 0; ok && i < actual.size(); ++i)
    ok = ShapedType::isDynamic(actual[i]) ||
         ShapedType::isDynamic(expected[i]) || actual[i] == expected[i];
  if (ok)
    return success();
  auto diag = op->emitOpError();
  if (op->getNumResults() > 1)
    diag << "result #" << index << " has";
  else
    diag << "result has";
  return diag << " shape " << formatShape(actual) << " but expected "
              << formatShape(expected);
}

std::optional<SmallVector<int64_t>> mlir::ge::detail::getConstantInts(Value v) {
  DenseIntElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  bool isUnsigned = attr.getElementType().isUnsignedInteger();
  for (const APInt &i : attr.getValues<APInt>())
    values.push_back(isUnsigned ? (int64_t)i.getZExtValue() : i.getSExtValue());
  return values;
}

LogicalResult mlir::ge::detail::verifyBroadcastOp(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError() << "needs at least one operand";
  Shape shape(shapeOf(op->getOperand(0)));
  for (Value operand : op->getOperands().drop_front()) {
    std::string why;
    FailureOr<Shape> next = broadcastShapes(shape, shapeOf(operand), &why);
    if (failed(next))
      return op->emitOpError() << "operands do not broadcast: " << why;
    shape = *next;
  }
  return verifyResultShape(op, 0, shape);
}

LogicalResult mlir::ge::detail::verifyAxisAttr(Operation *op, StringRef name,
                                               int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return op->emitOpError()
           << "attribute '" << name << "' is " << axis
           << " but the input has rank " << rank << " (allowed range [" << -rank
           << ", " << rank << "))";
  return success();
}

LogicalResult mlir::ge::detail::verifyFlagAttr(Operation *op, StringRef name,
                                               int64_t value) {
  if (value != 0 && value != 1)
    return op->emitOpError() << "attribute '" << name << "' is " << value
                             << " but must be 0 or 1";
  return success();
}

LogicalResult mlir::ge::detail::verifyScalarOperand(Operation *op,
                                                    StringRef name, Value v) {
  if (!v)
    return success();
  int64_t n = numElements(shapeOf(v));
  if (!ShapedType::isDynamic(n) && n != 1)
    return op->emitOpError()
           << "operand '" << name << "' has shape " << formatShape(shapeOf(v))
           << " but must hold exactly one element";
  return success();
}

LogicalResult mlir::ge::detail::verifyRank1Operand(Operation *op,
                                                   StringRef name, Value v) {
  if (!v)
    return success();
  if (shapeOf(v).size() != 1)
    return op->emitOpError() << "operand '" << name << "' has rank "
                             << shapeOf(v).size() << " but must be 1-D";
  return success();
}

LogicalResult
mlir::ge::detail::verifyReduceOp(Operation *op,
                                 std::optional<ArrayRef<int64_t>> axes,
                                 int64_t keepdims, bool noopWithEmptyAxes) {
  if (failed(verifyFlagAttr(op, "keepdims", keepdims)))
    return failure();
  ArrayRef<int64_t> input = shapeOf(op->getOperand(0));
  Shape normalized;
  if (axes) {
    std::string why;
    FailureOr<Shape> n = normalizeAxes(*axes, input.size(), &why);
    if (failed(n))
      return op->emitOpError() << "attribute 'axes': " << why
                               << " for an input of rank " << input.size();
    normalized = *n;
  }
  return verifyResultShape(
      op, 0, reduceShape(input, normalized, keepdims, noopWithEmptyAxes));
}
