//===- ConvShifted.h - stride-1 convs as GEMMs on shifted rows --*- C++ -*-===//
//
// im2col copies each input element once per tap (nine times for 3x3), and
// for ResNet that traffic costs a fifth of the inference. A stride-1 conv
// needs no copies at all if its output is computed on the input's padded
// width: then tap (kh, kw) reads the padded input rows shifted by
// kh * paddedWidth + kw, so the GEMM's B is a set of shifted views of one
// padded slab (nn::BRows groups, one per tap, channels inside), and the
// weights are packed tap-major to match. The few columns computed past each
// output row's end are dropped when the tile is copied into Y. A 3-D conv's
// tile is output rows of one output depth slice: its slab holds the input
// rows under them in each of the kernel-depth input slices, so tap (kd, kh,
// kw) is one more shift, by kd slab planes.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHIFTED_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHIFTED_H

#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/NnSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

class ShiftedConv {
public:
  /// True for the windows this serves: stride 1 and dilation 1 in every
  /// dim, more than one tap.
  static bool applies(const Window &w);
  /// Floats of slab for tiles of `tileRows` output rows (what buildSlab
  /// writes), for `channels` channels.
  static int64_t slabFloats(const Window &w, int64_t channels,
                            int64_t tileRows);

  /// Tiles of at most `tileRows` output rows.
  ShiftedConv(const Window &w, int64_t channels, int64_t tileRows);

  /// W_g [rows x channels x taps] packed with depth ordered (tap, channel).
  PackedRows packWeights(const float *w, int64_t rows) const;

  int64_t slabFloats() const { return slabFloats(w_, channels_, tileRows_); }
  /// GEMM columns of `outRows` output rows on the padded width.
  int64_t columns(int64_t outRows) const;
  int64_t paddedWidth() const { return paddedWidth_; }

  /// Copies the padded input rows under output rows [oh0, oh0 + outRows)
  /// of output depth slice od of one image and group (`x`, `channels`
  /// volumes) into `slab`, and returns the GEMM's B over it.
  BRows buildSlab(const float *x, int64_t od, int64_t oh0, int64_t outRows,
                  float *slab) const;

private:
  Window w_;
  int64_t channels_, paddedWidth_;
  int64_t depthFloats_; // a slab plane: the input rows of a tile, padded
  int64_t tileRows_;
  std::vector<int64_t> tapOffsets_; // per tap (kd, kh, kw)
};

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHIFTED_H
