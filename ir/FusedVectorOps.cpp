//===- FusedVectorOps.cpp - verifiers of the fused vector ge ops --------===//
//
// ge.fused_attention and ge.fused_elementwise (ir/GeFusedOps.td), which the
// vector fusion passes create. The kernels
// (executor/kernels/gemm/Attention.cpp, FusedElementwise.cpp) rely on what is
// checked here.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"
#include "ir/OpFacts.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// Dims that are both known must be equal.
static bool sameDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

//===----------------------------------------------------------------------===//
// fused_attention
//===----------------------------------------------------------------------===//

LogicalResult FusedAttentionOp::verify() {
  if (failed(verifyFlagAttr(*this, "k_transposed", getKTransposed())))
    return failure();
  ArrayRef<int64_t> q = shapeOf(getQ()), k = shapeOf(getK()),
                    v = shapeOf(getV());
  size_t rank = q.size();
  if (rank < 2)
    return emitOpError() << "Q has rank " << rank << " but needs rank >= 2";
  if (k.size() != rank || v.size() != rank)
    return emitOpError() << "Q, K and V must have the same rank, got "
                         << formatShape(q) << ", " << formatShape(k) << " and "
                         << formatShape(v);
  for (size_t d = 0; d + 2 < rank; ++d)
    if (!sameDim(q[d], k[d]) || !sameDim(q[d], v[d]))
      return emitOpError() << "Q, K and V must have the same batch dims, got "
                           << formatShape(q) << ", " << formatShape(k)
                           << " and " << formatShape(v);
  bool kT = getKTransposed() != 0;
  int64_t kDepth = k[rank - (kT ? 2 : 1)], kLen = k[rank - (kT ? 1 : 2)];
  if (!sameDim(q[rank - 1], kDepth))
    return emitOpError() << "K " << formatShape(k) << (kT ? " (as K^T)" : "")
                         << " does not match the depth of Q " << formatShape(q);
  if (!sameDim(kLen, v[rank - 2]))
    return emitOpError() << "V " << formatShape(v)
                         << " does not have one row per key of K "
                         << formatShape(k);
  Shape scores(q);
  scores.back() = kLen;
  if (Value mask = getMask()) {
    // Unidirectional: the mask takes the scores' shape, never widens it.
    FailureOr<Shape> b = broadcastShapes(scores, shapeOf(mask));
    if (failed(b) || !llvm::equal(*b, scores, sameDim))
      return emitOpError() << "mask " << formatShape(shapeOf(mask))
                           << " does not broadcast to the scores "
                           << formatShape(scores);
  }
  Shape result(q);
  result.back() = v[rank - 1];
  if (std::optional<ArrayRef<int64_t>> perm = getYPerm()) {
    std::string why;
    FailureOr<Shape> permuted = transposeShape(result, *perm, &why);
    if (failed(permuted))
      return emitOpError() << "y_perm: " << why;
    if (perm->size() != rank || perm->back() != static_cast<int64_t>(rank) - 1)
      return emitOpError() << "y_perm must list every dim and keep the last "
                              "one last";
    result = *permuted;
  }
  // The result may also merge dims of that tensor (a reshape absorbed): the
  // kernel writes it row-major either way.
  auto type = cast<RankedTensorType>(getY().getType());
  if (type.hasStaticShape() && type.getShape() != ArrayRef<int64_t>(result) &&
      type.getNumElements() == mlir::ge::numElements(result))
    return success();
  return verifyResultShape(*this, 0, result);
}

//===----------------------------------------------------------------------===//
// fused_elementwise
//===----------------------------------------------------------------------===//

LogicalResult FusedElementwiseOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  ArrayAttr steps = getSteps();
  ArrayRef<int64_t> refs = getStepOperands();
  int64_t numSteps = steps.size();
  if (numSteps == 0)
    return emitOpError() << "needs at least one step";
  if (static_cast<int64_t>(refs.size()) != 2 * numSteps)
    return emitOpError() << "has " << refs.size()
                         << " step_operands but needs 2 per step ("
                         << 2 * numSteps << ")";
  if (std::optional<ArrayRef<float>> params = getStepParams();
      params && static_cast<int64_t>(params->size()) != 2 * numSteps)
    return emitOpError() << "has " << params->size()
                         << " step_params but needs 2 per step ("
                         << 2 * numSteps << ")";
  int64_t numInputs = getInputs().size();
  for (int64_t j = 0; j < numSteps; ++j) {
    StringRef name = cast<StringAttr>(steps[j]).getValue();
    int arity = elementwiseStepArity(name);
    if (arity == 0)
      return emitOpError() << "step " << j << " (\"" << name
                           << "\") is not an elementwise op it can evaluate";
    // Step j may read the inputs and the steps before it.
    for (int s = 0; s < 2; ++s) {
      int64_t ref = refs[2 * j + s];
      if (s >= arity) {
        if (ref != -1)
          return emitOpError() << "step " << j << " (\"" << name
                               << "\") is unary; its second operand must be -1";
        continue;
      }
      if (ref < 0 || ref >= numInputs + j)
        return emitOpError()
               << "step " << j << " (\"" << name << "\") reads value " << ref
               << ", which is not an input or an earlier step";
    }
  }
  return verifyBroadcastOp(*this);
}

//===----------------------------------------------------------------------===//
// as_strided
//===----------------------------------------------------------------------===//

LogicalResult AsStridedOp::verify() {
  auto result = cast<RankedTensorType>(getY().getType());
  auto input = cast<RankedTensorType>(getX().getType());
  ArrayRef<int64_t> strides = getStrides();
  if (static_cast<int64_t>(strides.size()) != result.getRank())
    return emitOpError() << "has " << strides.size()
                         << " strides but the result has rank "
                         << result.getRank();
  if (getOffset() < 0 || llvm::any_of(strides, [](int64_t s) { return s < 0; }))
    return emitOpError() << "offset and strides must be >= 0";
  if (!result.hasStaticShape() || !input.hasStaticShape() ||
      result.getNumElements() == 0)
    return success();
  // The last element read must lie inside X.
  int64_t last = getOffset();
  for (auto [size, stride] : llvm::zip(result.getShape(), strides))
    last += (size - 1) * stride;
  if (last >= input.getNumElements())
    return emitOpError() << "reads element " << last << " of an input of "
                         << input.getNumElements() << " elements";
  return success();
}
