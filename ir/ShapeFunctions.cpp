//===- ShapeFunctions.cpp - result shapes of ge ops -------------*- C++ -*-===//

#include "ir/ShapeFunctions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <limits>

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
  bool overflow = false;
  for (int64_t d : shape) {
    if (isDyn(d))
      return kDynamic;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  return overflow ? std::numeric_limits<int64_t>::max() : n;
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
    (void)fail(why, "inner dims differ: A " + formatShape(a) +
                        " has K = " + llvm::Twine(ka) + " but B " +
                        formatShape(b) + " has K = " + llvm::Twine(kb));
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
                                     bool transA, bool transB,
                                     std::string *why) {
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
                                        ArrayRef<int64_t> target,
                                        bool allowzero, std::string *why) {
  Shape out;
  int64_t inferIndex = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == -1) {
      if (inferIndex >= 0) {
        (void)fail(why,
                   "shape " + formatShape(target) + " has more than one -1");
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
  bool knownStatic = true, knownOverflows = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if ((int64_t)i == inferIndex)
      continue;
    if (isDyn(out[i]))
      knownStatic = false;
    else
      knownOverflows |= __builtin_mul_overflow(known, out[i], &known);
  }
  if (isDyn(total) || !knownStatic)
    return out;
  if (knownOverflows || total == std::numeric_limits<int64_t>::max()) {
    (void)fail(why, "cannot reshape " + formatShape(input) + " into " +
                        formatShape(target) +
                        ": a shape has 2^63 elements or more");
    return failure();
  }
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
  if (dim <= 0) {
    clampedStart = 0;
    count = 0;
    return;
  }
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  // Written so that exporters' INT64_MAX / INT64_MIN bounds and steps cannot
  // overflow.
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    count = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    int64_t stride = step == INT64_MIN ? INT64_MAX : -step;
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    count = start > end ? (start - end - 1) / stride + 1 : 0;
  }
  clampedStart = start;
}

FailureOr<Shape>
mlir::ge::sliceShape(ArrayRef<int64_t> input, ArrayRef<int64_t> starts,
                     ArrayRef<int64_t> ends, ArrayRef<int64_t> axes,
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
      (void)fail(why, "perm " + formatShape(perm) +
                          " is not a permutation of [0, " + llvm::Twine(rank) +
                          ")");
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
