//===- VectorMath.cpp - the dispatch to vmath's bodies, and the baseline --===//
//
// The body is picked on every call (cpu::activeIsa() is one load), so tests
// that switch the ISA see each body. The baseline is the standard library:
// the reference the vector bodies are tested against.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/VectorMath.h"
#include "executor/kernels/CpuIsa.h"
#include "executor/kernels/VectorMathIsa.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace geflow::kernels::vmath {
namespace {

enum class Body { kBaseline, kAvx2, kAvx512 };

Body body() {
#if GEFLOW_HAVE_X86_KERNELS
  if (cpu::atLeast(cpu::Isa::kAvx512))
    return Body::kAvx512;
  if (cpu::atLeast(cpu::Isa::kAvx2))
    return Body::kAvx2;
#endif
  return Body::kBaseline;
}

template <class F>
void map(const float *x, float *y, int64_t n, F f, float bias = 0.0f) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = f(bias == 0.0f ? x[i] : x[i] + bias);
}

} // namespace

#if GEFLOW_HAVE_X86_KERNELS
#define GEFLOW_VMATH_DISPATCH(fn, ...)                                         \
  switch (body()) {                                                            \
  case Body::kAvx512:                                                          \
    return avx512::fn(__VA_ARGS__);                                            \
  case Body::kAvx2:                                                            \
    return avx2::fn(__VA_ARGS__);                                              \
  case Body::kBaseline:                                                        \
    break;                                                                     \
  }
#else
#define GEFLOW_VMATH_DISPATCH(fn, ...)
#endif

void exp(const float *x, float *y, int64_t n) {
  GEFLOW_VMATH_DISPATCH(exp, x, y, n)
  map(x, y, n, [](float v) { return std::exp(v); });
}

void erf(const float *x, float *y, int64_t n) {
  GEFLOW_VMATH_DISPATCH(erf, x, y, n)
  map(x, y, n, [](float v) { return std::erf(v); });
}

void gelu(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_VMATH_DISPATCH(gelu, x, y, n, bias)
  map(
      x, y, n,
      [](float v) {
        return 0.5f * v * (1.0f + std::erf(v * static_cast<float>(M_SQRT1_2)));
      },
      bias);
}

void geluTanh(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_VMATH_DISPATCH(geluTanh, x, y, n, bias)
  // sqrt(2 / pi)
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  map(
      x, y, n,
      [](float v) {
        return 0.5f * v *
               (1.0f + std::tanh(kSqrt2OverPi * (v + 0.044715f * v * v * v)));
      },
      bias);
}

void sigmoid(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_VMATH_DISPATCH(sigmoid, x, y, n, bias)
  map(x, y, n, [](float v) { return 1.0f / (1.0f + std::exp(-v)); }, bias);
}

void hardSwish(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_VMATH_DISPATCH(hardSwish, x, y, n, bias)
  map(
      x, y, n,
      [](float v) {
        return v * std::min(std::max(v * (1.0f / 6.0f) + 0.5f, 0.0f), 1.0f);
      },
      bias);
}

void swish(const float *x, float *y, int64_t n, float alpha, float bias) {
  GEFLOW_VMATH_DISPATCH(swish, x, y, n, alpha, bias)
  map(
      x, y, n, [alpha](float v) { return v / (1.0f + std::exp(-alpha * v)); },
      bias);
}

void scaleShift(const float *x, float *y, int64_t n, float scale, float shift,
                float lo, float hi) {
  GEFLOW_VMATH_DISPATCH(scaleShift, x, y, n, scale, shift, lo, hi)
  for (int64_t i = 0; i < n; ++i)
    y[i] = std::min(std::max(x[i] * scale + shift, lo), hi);
}

float sum(const float *x, int64_t n) {
  GEFLOW_VMATH_DISPATCH(sum, x, n)
  return Eigen::Map<const Eigen::ArrayXf>(x, n).sum();
}

void softmax(const float *x, float *y, int64_t n) {
  GEFLOW_VMATH_DISPATCH(softmax, x, y, n)
  float m = -std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < n; ++i)
    m = std::max(m, x[i]);
  float sum = 0.0f;
  for (int64_t i = 0; i < n; ++i)
    sum += y[i] = std::exp(x[i] - m);
  const float inv = 1.0f / sum;
  for (int64_t i = 0; i < n; ++i)
    y[i] *= inv;
}

} // namespace geflow::kernels::vmath
