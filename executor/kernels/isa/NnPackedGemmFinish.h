//===- NnPackedGemmFinish.h - in-register epilogue of a tile ---*- C++ -*-===//
//
// Private to the per-ISA bodies of gemmPacked (NnPackedGemmAvx2.cpp,
// NnPackedGemmAvx512.cpp and their shared NnPackedGemmBody.inc): what a tile
// adds and clamps as it stores the last chunk of depth. Internal linkage: each
// body is compiled with its own instruction-set flags, and one shared inline
// copy could carry the wrong ones into the other.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_NNPACKEDGEMMFINISH_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_NNPACKEDGEMMFINISH_H

#include "executor/kernels/gemm/NnPackedGemm.h"

#include <limits>

namespace geflow::kernels::nn {
namespace {

/// An in-register epilogue for one tile: bias of its first row or of its
/// first column (or null), the residual's offset from C, clamp bounds.
struct Finish {
  const float *bias = nullptr;
  // gemmDirectBlocked's: per column, from the tile's first (bias is per row).
  const float *columnBias = nullptr;
  float lo = 0.0f, hi = 0.0f;
  bool clamps = false; // false for [-inf, inf]: NaNs pass as they are
  bool residual = false;
  int64_t residualOffset = 0;

  /// gemmDirectBlocked's finish of the tile starting at column `column`
  /// (from its first): bias per column, residual, clamp.
  static Finish forColumns(const BlockedFinish &f, int64_t column) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    return {nullptr,
            f.bias ? f.bias + column : nullptr,
            f.lo,
            f.hi,
            f.lo > -kInf || f.hi < kInf,
            f.residual,
            f.residualOffset};
  }

  /// The finish of the tile starting at row `row0` under `epilogue`: only
  /// an epilogue without `apply` (bias, residual, clamp) runs in registers.
  static Finish forRows(const RowEpilogue &epilogue, int64_t row0) {
    constexpr float kInf = std::numeric_limits<float>::infinity();
    return {epilogue.bias ? epilogue.bias + row0 : nullptr,
            nullptr,
            epilogue.lo,
            epilogue.hi,
            epilogue.lo > -kInf || epilogue.hi < kInf,
            epilogue.residual,
            epilogue.residualOffset};
  }
};

} // namespace
} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_NNPACKEDGEMMFINISH_H
