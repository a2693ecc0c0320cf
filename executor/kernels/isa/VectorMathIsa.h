//===- VectorMathIsa.h - vmath's per-instruction-set bodies -----*- C++ -*-===//
//
// Private to VectorMath.cpp and the files that define these bodies
// (VectorMathAvx2.cpp, VectorMathAvx512.cpp, each built with its own flags).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_VECTORMATHISA_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_VECTORMATHISA_H

#include <cstdint>

#define GEFLOW_VMATH_DECLARE                                                   \
  void exp(const float *x, float *y, int64_t n);                               \
  void erf(const float *x, float *y, int64_t n);                               \
  void gelu(const float *x, float *y, int64_t n, float bias);                  \
  void geluTanh(const float *x, float *y, int64_t n, float bias);              \
  void softmax(const float *x, float *y, int64_t n);                           \
  void sigmoid(const float *x, float *y, int64_t n, float bias);               \
  void hardSwish(const float *x, float *y, int64_t n, float bias);             \
  void swish(const float *x, float *y, int64_t n, float alpha, float bias);    \
  void scaleShift(const float *x, float *y, int64_t n, float scale,            \
                  float shift, float lo, float hi);                            \
  float sum(const float *x, int64_t n);

namespace geflow::kernels::vmath {
namespace baseline {
GEFLOW_VMATH_DECLARE
} // namespace baseline
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
GEFLOW_VMATH_DECLARE
} // namespace avx2
namespace avx512 {
GEFLOW_VMATH_DECLARE
} // namespace avx512
#endif
} // namespace geflow::kernels::vmath

#undef GEFLOW_VMATH_DECLARE

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_VECTORMATHISA_H
