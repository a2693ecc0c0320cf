//===- VectorMath.cpp - the dispatch to vmath's bodies, and the baseline --===//
//
// The body is picked on every call (GEFLOW_PICK_BODY), so tests that switch
// the ISA see each body. The baseline is the standard library: the
// reference the vector bodies are tested against.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/isa/VectorMathIsa.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>

namespace geflow::kernels::vmath {
namespace {

template <class F>
void map(const float *x, float *y, int64_t n, F f, float bias = 0.0f) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = f(bias == 0.0f ? x[i] : x[i] + bias);
}

} // namespace

namespace baseline {

void exp(const float *x, float *y, int64_t n) {
  map(x, y, n, [](float v) { return std::exp(v); });
}

void erf(const float *x, float *y, int64_t n) {
  map(x, y, n, [](float v) { return std::erf(v); });
}

void gelu(const float *x, float *y, int64_t n, float bias) {
  map(
      x, y, n,
      [](float v) {
        return 0.5f * v * (1.0f + std::erf(v * static_cast<float>(M_SQRT1_2)));
      },
      bias);
}

void geluTanh(const float *x, float *y, int64_t n, float bias) {
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
  map(x, y, n, [](float v) { return 1.0f / (1.0f + std::exp(-v)); }, bias);
}

void hardSwish(const float *x, float *y, int64_t n, float bias) {
  map(
      x, y, n,
      [](float v) {
        return v * std::min(std::max(v * (1.0f / 6.0f) + 0.5f, 0.0f), 1.0f);
      },
      bias);
}

void swish(const float *x, float *y, int64_t n, float alpha, float bias) {
  map(
      x, y, n, [alpha](float v) { return v / (1.0f + std::exp(-alpha * v)); },
      bias);
}

void scaleShift(const float *x, float *y, int64_t n, float scale, float shift,
                float lo, float hi) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = std::min(std::max(x[i] * scale + shift, lo), hi);
}

float sum(const float *x, int64_t n) {
  return Eigen::Map<const Eigen::ArrayXf>(x, n).sum();
}

void softmax(const float *x, float *y, int64_t n) {
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

} // namespace baseline

void exp(const float *x, float *y, int64_t n) {
  GEFLOW_PICK_BODY(vmath, exp)(x, y, n);
}

void erf(const float *x, float *y, int64_t n) {
  GEFLOW_PICK_BODY(vmath, erf)(x, y, n);
}

void gelu(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_PICK_BODY(vmath, gelu)(x, y, n, bias);
}

void geluTanh(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_PICK_BODY(vmath, geluTanh)(x, y, n, bias);
}

void sigmoid(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_PICK_BODY(vmath, sigmoid)(x, y, n, bias);
}

void hardSwish(const float *x, float *y, int64_t n, float bias) {
  GEFLOW_PICK_BODY(vmath, hardSwish)(x, y, n, bias);
}

void swish(const float *x, float *y, int64_t n, float alpha, float bias) {
  GEFLOW_PICK_BODY(vmath, swish)(x, y, n, alpha, bias);
}

void scaleShift(const float *x, float *y, int64_t n, float scale, float shift,
                float lo, float hi) {
  GEFLOW_PICK_BODY(vmath, scaleShift)(x, y, n, scale, shift, lo, hi);
}

float sum(const float *x, int64_t n) {
  return GEFLOW_PICK_BODY(vmath, sum)(x, n);
}

void softmax(const float *x, float *y, int64_t n) {
  GEFLOW_PICK_BODY(vmath, softmax)(x, y, n);
}

} // namespace geflow::kernels::vmath
