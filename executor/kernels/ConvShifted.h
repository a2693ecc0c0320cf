//===- ConvShifted.h - stride-1 convs as GEMMs over shifted rows -*- C++
//-*-===//
//
// im2col copies each input element once per tap (nine times for 3x3), and
// for ResNet that traffic costs a fifth of the inference. A stride-1 conv
// needs no copies at all if its output is computed on the input's padded
// width: then tap (kh, kw) reads the padded input rows shifted by
// kh * paddedWidth + kw, so the GEMM's B is a set of shifted views of one
// padded slab (nn::BRows groups, one per tap, channels inside), and the
// weights are packed tap-major to match. The few columns computed past each
// output row's end are dropped when the tile is copied into Y.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONVSHIFTED_H
#define GEFLOW_EXECUTOR_KERNELS_CONVSHIFTED_H

#include "executor/kernels/NnPackedGemm.h"
#include "executor/kernels/NnSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

class ShiftedConv {
public:
  /// True for the windows this serves: 1-D or 2-D, stride 1 and dilation 1
  /// in both dims, more than one tap.
  static bool applies(const Window &w);

  ShiftedConv(const Window &w, int64_t channels);

  /// W_g [rows x channels x taps] packed with depth ordered (tap, channel).
  PackedRows packWeights(const float *w, int64_t rows) const;

  /// Floats of slab for `outRows` output rows (what buildSlab writes).
  int64_t slabFloats(int64_t outRows) const;
  /// GEMM columns of `outRows` output rows on the padded width.
  int64_t columns(int64_t outRows) const;
  int64_t paddedWidth() const { return paddedWidth_; }

  /// Copies the padded input rows under output rows [oh0, oh0 + outRows) of
  /// one image and group (`x`, `channels` planes) into `slab`, and returns
  /// the GEMM's B over it.
  BRows buildSlab(const float *x, int64_t oh0, int64_t outRows,
                  float *slab) const;

private:
  Window w_;
  int64_t channels_, paddedWidth_;
  std::vector<int64_t> tapOffsets_; // per tap: kh * paddedWidth + kw
};

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONVSHIFTED_H
