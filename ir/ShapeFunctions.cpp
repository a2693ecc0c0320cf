//===- ShapeFunctions.cpp - result shapes of ge ops -------------*- C++ -*-===//

#include "ir/ShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::ge;
using llvm::ArrayRef;

static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// Sets `*why` (when asked for) and returns failure.
static LogicalResult fail(std::string *why, const llvm::Twine &msg) {
  if (why)
    *why = msg.str();
  return failure();
}

std::string mlir::ge::formatShape(ArrayRef<int64_t> shape) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '[';
  llvm::interleaveComma(shape, os, [&](int64_t d) {
    if (isDyn(d))
      os << '?';
    else
      os << d;
  });
  os << ']';
  return s;
}

int64_t mlir::ge::numElements(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (isDyn(d))
      return kDynamic;
    n *= d;
  }
  return n;
}

FailureOr<int64_t> mlir::ge::normalizeAxis(int64_t axis, int64_t rank,
                                           std::string *why) {
  if (axis < -rank || axis >= rank) {
    (void)fail(why, "axis " + llvm::Twine(axis) + " is out of range [" +
                        llvm::Twine(-rank) + ", " + llvm::Twine(rank) + ")");
    return failure();
  }
  return axis < 0 ? axis + rank : axis;
}

FailureOr<Shape> mlir::ge::normalizeAxes(ArrayRef<int64_t> axes, int64_t rank,
                                         std::string *why) {
  Shape out;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(axis, rank, why);
    if (failed(a))
      return failure();
    if (llvm::is_contained(out, *a)) {
      (void)fail(why, "axis " + llvm::Twine(axis) + " is repeated");
      return failure();
    }
    out.push_back(*a);
  }
  return out;
}

FailureOr<Shape> mlir::ge::broadcastShapes(ArrayRef<int64_t> a,
                                           ArrayRef<int64_t> b,
                                           std::string *why) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x == 1) {
      out[i] = y;
    } else if (y == 1) {
      out[i] = x;
    } else if (isDyn(x)) {
      out[i] = y;
    } else if (isDyn(y) || x == y) {
      out[i] = x;
    } else {
      (void)fail(why, "shapes " + formatShape(a) + " and " + formatShape(b) +
                          " do not broadcast (" + llvm::Twine(x) + " vs " +
                          llvm::Twine(y) + ")");
      return failure();
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Windows: conv and pool
//===----------------------------------------------------------------------===//

static int64_t at(ArrayRef<int64_t> values, size_t i, int64_t dflt) {
  return i < values.size() ? values[i] : dflt;
}

LogicalResult mlir::ge::verifyWindowParams(const WindowParams &p,
                                           int64_t spatialRank,
                                           std::string *why) {
  if (!llvm::is_contained({"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"},
                          p.autoPad))
    return fail(why, "auto_pad \"" + p.autoPad +
                         "\" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  auto checkList = [&](StringRef name, ArrayRef<int64_t> values,
                       int64_t expectedSize, int64_t min) -> LogicalResult {
    if (values.empty())
      return success();
    if ((int64_t)values.size() != expectedSize)
      return fail(why, name + " has " + llvm::Twine(values.size()) +
                           " values but the input has " +
                           llvm::Twine(spatialRank) + " spatial dims (expected " +
                           llvm::Twine(expectedSize) + ")");
    for (int64_t v : values)
      if (v < min)
        return fail(why, name + " value " + llvm::Twine(v) + " must be >= " +
                             llvm::Twine(min));
    return success();
  };
  if (failed(checkList("kernel_shape", p.kernel, spatialRank, 1)) ||
      failed(checkList("strides", p.strides, spatialRank, 1)) ||
      failed(checkList("dilations", p.dilations, spatialRank, 1)) ||
      failed(checkList("pads", p.pads, 2 * spatialRank, 0)))
    return failure();
  return success();
}

Shape mlir::ge::resolvePads(ArrayRef<int64_t> inSpatial, const WindowParams &p) {
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
      (void)fail(why, "window of size " + llvm::Twine(effK) +
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

FailureOr<Shape> mlir::ge::convOutputShape(ArrayRef<int64_t> x,
                                           ArrayRef<int64_t> w, int64_t group,
                                           const WindowParams &params,
                                           std::string *why) {
  if (x.size() < 3) {
    (void)fail(why, "input 'X' has rank " + llvm::Twine(x.size()) +
                        " but Conv needs rank >= 3");
    return failure();
  }
  if (w.size() != x.size()) {
    (void)fail(why, "weight 'W' has rank " + llvm::Twine(w.size()) +
                        " but the input 'X' has rank " + llvm::Twine(x.size()));
    return failure();
  }
  if (group < 1) {
    (void)fail(why, "group " + llvm::Twine(group) + " must be >= 1");
    return failure();
  }
  int64_t spatialRank = x.size() - 2;
  if (failed(verifyWindowParams(params, spatialRank, why)))
    return failure();
  if (!isDyn(x[1]) && !isDyn(w[1]) && x[1] != w[1] * group) {
    (void)fail(why, "input 'X' has " + llvm::Twine(x[1]) +
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
  if (x.size() < 3) {
    (void)fail(why, "input 'X' has rank " + llvm::Twine(x.size()) +
                        " but ConvTranspose needs rank >= 3");
    return failure();
  }
  if (w.size() != x.size()) {
    (void)fail(why, "weight 'W' has rank " + llvm::Twine(w.size()) +
                        " but the input 'X' has rank " + llvm::Twine(x.size()));
    return failure();
  }
  if (group < 1) {
    (void)fail(why, "group " + llvm::Twine(group) + " must be >= 1");
    return failure();
  }
  int64_t spatialRank = x.size() - 2;
  if (failed(verifyWindowParams(params, spatialRank, why)))
    return failure();
  if (!outputPadding.empty() && (int64_t)outputPadding.size() != spatialRank) {
    (void)fail(why, "output_padding has " + llvm::Twine(outputPadding.size()) +
                        " values but the input has " + llvm::Twine(spatialRank) +
                        " spatial dims");
    return failure();
  }
  if (!outputShape.empty() && (int64_t)outputShape.size() != spatialRank &&
      outputShape.size() != x.size()) {
    (void)fail(why, "output_shape has " + llvm::Twine(outputShape.size()) +
                        " values but the input has " + llvm::Twine(spatialRank) +
                        " spatial dims");
    return failure();
  }
  if (!isDyn(x[1]) && !isDyn(w[0]) && x[1] != w[0]) {
    (void)fail(why, "input 'X' has " + llvm::Twine(x[1]) +
                        " channels but the weight 'W' has " + llvm::Twine(w[0]));
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
    int64_t padSum = params.autoPad == "VALID"
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

//===----------------------------------------------------------------------===//
// Reductions and matrix products
//===----------------------------------------------------------------------===//

Shape mlir::ge::reduceShape(ArrayRef<int64_t> input, ArrayRef<int64_t> axes,
                            bool keepdims, bool noopWithEmptyAxes) {
  if (axes.empty() && noopWithEmptyAxes)
    return Shape(input.begin(), input.end());
  Shape out;
  for (int64_t i = 0, e = input.size(); i < e; ++i) {
    bool reduced = axes.empty() || llvm::is_contained(axes, i);
    if (!reduced)
      out.push_back(input[i]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

FailureOr<Shape> mlir::ge::matmulShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                       std::string *why) {
  if (a.empty() || b.empty()) {
    (void)fail(why, "MatMul operands must have rank >= 1");
    return failure();
  }
  Shape a2(a.begin(), a.end()), b2(b.begin(), b.end());
  if (a.size() == 1)
    a2.insert(a2.begin(), 1);
  if (b.size() == 1)
    b2.push_back(1);
  int64_t ka = a2.back(), kb = b2[b2.size() - 2];
  if (!isDyn(ka) && !isDyn(kb) && ka != kb) {
    (void)fail(why, "inner dims differ: A " + formatShape(a) + " has K = " +
                        llvm::Twine(ka) + " but B " + formatShape(b) +
                        " has K = " + llvm::Twine(kb));
    return failure();
  }
  FailureOr<Shape> batch = broadcastShapes(ArrayRef(a2).drop_back(2),
                                           ArrayRef(b2).drop_back(2), why);
  if (failed(batch))
    return failure();
  Shape out = *batch;
  if (a.size() != 1)
    out.push_back(a2[a2.size() - 2]);
  if (b.size() != 1)
    out.push_back(b2.back());
  return out;
}

FailureOr<Shape> mlir::ge::gemmShape(ArrayRef<int64_t> a, ArrayRef<int64_t> b,
                                     bool transA, bool transB, std::string *why) {
  if (a.size() != 2 || b.size() != 2) {
    (void)fail(why, "Gemm needs 2-D A and B, got " + formatShape(a) + " and " +
                        formatShape(b));
    return failure();
  }
  int64_t m = transA ? a[1] : a[0], ka = transA ? a[0] : a[1];
  int64_t kb = transB ? b[1] : b[0], n = transB ? b[0] : b[1];
  if (!isDyn(ka) && !isDyn(kb) && ka != kb) {
    (void)fail(why, "inner dims differ: op(A) has K = " + llvm::Twine(ka) +
                        " but op(B) has K = " + llvm::Twine(kb));
    return failure();
  }
  return Shape{m, n};
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

FailureOr<Shape> mlir::ge::reshapeShape(ArrayRef<int64_t> input,
                                        ArrayRef<int64_t> target, bool allowzero,
                                        std::string *why) {
  Shape out;
  int64_t inferIndex = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == -1) {
      if (inferIndex >= 0) {
        (void)fail(why, "shape " + formatShape(target) + " has more than one -1");
        return failure();
      }
      inferIndex = i;
      out.push_back(kDynamic);
    } else if (d < -1) {
      (void)fail(why, "shape " + formatShape(target) + " has invalid dim " +
                          llvm::Twine(d));
      return failure();
    } else if (d == 0 && !allowzero) {
      if (i >= input.size()) {
        (void)fail(why, "shape " + formatShape(target) + " copies dim " +
                            llvm::Twine(i) + " (0) but the input has rank " +
                            llvm::Twine(input.size()));
        return failure();
      }
      out.push_back(input[i]);
    } else {
      out.push_back(d);
    }
  }
  if (allowzero && inferIndex >= 0 && llvm::is_contained(target, 0)) {
    (void)fail(why, "shape " + formatShape(target) +
                        " has both 0 and -1 with allowzero = 1");
    return failure();
  }
  int64_t total = numElements(input);
  int64_t known = 1;
  bool knownStatic = true;
  for (size_t i = 0; i < out.size(); ++i) {
    if ((int64_t)i == inferIndex)
      continue;
    if (isDyn(out[i]))
      knownStatic = false;
    else
      known *= out[i];
  }
  if (isDyn(total) || !knownStatic)
    return out;
  if (inferIndex >= 0) {
    if (known == 0 || total % known != 0) {
      (void)fail(why, "cannot reshape " + formatShape(input) + " (" +
                          llvm::Twine(total) + " elements) into " +
                          formatShape(target));
      return failure();
    }
    out[inferIndex] = total / known;
  } else if (known != total) {
    (void)fail(why, "cannot reshape " + formatShape(input) + " (" +
                        llvm::Twine(total) + " elements) into " +
                        formatShape(out) + " (" + llvm::Twine(known) +
                        " elements)");
    return failure();
  }
  return out;
}

void mlir::ge::sliceDim(int64_t dim, int64_t start, int64_t end, int64_t step,
                        int64_t &clampedStart, int64_t &count) {
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    count = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    count = start > end ? (start - end - step - 1) / -step : 0;
  }
  clampedStart = start;
}

FailureOr<Shape> mlir::ge::sliceShape(ArrayRef<int64_t> input,
                                      ArrayRef<int64_t> starts,
                                      ArrayRef<int64_t> ends,
                                      ArrayRef<int64_t> axes,
                                      ArrayRef<int64_t> steps, std::string *why) {
  size_t n = starts.size();
  if (ends.size() != n || (!axes.empty() && axes.size() != n) ||
      (!steps.empty() && steps.size() != n)) {
    (void)fail(why, "starts, ends, axes and steps must have the same length (" +
                        llvm::Twine(n) + ")");
    return failure();
  }
  Shape axesVec;
  if (axes.empty()) {
    if ((int64_t)n > (int64_t)input.size()) {
      (void)fail(why, "starts has " + llvm::Twine(n) +
                          " values but the input has rank " +
                          llvm::Twine(input.size()));
      return failure();
    }
    for (size_t i = 0; i < n; ++i)
      axesVec.push_back(i);
  } else {
    FailureOr<Shape> a = normalizeAxes(axes, input.size(), why);
    if (failed(a))
      return failure();
    axesVec = *a;
  }
  Shape out(input.begin(), input.end());
  for (size_t i = 0; i < n; ++i) {
    int64_t step = steps.empty() ? 1 : steps[i];
    if (step == 0) {
      (void)fail(why, "steps must not be 0");
      return failure();
    }
    int64_t dim = input[axesVec[i]];
    if (isDyn(dim)) {
      out[axesVec[i]] = kDynamic;
      continue;
    }
    int64_t start, count;
    sliceDim(dim, starts[i], ends[i], step, start, count);
    out[axesVec[i]] = count;
  }
  return out;
}

FailureOr<Shape> mlir::ge::squeezeShape(ArrayRef<int64_t> input,
                                        ArrayRef<int64_t> axes,
                                        std::string *why) {
  Shape out;
  if (axes.empty()) {
    for (int64_t d : input)
      if (d != 1)
        out.push_back(d);
    return out;
  }
  FailureOr<Shape> norm = normalizeAxes(axes, input.size(), why);
  if (failed(norm))
    return failure();
  for (int64_t i = 0, e = input.size(); i < e; ++i) {
    if (!llvm::is_contained(*norm, i)) {
      out.push_back(input[i]);
    } else if (!isDyn(input[i]) && input[i] != 1) {
      (void)fail(why, "cannot squeeze dim " + llvm::Twine(i) + " of size " +
                          llvm::Twine(input[i]));
      return failure();
    }
  }
  return out;
}

FailureOr<Shape> mlir::ge::unsqueezeShape(ArrayRef<int64_t> input,
                                          ArrayRef<int64_t> axes,
                                          std::string *why) {
  int64_t rank = input.size() + axes.size();
  FailureOr<Shape> norm = normalizeAxes(axes, rank, why);
  if (failed(norm))
    return failure();
  Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < rank; ++i)
    out.push_back(llvm::is_contained(*norm, i) ? 1 : input[next++]);
  return out;
}

FailureOr<Shape> mlir::ge::transposeShape(ArrayRef<int64_t> input,
                                          ArrayRef<int64_t> perm,
                                          std::string *why) {
  int64_t rank = input.size();
  if (perm.empty())
    return Shape(input.rbegin(), input.rend());
  if ((int64_t)perm.size() != rank) {
    (void)fail(why, "perm has " + llvm::Twine(perm.size()) +
                        " values but the input has rank " + llvm::Twine(rank));
    return failure();
  }
  Shape out;
  llvm::SmallVector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p]) {
      (void)fail(why, "perm " + formatShape(perm) + " is not a permutation of [0, " +
                          llvm::Twine(rank) + ")");
      return failure();
    }
    seen[p] = true;
    out.push_back(input[p]);
  }
  return out;
}

Shape mlir::ge::gatherShape(ArrayRef<int64_t> data, ArrayRef<int64_t> indices,
                            int64_t axis) {
  Shape out(data.begin(), data.begin() + axis);
  out.append(indices.begin(), indices.end());
  out.append(data.begin() + axis + 1, data.end());
  return out;
}

FailureOr<Shape> mlir::ge::concatShape(ArrayRef<ArrayRef<int64_t>> inputs,
                                       int64_t axis, std::string *why) {
  if (inputs.empty()) {
    (void)fail(why, "needs at least one input");
    return failure();
  }
  Shape out(inputs[0].begin(), inputs[0].end());
  for (size_t k = 1; k < inputs.size(); ++k) {
    ArrayRef<int64_t> in = inputs[k];
    if (in.size() != out.size()) {
      (void)fail(why, "input #" + llvm::Twine(k) + " has rank " +
                          llvm::Twine(in.size()) + " but input #0 has rank " +
                          llvm::Twine(out.size()));
      return failure();
    }
    for (size_t i = 0; i < in.size(); ++i) {
      if ((int64_t)i == axis) {
        out[i] = isDyn(out[i]) || isDyn(in[i]) ? kDynamic : out[i] + in[i];
      } else if (isDyn(out[i])) {
        out[i] = in[i];
      } else if (!isDyn(in[i]) && in[i] != out[i]) {
        (void)fail(why, "input #" + llvm::Twine(k) + " has shape " +
                            formatShape(in) + " which differs from " +
                            formatShape(inputs[0]) + " outside axis " +
                            llvm::Twine(axis));
        return failure();
      }
    }
  }
  return out;
}
