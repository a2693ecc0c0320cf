//===- GeVerifiers.h - verifier helpers shared by op families ---*- C++ -*-===//
//
// Internal to ir/: the op classes of GeOps.td call these from their verify().
// Every diagnostic goes through emitOpError, so it names the op.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEVERIFIERS_H
#define GEFLOW_IR_GEVERIFIERS_H

#include "ir/ShapeFunctions.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <optional>

namespace mlir::ge::detail {

/// Results must have the multidirectional broadcast shape of the tensor
/// operands (all of them; for ge.where too).
LogicalResult verifyBroadcastOp(Operation *op);

/// A reduction over `axes` (all dims when absent) of operand 0 into result 0.
/// `noopWithEmptyAxes` keeps the shape when axes are absent.
LogicalResult verifyReduceOp(Operation *op,
                             std::optional<ArrayRef<int64_t>> axes,
                             int64_t keepdims, bool noopWithEmptyAxes);

/// ge.arg_max / ge.arg_min: `axis` of operand 0, flags, and the reduced
/// result shape.
LogicalResult verifyArgReduceOp(Operation *op, int64_t axis, int64_t keepdims,
                                int64_t selectLastIndex);

/// `axis` must lie in [-rank, rank).
LogicalResult verifyAxisAttr(Operation *op, StringRef name, int64_t axis,
                             int64_t rank);

/// Result `index` must be compatible with `expected` (kDynamic = unknown) in
/// rank and in every static dim; the message shows both shapes.
LogicalResult verifyResultShape(Operation *op, unsigned index,
                                ArrayRef<int64_t> expected);

/// The values of `v` when it is produced by a constant with integer elements.
std::optional<SmallVector<int64_t>> getConstantInts(Value v);

/// `value` (an attribute named `name`) must be 0 or 1.
LogicalResult verifyFlagAttr(Operation *op, StringRef name, int64_t value);

/// `v` must hold exactly one element (a scalar or a 1-element tensor) when
/// its shape is static.
LogicalResult verifyScalarOperand(Operation *op, StringRef name, Value v);

/// `v` must be a 1-D tensor (shape-like operand such as Reshape's shape).
LogicalResult verifyRank1Operand(Operation *op, StringRef name, Value v);

} // namespace mlir::ge::detail

#endif // GEFLOW_IR_GEVERIFIERS_H
