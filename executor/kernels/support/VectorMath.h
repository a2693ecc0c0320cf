//===- VectorMath.h - exp, erf, GELU and softmax on whole rows --*- C++ -*-===//
//
// The transcendental parts of a transformer (GELU's erf, softmax's exp) were
// scalar libm calls or SSE2 Eigen expressions. These take whole rows and run
// the body the CPU supports (cpu::activeIsa()): AVX-512 and AVX2 + FMA bodies
// (VectorMathAvx512.cpp, VectorMathAvx2.cpp) share one polynomial code
// (VectorMathBody.inc); the baseline is the standard library.
//
// Accuracy of the vector bodies: exp within 2e-7 relative on [-87.3, 88.3]
// (Cephes' expf polynomial), erf within 1e-6 relative (Juffa's faithfully
// rounded erff polynomials), GELU within 1e-6 of |x| + its value.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORMATH_H
#define GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORMATH_H

#include <cstdint>

namespace geflow::kernels::vmath {

/// y = exp(x), n floats; y may be x.
void exp(const float *x, float *y, int64_t n);
/// y = erf(x).
void erf(const float *x, float *y, int64_t n);
// The activations take a `bias` added to x first: a conv's bias and its
// activation in one pass over the output.
/// y = x * (1 + erf(x / sqrt 2)) / 2: ONNX Gelu, the exact form.
void gelu(const float *x, float *y, int64_t n, float bias = 0.0f);
/// y = x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3))) / 2: ONNX Gelu,
/// approximate = "tanh".
void geluTanh(const float *x, float *y, int64_t n, float bias = 0.0f);
/// y = 1 / (1 + exp(-x)): ONNX Sigmoid.
void sigmoid(const float *x, float *y, int64_t n, float bias = 0.0f);
/// y = x * clamp(x / 6 + 1/2, 0, 1): ONNX HardSwish.
void hardSwish(const float *x, float *y, int64_t n, float bias = 0.0f);
/// y = x * sigmoid(alpha x): ONNX Swish, PyTorch's SiLU at alpha 1.
void swish(const float *x, float *y, int64_t n, float alpha, float bias = 0.0f);
/// y = min(max(x * scale + shift, lo), hi), the product rounded before the
/// sum (as a mul step then an add step): a batch norm that could not fold
/// into a conv, with the ReLU or clip after it, on one channel's plane.
void scaleShift(const float *x, float *y, int64_t n, float scale, float shift,
                float lo, float hi);
/// The sum of n contiguous floats, in four vector accumulators (their order
/// is not a scalar loop's; global average pooling's plane sums).
float sum(const float *x, int64_t n);
/// y = softmax(x) over n contiguous floats (max-subtracted: exp cannot
/// overflow); y may be x.
void softmax(const float *x, float *y, int64_t n);

} // namespace geflow::kernels::vmath

#endif // GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORMATH_H
