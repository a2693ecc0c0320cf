//===- ValueMatch.cpp -----------------------------------------------------===//

#include "passes/fusion/ValueMatch.h"

#include "passes/fusion/FusionSupport.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

#include <cmath>

using namespace mlir;

namespace geflow::passes::fusion {

std::optional<float> scalarConstant(Value v) {
  std::optional<FloatConstant> c = getFloatConstant(v);
  if (!c || c->values.size() != 1)
    return std::nullopt;
  return c->values[0];
}

bool isScalarNear(Value v, double expected) {
  std::optional<float> c = scalarConstant(v);
  return c && std::abs(*c - expected) <= 1e-4 * std::abs(expected);
}

Value otherOperand(Operation *op, Value known) {
  if (op->getNumOperands() != 2)
    return Value();
  if (op->getOperand(1) == known)
    return op->getOperand(0);
  if (op->getOperand(0) == known)
    return op->getOperand(1);
  return Value();
}

bool isStaticF32(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

Location fusedLocOf(ArrayRef<Operation *> ops) {
  SmallVector<Location> locs;
  for (Operation *op : ops)
    locs.push_back(op->getLoc());
  return FusedLoc::get(ops.front()->getContext(), locs);
}

} // namespace geflow::passes::fusion
