//===- ConvWinograd.h - 3x3 convs by Winograd's F(4x4, 3x3) -----*- C++ -*-===//
//
// A 3x3 stride-1 conv computes each 4x4 output tile from a 6x6 input tile
// with 36 multiplies per (input, output) channel pair instead of 144: the
// input tiles are transformed (V = B^T d B), the weights once at creation
// (U = G g G^T), and the 36 transformed positions are 36 independent GEMMs
// U_xi [M x C] * V_xi [C x tiles] on the packed GEMM (NnPackedGemm.h); the
// output transform (Y = A^T M A) writes 4x4 tiles into Y. Its rounding
// error grows with the transform's coefficients (up to 8 and 1/24); on
// ResNet's shapes it stays about 1e-5 of max |Y| (ConvTest.cpp measures it).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONVWINOGRAD_H
#define GEFLOW_EXECUTOR_KERNELS_CONVWINOGRAD_H

#include "executor/kernels/NnPackedGemm.h"
#include "executor/kernels/NnSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

class WinogradConv {
public:
  /// True for the convs it serves and where it is faster (measured): 2-D,
  /// 3x3, stride 1, dilation 1, one group, enough channels on both sides.
  static bool applies(const Window &w, int64_t group, int64_t channels,
                      int64_t outChannels);
  /// Rows of tiles (4 output rows each) a work item transforms at once:
  /// their transformed input stays in L2 and fills whole GEMM panels.
  static int64_t blockTileRows(const Window &w, int64_t channels);
  /// Rows of tiles over the output map.
  static int64_t tileRows(const Window &w) { return (w.out[1] + 3) / 4; }
  /// FLOPs of `outChannels` output channels over `tileRows` rows of tiles:
  /// the GEMMs and both transforms.
  static double flops(const Window &w, int64_t channels, int64_t outChannels,
                      int64_t tileRows);

  /// `weights` [outChannels x channels x 3 x 3] is transformed here when
  /// given (a constant), else on each call of multiply.
  WinogradConv(const Window &w, int64_t channels, int64_t outChannels,
               const float *weights);

  /// Floats transformInput writes for `tileRows` rows of tiles.
  int64_t inputFloats(int64_t tileRows) const;
  /// V for tile rows [ty0, ty1) of image `x` (channels planes) into `v`.
  void transformInput(const float *x, int64_t ty0, int64_t ty1, float *v) const;
  /// Output channels [m0, m1) of tile rows [ty0, ty1) into `y` (the image's
  /// Y), from transformInput's `v`; then `epilogue.apply` on each channel's
  /// rows of Y. `weights` is W when it was not given at creation. m0 must
  /// be a multiple of kPanelRows.
  void multiply(const float *v, int64_t ty0, int64_t ty1, int64_t m0,
                int64_t m1, const float *weights, float *y,
                const RowEpilogue &epilogue) const;

private:
  /// U for output channels [m0, m1) into u: 36 matrices [m1 - m0 x C].
  void transformWeights(const float *w, int64_t m0, int64_t m1, float *u) const;

  Window w_;
  int64_t channels_, outChannels_, tileCols_;
  std::vector<PackedRows> packed_; // per transformed position (xi)
  std::vector<float> u_; // U when constant but not packed: nn::gemm reads it
};

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONVWINOGRAD_H
