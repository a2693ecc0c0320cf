//===- WindowShapes.cpp - conv and pool result shapes -----------*- C++ -*-===//
//
// The window arithmetic of ir/ShapeFunctions.h, as ONNX's shape inference
// (convPoolShapeInference) does it, so that libonnx's shapes verify here.
//
//===----------------------------------------------------------------------===//

#include "ir/ShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::ge;
using llvm::ArrayRef;

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

static LogicalResult fail(std::string *why, const llvm::Twine &msg) {
  if (why)
    *why = msg.str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Windows: conv and pool
//===----------------------------------------------------------------------===//

static constexpr int64_t kMaxWindowValue = std::numeric_limits<int32_t>::max();

static int64_t at(ArrayRef<int64_t> values, size_t i, int64_t dflt) {
  return i < values.size() ? values[i] : dflt;
}

LogicalResult mlir::ge::verifyWindowParams(const WindowParams &p,
                                           int64_t spatialRank,
                                           std::string *why) {
  if (!llvm::is_contained({"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"},
                          p.autoPad))
    return fail(why,
                "auto_pad \"" + p.autoPad +
                    "\" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  auto checkList = [&](StringRef name, ArrayRef<int64_t> values,
                       int64_t expectedSize, int64_t min) -> LogicalResult {
    if (values.empty())
      return success();
    if ((int64_t)values.size() != expectedSize)
      return fail(why, name + " has " + llvm::Twine(values.size()) +
                           " values but the input has " +
                           llvm::Twine(spatialRank) +
                           " spatial dims (expected " +
                           llvm::Twine(expectedSize) + ")");
    // The upper bound keeps the window arithmetic ((k - 1) * dilation + 1,
    // in + pads) inside int64_t whatever a model declares.
    for (int64_t v : values)
      if (v < min || v > kMaxWindowValue)
        return fail(why, name + " value " + llvm::Twine(v) + " must be in [" +
                             llvm::Twine(min) + ", " +
                             llvm::Twine(kMaxWindowValue) + "]");
    return success();
  };
  if (failed(checkList("kernel_shape", p.kernel, spatialRank, 1)) ||
      failed(checkList("strides", p.strides, spatialRank, 1)) ||
      failed(checkList("dilations", p.dilations, spatialRank, 1)) ||
      failed(checkList("pads", p.pads, 2 * spatialRank, 0)))
    return failure();
  return success();
}

Shape mlir::ge::resolvePads(ArrayRef<int64_t> inSpatial,
                            const WindowParams &p) {
  size_t n = inSpatial.size();
  Shape pads(2 * n, 0);
  if (p.autoPad == "VALID")
    return pads;
  if (p.autoPad == "NOTSET") {
    for (size_t i = 0; i < 2 * n; ++i)
      pads[i] = at(p.pads, i, 0);
    return pads;
  }
  // SAME_*: ONNX pads so that out = ceil(in / stride); the odd pad goes to the
  // end (UPPER) or the beginning (LOWER).
  for (size_t i = 0; i < n; ++i) {
    if (isDyn(inSpatial[i]))
      continue;
    int64_t stride = at(p.strides, i, 1);
    int64_t effK = (at(p.kernel, i, 1) - 1) * at(p.dilations, i, 1) + 1;
    int64_t residual = stride > 1 ? inSpatial[i] % stride : 0;
    int64_t total = residual == 0 ? effK - stride : effK - residual;
    total = std::max<int64_t>(total, 0);
    int64_t small = total / 2, big = total - small;
    bool upper = p.autoPad == "SAME_UPPER";
    pads[i] = upper ? small : big;
    pads[i + n] = upper ? big : small;
  }
  return pads;
}

FailureOr<Shape> mlir::ge::windowOutputShape(ArrayRef<int64_t> inSpatial,
                                             const WindowParams &p,
                                             std::string *why) {
  size_t n = inSpatial.size();
  Shape pads = resolvePads(inSpatial, p);
  Shape out;
  for (size_t i = 0; i < n; ++i) {
    if (isDyn(inSpatial[i]) || i >= p.kernel.size()) {
      out.push_back(kDynamic);
      continue;
    }
    int64_t stride = at(p.strides, i, 1);
    int64_t effK = (p.kernel[i] - 1) * at(p.dilations, i, 1) + 1;
    int64_t effIn = inSpatial[i] + pads[i] + pads[i + n];
    if (effIn < effK) {
      (void)fail(why,
                 "window of size " + llvm::Twine(effK) +
                     " (kernel with dilation) exceeds the padded input size " +
                     llvm::Twine(effIn) + " at spatial dim " + llvm::Twine(i));
      return failure();
    }
    int64_t positions = p.ceilMode ? (effIn - effK + stride - 1) / stride
                                   : (effIn - effK) / stride;
    out.push_back(1 + positions);
  }
  return out;
}

/// The checks Conv and ConvTranspose share: ranks of X and W, group, and the
/// window attributes against the spatial rank.
static LogicalResult verifyConvOperands(ArrayRef<int64_t> x,
                                        ArrayRef<int64_t> w, int64_t group,
                                        const WindowParams &params,
                                        llvm::StringRef opName,
                                        std::string *why) {
  if (x.size() < 3)
    return fail(why, "input 'X' has rank " + llvm::Twine(x.size()) + " but " +
                         opName + " needs rank >= 3");
  if (w.size() != x.size())
    return fail(why, "weight 'W' has rank " + llvm::Twine(w.size()) +
                         " but the input 'X' has rank " +
                         llvm::Twine(x.size()));
  if (group < 1)
    return fail(why, "group " + llvm::Twine(group) + " must be >= 1");
  return verifyWindowParams(params, x.size() - 2, why);
}

FailureOr<Shape> mlir::ge::convOutputShape(ArrayRef<int64_t> x,
                                           ArrayRef<int64_t> w, int64_t group,
                                           const WindowParams &params,
                                           std::string *why) {
  if (failed(verifyConvOperands(x, w, group, params, "Conv", why)))
    return failure();
  int64_t spatialRank = x.size() - 2;
  if (!isDyn(x[1]) && !isDyn(w[1]) && x[1] != w[1] * group) {
    (void)fail(why,
               "input 'X' has " + llvm::Twine(x[1]) +
                   " channels but W[1] * group = " + llvm::Twine(w[1] * group));
    return failure();
  }
  if (!isDyn(w[0]) && w[0] % group != 0) {
    (void)fail(why, "weight 'W' has " + llvm::Twine(w[0]) +
                        " output channels, not a multiple of group " +
                        llvm::Twine(group));
    return failure();
  }
  Shape kernel(w.begin() + 2, w.end());
  for (size_t i = 0; i < params.kernel.size(); ++i) {
    if (!isDyn(kernel[i]) && kernel[i] != params.kernel[i]) {
      (void)fail(why, "kernel_shape " + formatShape(params.kernel) +
                          " does not match the weight's spatial dims " +
                          formatShape(kernel));
      return failure();
    }
    kernel[i] = params.kernel[i];
  }
  WindowParams p = params;
  p.kernel = kernel;
  if (llvm::any_of(kernel, isDyn)) {
    Shape out{x[0], w[0]};
    out.append(spatialRank, kDynamic);
    return out;
  }
  FailureOr<Shape> spatial = windowOutputShape(x.drop_front(2), p, why);
  if (failed(spatial))
    return failure();
  Shape out{x[0], w[0]};
  out.append(spatial->begin(), spatial->end());
  return out;
}

FailureOr<Shape> mlir::ge::convTransposeOutputShape(
    ArrayRef<int64_t> x, ArrayRef<int64_t> w, int64_t group,
    const WindowParams &params, ArrayRef<int64_t> outputPadding,
    ArrayRef<int64_t> outputShape, std::string *why) {
  if (failed(verifyConvOperands(x, w, group, params, "ConvTranspose", why)))
    return failure();
  int64_t spatialRank = x.size() - 2;
  if (!outputPadding.empty() && (int64_t)outputPadding.size() != spatialRank) {
    (void)fail(why, "output_padding has " + llvm::Twine(outputPadding.size()) +
                        " values but the input has " +
                        llvm::Twine(spatialRank) + " spatial dims");
    return failure();
  }
  if (!outputShape.empty() && (int64_t)outputShape.size() != spatialRank &&
      outputShape.size() != x.size()) {
    (void)fail(why, "output_shape has " + llvm::Twine(outputShape.size()) +
                        " values but the input has " +
                        llvm::Twine(spatialRank) + " spatial dims");
    return failure();
  }
  if (!isDyn(x[1]) && !isDyn(w[0]) && x[1] != w[0]) {
    (void)fail(why, "input 'X' has " + llvm::Twine(x[1]) +
                        " channels but the weight 'W' has " +
                        llvm::Twine(w[0]));
    return failure();
  }
  Shape out{x[0], isDyn(w[1]) ? kDynamic : w[1] * group};
  for (int64_t i = 0; i < spatialRank; ++i) {
    if (!outputShape.empty()) {
      out.push_back(outputShape[outputShape.size() - spatialRank + i]);
      continue;
    }
    int64_t in = x[2 + i];
    int64_t k = at(params.kernel, i, w[2 + i]);
    if (isDyn(in) || isDyn(k)) {
      out.push_back(kDynamic);
      continue;
    }
    int64_t stride = at(params.strides, i, 1);
    if (params.autoPad == "SAME_UPPER" || params.autoPad == "SAME_LOWER") {
      out.push_back(in * stride);
      continue;
    }
    int64_t padSum =
        params.autoPad == "VALID"
            ? 0
            : at(params.pads, i, 0) + at(params.pads, i + spatialRank, 0);
    int64_t dim = stride * (in - 1) + at(outputPadding, i, 0) +
                  (k - 1) * at(params.dilations, i, 1) + 1 - padSum;
    if (dim < 1) {
      (void)fail(why, "output spatial dim " + llvm::Twine(i) + " would be " +
                          llvm::Twine(dim));
      return failure();
    }
    out.push_back(dim);
  }
  return out;
}

FailureOr<Shape> mlir::ge::poolOutputShape(ArrayRef<int64_t> x,
                                           const WindowParams &params,
                                           std::string *why) {
  if (x.size() < 3) {
    (void)fail(why, "input 'X' has rank " + llvm::Twine(x.size()) +
                        " but pooling needs rank >= 3");
    return failure();
  }
  if (params.kernel.empty()) {
    (void)fail(why, "kernel_shape is required");
    return failure();
  }
  if (failed(verifyWindowParams(params, x.size() - 2, why)))
    return failure();
  FailureOr<Shape> spatial = windowOutputShape(x.drop_front(2), params, why);
  if (failed(spatial))
    return failure();
  Shape out{x[0], x[1]};
  out.append(spatial->begin(), spatial->end());
  return out;
}
