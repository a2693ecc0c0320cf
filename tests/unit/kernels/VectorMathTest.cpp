//===- VectorMathTest.cpp - vmath's polynomials against libm --------------===//
//
// exp, erf, both GELU forms, sigmoid, hard swish, softmax and sum under each
// ISA the machine has, over the ranges a network feeds them, against
// double-precision references.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/support/VectorMath.h"
#include "tests/unit/kernels/IsaTestUtil.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace geflow::kernels;
using namespace geflow::kernels::test;

namespace {

/// n points evenly over [lo, hi], plus a length that leaves a vector tail.
std::vector<float> sweep(float lo, float hi, int n = 100003) {
  if (n == 1)
    return {lo};
  std::vector<float> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n - 1);
  return x;
}

/// fn(x, y, n) on x under each ISA; |y - want(x)| <= tol(x, want) for all.
template <class Fn, class Want, class Tol>
void expectClose(const std::vector<float> &x, Fn fn, Want want, Tol tol) {
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    std::vector<float> y(x.size(), 12345.0f);
    fn(x.data(), y.data(), static_cast<int64_t>(x.size()));
    for (size_t i = 0; i < x.size(); ++i) {
      const double w = want(static_cast<double>(x[i]));
      ASSERT_LE(std::abs(y[i] - w), tol(x[i], w))
          << scope.name() << " at x = " << x[i] << ": got " << y[i] << ", want "
          << w;
    }
  }
}

double relative(float, double want) { return 1e-6 * std::abs(want); }

/// An activation of vmath's without its bias, as expectClose calls it.
template <void (*Fn)(const float *, float *, int64_t, float)>
void noBias(const float *x, float *y, int64_t n) {
  Fn(x, y, n, 0.0f);
}

TEST(VectorMath, ExpWithinOneMillionth) {
  expectClose(
      sweep(-87.3f, 88.3f), vmath::exp, [](double x) { return std::exp(x); },
      relative);
  expectClose(
      sweep(-1.0f, 1.0f, 1001), vmath::exp,
      [](double x) { return std::exp(x); }, relative);
}

TEST(VectorMath, ExpLimits) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -1000.0f, -88.0f, 0.0f, 89.0f, inf};
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    std::vector<float> y(x.size());
    vmath::exp(x.data(), y.data(), static_cast<int64_t>(x.size()));
    EXPECT_EQ(y[0], 0.0f) << scope.name();
    EXPECT_EQ(y[1], 0.0f) << scope.name();
    EXPECT_LT(y[2], 1e-37f) << scope.name();
    EXPECT_EQ(y[3], 1.0f) << scope.name();
    EXPECT_EQ(y[4], inf) << scope.name();
    EXPECT_EQ(y[5], inf) << scope.name();
    float nan = std::numeric_limits<float>::quiet_NaN(), out = 0;
    vmath::exp(&nan, &out, 1);
    EXPECT_TRUE(std::isnan(out)) << scope.name();
  }
}

TEST(VectorMath, ErfWithinOneMillionth) {
  auto want = [](double x) { return std::erf(x); };
  // Relative near 0 too: erf(x) ~ 1.128 x.
  expectClose(sweep(-6.0f, 6.0f), vmath::erf, want,
              [](float x, double w) { return 1e-6 * std::abs(w) + 1e-45; });
  expectClose(sweep(-1e-3f, 1e-3f, 2001), vmath::erf, want, relative);
}

TEST(VectorMath, GeluBothForms) {
  // Within 1e-6 of the value plus 1e-7 of |x| (the float rounding of x / sqrt
  // 2 alone moves a far tail by a few parts in a million of its tiny value).
  auto tol = [](float x, double w) {
    return 1e-6 * std::abs(w) + 1e-7 * std::abs(x) + 1e-30;
  };
  expectClose(
      sweep(-12.0f, 12.0f), noBias<vmath::gelu>,
      [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }, tol);
  expectClose(
      sweep(-12.0f, 12.0f), noBias<vmath::geluTanh>,
      [](double x) {
        return 0.5 * x *
               (1.0 +
                std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
      },
      tol);
}

TEST(VectorMath, SigmoidWithinOneMillionth) {
  // Relative, far into both tails: 1 / (1 + e^-x) stays accurate as it
  // underflows towards 0 (x < 0) and saturates at 1.
  expectClose(
      sweep(-80.0f, 40.0f), noBias<vmath::sigmoid>,
      [](double x) { return 1.0 / (1.0 + std::exp(-x)); },
      [](float, double w) { return 1e-6 * std::abs(w) + 1e-45; });
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -1000.0f, 0.0f, 1000.0f, inf};
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    std::vector<float> y(x.size());
    vmath::sigmoid(x.data(), y.data(), static_cast<int64_t>(x.size()));
    EXPECT_EQ(y, (std::vector<float>{0.0f, 0.0f, 0.5f, 1.0f, 1.0f}))
        << scope.name();
  }
}

TEST(VectorMath, HardSwishExact) {
  // Within rounding of the float formula, through both bends (-3 and 3).
  expectClose(
      sweep(-8.0f, 8.0f), noBias<vmath::hardSwish>,
      [](double x) { return x * std::min(std::max(x / 6 + 0.5, 0.0), 1.0); },
      [](float x, double) { return 4e-7 * std::abs(x) + 1e-45; });
}

TEST(VectorMath, SwishWithinOneMillionth) {
  // x / (1 + e^-x): relative through the far negative tail, where it is
  // x e^x, and -0 (not NaN) once e^-x overflows.
  auto silu = [](const float *x, float *y, int64_t n) {
    vmath::swish(x, y, n, 1.0f);
  };
  expectClose(
      sweep(-80.0f, 40.0f), silu,
      [](double x) { return x / (1.0 + std::exp(-x)); },
      [](float, double w) { return 2e-6 * std::abs(w) + 1e-45; });
  auto quick = [](const float *x, float *y, int64_t n) {
    vmath::swish(x, y, n, 1.702f);
  };
  // alpha x rounds to float: its relative error grows the result's by |alpha
  // x|.
  const double alpha = 1.702f;
  expectClose(
      sweep(-40.0f, 40.0f), quick,
      [&](double x) { return x / (1.0 + std::exp(-alpha * x)); },
      [&](float x, double w) {
        return (2e-6 + 6e-8 * alpha * std::abs(x)) * std::abs(w) + 1e-45;
      });
  std::vector<float> x = {-1000.0f, 1000.0f};
  for (cpu::Isa isa : machineIsas()) {
    IsaScope scope(isa);
    std::vector<float> y(x.size());
    silu(x.data(), y.data(), 2);
    EXPECT_EQ(y[0], 0.0f) << scope.name();
    EXPECT_EQ(y[1], 1000.0f) << scope.name();
  }
}

TEST(VectorMath, ActivationsAddTheirBiasFirst) {
  // f(x, bias) is f(x + bias) bit for bit: the conv epilogue relies on it.
  std::vector<float> x = sweep(-9.0f, 9.0f, 1037), shifted;
  const float bias = 0.3125f;
  for (float v : x)
    shifted.push_back(v + bias);
  using Fn = void (*)(const float *, float *, int64_t, float);
  auto swish = [](const float *in, float *out, int64_t n, float b) {
    vmath::swish(in, out, n, 1.5f, b);
  };
  for (Fn fn : {Fn(vmath::gelu), Fn(vmath::geluTanh), Fn(vmath::sigmoid),
                Fn(vmath::hardSwish), Fn(swish)})
    for (cpu::Isa isa : machineIsas()) {
      IsaScope scope(isa);
      std::vector<float> got(x.size()), want(x.size());
      fn(x.data(), got.data(), static_cast<int64_t>(x.size()), bias);
      fn(shifted.data(), want.data(), static_cast<int64_t>(x.size()), 0.0f);
      EXPECT_EQ(got, want) << scope.name();
    }
}

TEST(VectorMath, SoftmaxRows) {
  const float inf = std::numeric_limits<float>::infinity();
  for (int n : {1, 7, 8, 15, 16, 17, 33, 197, 1000}) {
    std::vector<float> x = sweep(-20.0f, 9.0f, n);
    for (int i = 0; i < n; i += 3)
      x[i] = i % 2 ? -inf : x[i]; // masked keys
    for (cpu::Isa isa : machineIsas()) {
      IsaScope scope(isa);
      double mx = -INFINITY, sum = 0;
      for (float v : x)
        mx = std::max<double>(mx, v);
      for (float v : x)
        sum += std::exp(double(v) - mx);
      std::vector<float> y(n, 12345.0f);
      vmath::softmax(x.data(), y.data(), n);
      for (int i = 0; i < n; ++i) {
        double w = std::exp(double(x[i]) - mx) / sum;
        ASSERT_NEAR(y[i], w, 1e-6 * w + 1e-12)
            << scope.name() << " n=" << n << " i=" << i;
      }
      vmath::softmax(x.data(), x.data(), n); // in place
      EXPECT_EQ(x, y) << scope.name();
      x = sweep(-20.0f, 9.0f, n);
      for (int i = 0; i < n; i += 3)
        x[i] = i % 2 ? -inf : x[i];
    }
  }
}

TEST(VectorMath, SumOfEveryLength) {
  // Lengths around the four accumulators' stride and the vector tails.
  for (int n : {0, 1, 5, 15, 16, 17, 63, 64, 65, 100, 3136, 12544}) {
    std::vector<float> x = sweep(-3.0f, 5.0f, std::max(n, 1));
    x.resize(n);
    double want = 0, magnitude = 0;
    for (float v : x) {
      want += v;
      magnitude += std::abs(v);
    }
    for (cpu::Isa isa : machineIsas()) {
      IsaScope scope(isa);
      // Summed in float: error up to about n ulps of the magnitude.
      EXPECT_NEAR(vmath::sum(x.data(), n), want, 1e-6 * magnitude + 1e-30)
          << scope.name() << " n=" << n;
    }
  }
}

} // namespace
