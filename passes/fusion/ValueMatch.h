//===- ValueMatch.h - small matchers the vector fusions share ---*- C++ -*-===//
//
// What the LayerNorm, GELU, attention and elementwise-chain patterns ask of
// a value: is it a scalar constant (and which), which operand of a
// commutative op is the other one, is an op's only user within a set. The
// cube fusions' helpers are in FusionSupport.h.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_FUSION_VALUEMATCH_H
#define GEFLOW_PASSES_FUSION_VALUEMATCH_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace geflow::passes::fusion {

/// The value of a float32 constant with exactly one element (of any rank).
std::optional<float> scalarConstant(mlir::Value v);

/// Whether `v` is a one-element float32 constant within a relative 1e-4 of
/// `expected` (exporters round sqrt(2), 1/sqrt(2), sqrt(2/pi) differently).
bool isScalarNear(mlir::Value v, double expected);

/// The op defining `v` when it is an `OpTy` whose result has exactly one use.
template <class OpTy> OpTy soleUseProducer(mlir::Value v) {
  if (!v || !v.hasOneUse())
    return nullptr;
  return v.getDefiningOp<OpTy>();
}

/// For a two-operand op with `known` as one operand: the other one (the
/// second when both are `known`); null when `known` is not an operand.
mlir::Value otherOperand(mlir::Operation *op, mlir::Value known);

/// The user of `v` when it has exactly one use and that user is an `OpTy`.
template <class OpTy> OpTy soleUserOf(mlir::Value v) {
  if (!v || !v.hasOneUse())
    return nullptr;
  return llvm::dyn_cast<OpTy>(*v.getUsers().begin());
}

/// Whether `v` is a ranked float32 tensor with a static shape.
bool isStaticF32(mlir::Value v);

/// One location naming every op of a fused pattern (the first one's name is
/// what the OM and dumps show).
mlir::Location fusedLocOf(llvm::ArrayRef<mlir::Operation *> ops);

} // namespace geflow::passes::fusion

#endif // GEFLOW_PASSES_FUSION_VALUEMATCH_H
