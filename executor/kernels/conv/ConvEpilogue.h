//===- ConvEpilogue.h - a conv's bias, residual, activation -----*- C++ -*-===//
//
// What a conv does to a finished row of Y before it leaves the cache: the
// bias of its channel, the residual Z (fused_conv; same layout as Y) and the
// activation. The GEMM paths hand these to the packed GEMM as a
// RowEpilogue; a clamp-only epilogue (none, relu, clip) runs in the
// micro-kernel's registers instead (clampBounds).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVEPILOGUE_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVEPILOGUE_H

#include "executor/kernels/support/NnSupport.h"

#include <cstdint>

namespace geflow::kernels {

/// The bounds of an activation that is a clamp (none, relu, clip); false
/// for any other.
bool clampBounds(const nn::Activation &act, float *lo, float *hi);

/// fused_conv's bias (of the group's channels), residual Z and activation
/// on a row of Y, while the GEMM's tile is in cache.
struct ConvEpilogue {
  const float *bias, *residual, *y;
  const nn::Activation *act;

  /// On row `row` of channel m, n floats (a RowEpilogue's apply).
  static void apply(const void *context, int64_t m, float *row, int64_t n);
};

/// Copies row m of a padded-width tile into Y, output row by output row,
/// then runs the conv's epilogue on it.
struct ShiftedRows {
  const ConvEpilogue *epilogue;
  float *yTile; // Y's row 0 (of the group) at the tile's first column
  int64_t p, paddedWidth, outWidth, outRows;

  static void apply(const void *context, int64_t m, float *data, int64_t n);
};

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVEPILOGUE_H
