//===- ConvEpilogue.cpp - fused_conv's bias, residual and activation ------===//

#include "executor/kernels/conv/ConvEpilogue.h"

#include <Eigen/Core>

#include <algorithm>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;

bool geflow::kernels::clampBounds(const nn::Activation &act, float *lo,
                                  float *hi) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  switch (act.kind) {
  case nn::Activation::kNone:
    *lo = -kInf, *hi = kInf;
    return true;
  case nn::Activation::kRelu:
    *lo = 0.0f, *hi = kInf;
    return true;
  case nn::Activation::kClip:
    *lo = act.a, *hi = act.b;
    return true;
  default:
    return false;
  }
}

void ConvEpilogue::apply(const void *context, int64_t m, float *row,
                         int64_t n) {
  const ConvEpilogue &e = *static_cast<const ConvEpilogue *>(context);
  if (!e.residual) {
    nn::applyBiasActivation(*e.act, e.bias ? e.bias[m] : 0.0f, row, n);
    return;
  }
  Eigen::Map<Eigen::ArrayXf> y(row, n);
  if (e.bias)
    y += e.bias[m];
  // Z and Y share a layout, so a row of Y at offset o adds Z's row at o.
  y += Eigen::Map<const Eigen::ArrayXf>(e.residual + (row - e.y), n);
  nn::applyActivation(*e.act, row, n);
}

void ShiftedRows::apply(const void *context, int64_t m, float *data,
                        int64_t n) {
  const ShiftedRows &r = *static_cast<const ShiftedRows *>(context);
  float *dst = r.yTile + m * r.p;
  const ConvEpilogue &e = *r.epilogue;
  if (!e.residual) { // the copy and the epilogue in one pass
    for (int64_t row = 0; row < r.outRows; ++row)
      nn::applyBiasActivation(*e.act, e.bias ? e.bias[m] : 0.0f,
                              data + row * r.paddedWidth,
                              dst + row * r.outWidth, r.outWidth);
    return;
  }
  for (int64_t row = 0; row < r.outRows; ++row)
    std::copy(data + row * r.paddedWidth,
              data + row * r.paddedWidth + r.outWidth, dst + row * r.outWidth);
  ConvEpilogue::apply(r.epilogue, m, dst, r.outRows * r.outWidth);
}
