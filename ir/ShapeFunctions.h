//===- ShapeFunctions.h - result shapes of ge ops ---------------*- C++ -*-===//
//
// Pure functions from operand shapes and attribute values to result shapes,
// shared by the op verifiers and by passes (shape inference, fusion, layout).
// A dim is `kDynamic` (ShapedType::kDynamic) when unknown; the functions
// propagate it and only fail on a contradiction they can prove. On failure,
// `why` (when given) receives a sentence for the diagnostic.
//
// Conv/pool arithmetic follows ONNX's shape inference (convPoolShapeInference)
// so that the shapes libonnx infers on import verify here.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_SHAPEFUNCTIONS_H
#define GEFLOW_IR_SHAPEFUNCTIONS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::ge {

using Shape = llvm::SmallVector<int64_t, 4>;
inline constexpr int64_t kDynamic = ShapedType::kDynamic;

/// Maps `axis` in [-rank, rank) to [0, rank).
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank,
                                 std::string *why = nullptr);

/// Maps every axis to [0, rank); fails on out-of-range or repeated axes.
FailureOr<Shape> normalizeAxes(llvm::ArrayRef<int64_t> axes, int64_t rank,
                               std::string *why = nullptr);

/// Multidirectional (numpy) broadcast of two shapes.
FailureOr<Shape> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                 llvm::ArrayRef<int64_t> b,
                                 std::string *why = nullptr);

/// Product of the dims, or kDynamic if one is dynamic. Saturates at
/// INT64_MAX: a model's dims may be anything (a fuzzed Reshape target
/// overflowed here), and no caller's arithmetic may wrap.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// Window attributes of a conv or pool, one entry per spatial dim (pads: two).
/// Empty strides/dilations mean 1, empty pads mean 0.
struct WindowParams {
  llvm::ArrayRef<int64_t> kernel;
  llvm::ArrayRef<int64_t> strides;
  llvm::ArrayRef<int64_t> pads;
  llvm::ArrayRef<int64_t> dilations;
  llvm::StringRef autoPad = "NOTSET"; // NOTSET, SAME_UPPER, SAME_LOWER, VALID
  bool ceilMode = false;
};

/// Checks attribute lengths (kernel rank = spatial rank, pads 2x, values
/// positive) against `spatialRank`.
LogicalResult verifyWindowParams(const WindowParams &params,
                                 int64_t spatialRank,
                                 std::string *why = nullptr);

/// The explicit [begin..., end...] pads a window implies for `inSpatial`
/// (computes SAME_* pads; VALID gives zeros). Dynamic dims give 0 pads.
Shape resolvePads(llvm::ArrayRef<int64_t> inSpatial,
                  const WindowParams &params);

/// Spatial output dims of a conv or pool over `inSpatial`.
FailureOr<Shape> windowOutputShape(llvm::ArrayRef<int64_t> inSpatial,
                                   const WindowParams &params,
                                   std::string *why = nullptr);

/// Full NC... output of ge.conv: [N, M = W[0], spatial...]. `kernel` may be
/// empty (taken from W). Checks channels: C == W[1] * group.
FailureOr<Shape> convOutputShape(llvm::ArrayRef<int64_t> x,
                                 llvm::ArrayRef<int64_t> w, int64_t group,
                                 const WindowParams &params,
                                 std::string *why = nullptr);

/// Full output of ge.conv_transpose: [N, W[1] * group, spatial...], from
/// `outputShape` when given, else stride*(in-1) + output_padding +
/// (k-1)*dilation + 1 - pads (SAME_*: in * stride).
FailureOr<Shape> convTransposeOutputShape(
    llvm::ArrayRef<int64_t> x, llvm::ArrayRef<int64_t> w, int64_t group,
    const WindowParams &params, llvm::ArrayRef<int64_t> outputPadding,
    llvm::ArrayRef<int64_t> outputShape, std::string *why = nullptr);

/// Full output of a pool: [N, C, spatial...].
FailureOr<Shape> poolOutputShape(llvm::ArrayRef<int64_t> x,
                                 const WindowParams &params,
                                 std::string *why = nullptr);

/// Reduction of `input` over normalised `axes` (all dims when empty, unless
/// `noopWithEmptyAxes`).
Shape reduceShape(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> axes,
                  bool keepdims, bool noopWithEmptyAxes = false);

/// numpy matmul: 1-D operands are promoted and the promoted dim removed;
/// batch dims broadcast.
FailureOr<Shape> matmulShape(llvm::ArrayRef<int64_t> a,
                             llvm::ArrayRef<int64_t> b,
                             std::string *why = nullptr);

/// Gemm: [M, N] from 2-D A and B and the transposition flags.
FailureOr<Shape> gemmShape(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b,
                           bool transA, bool transB,
                           std::string *why = nullptr);

/// ONNX Reshape: 0 copies the input dim (unless allowzero), one -1 is inferred.
FailureOr<Shape> reshapeShape(llvm::ArrayRef<int64_t> input,
                              llvm::ArrayRef<int64_t> target, bool allowzero,
                              std::string *why = nullptr);

/// ONNX Slice over constant starts/ends/axes/steps (axes, steps may be empty).
FailureOr<Shape>
sliceShape(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> starts,
           llvm::ArrayRef<int64_t> ends, llvm::ArrayRef<int64_t> axes,
           llvm::ArrayRef<int64_t> steps, std::string *why = nullptr);

/// The clamped start index and element count of one sliced dim of size `dim`
/// (static); used by the slice verifier and folder.
void sliceDim(int64_t dim, int64_t start, int64_t end, int64_t step,
              int64_t &clampedStart, int64_t &count);

/// Squeeze `axes` (all size-1 dims when empty) / insert size-1 dims at `axes`.
FailureOr<Shape> squeezeShape(llvm::ArrayRef<int64_t> input,
                              llvm::ArrayRef<int64_t> axes,
                              std::string *why = nullptr);
FailureOr<Shape> unsqueezeShape(llvm::ArrayRef<int64_t> input,
                                llvm::ArrayRef<int64_t> axes,
                                std::string *why = nullptr);

/// Transpose by `perm` (reverse when empty); fails unless perm is a
/// permutation.
FailureOr<Shape> transposeShape(llvm::ArrayRef<int64_t> input,
                                llvm::ArrayRef<int64_t> perm,
                                std::string *why = nullptr);

/// Gather: data[:axis] + indices + data[axis+1:]; axis already normalised.
Shape gatherShape(llvm::ArrayRef<int64_t> data, llvm::ArrayRef<int64_t> indices,
                  int64_t axis);

/// Concatenation along normalised `axis`; other dims must agree.
FailureOr<Shape> concatShape(llvm::ArrayRef<llvm::ArrayRef<int64_t>> inputs,
                             int64_t axis, std::string *why = nullptr);

/// "[2, 3, ?]" for diagnostics.
std::string formatShape(llvm::ArrayRef<int64_t> shape);

} // namespace mlir::ge

#endif // GEFLOW_IR_SHAPEFUNCTIONS_H
