//===- ElementwiseOps.h - the elementwise ops' row functions ----*- C++ -*-===//
//
// The unary and binary ops of Elementwise.cpp as functions over a contiguous
// run, looked up by op type and dtype, so the fused elementwise kernel
// (FusedElementwise.cpp) evaluates each step with exactly the code the
// standalone op runs.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_SUPPORT_ELEMENTWISEOPS_H
#define GEFLOW_EXECUTOR_KERNELS_SUPPORT_ELEMENTWISEOPS_H

#include "executor/model/om.pb.h"

#include <cstdint>
#include <string>

namespace geflow::kernels::vec {

/// The float attributes of a unary op (elu, hard_sigmoid, leaky_relu, selu,
/// celu, shrink, thresholded_relu), clip's bounds and is_inf's flags.
struct UnaryParams {
  float alpha = 0, beta = 0, gamma = 0;
  bool hasLo = false, hasHi = false;
  double lo = 0, hi = 0;
  bool detectNegative = true, detectPositive = true;
};

/// out[i] = op(in[i]) for i < n; in and out may be the same buffer.
using UnaryFn = void (*)(const void *in, void *out, int64_t n,
                         const UnaryParams &p);

struct UnaryOpInfo {
  UnaryFn (*lookup)(om::DataType); // null for a dtype the op does not take
  double flops;                    // per element
};

/// The float attributes of an elementwise op in ONNX order, with ONNX's
/// defaults (the op table's GE_PARAMS); an absent one has a null name.
struct FloatParams {
  const char *names[2];
  float defaults[2];
};
/// Null for an op without float attributes.
const FloatParams *findFloatParams(const std::string &type);

/// The UnaryKernel rows of the op table but identity; null otherwise.
const UnaryOpInfo *findUnary(const std::string &type);

/// A run of `n` outputs from a (contiguous, or one repeated value when
/// aRepeat) and b (likewise).
using BinaryRowFn = void (*)(const void *a, bool aRepeat, const void *b,
                             bool bRepeat, void *out, int64_t n);

struct BinaryOpInfo {
  BinaryRowFn (*lookup)(om::DataType);
  double flops;
};

/// add sub mul div pow prelu max min equal greater less greater_or_equal
/// less_or_equal mod and or xor, and the variants fmod (mod with fmod = 1),
/// bit_shift_left and bit_shift_right; null otherwise.
const BinaryOpInfo *findBinary(const std::string &type);

} // namespace geflow::kernels::vec

#endif // GEFLOW_EXECUTOR_KERNELS_SUPPORT_ELEMENTWISEOPS_H
