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
// A 3-D conv whose window is 3x3 at stride 1 in height and width (any
// depth, depth stride and padding: r3d's KT x 3 x 3) is the sum over its
// depth taps of 2-D convs of input slices: an output slice's GEMMs run over
// the V of the input slices under it, depth (tap, channel), so each input
// slice is transformed once for all the output slices that read it.
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVWINOGRAD_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVWINOGRAD_H

#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/NnSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

class WinogradConv {
public:
  /// True for the convs it serves and where it is faster (measured): 2-D
  /// or 3-D, 3x3 in height and width at stride 1 and dilation 1, one group,
  /// enough channels on both sides.
  static bool applies(const Window &w, int64_t group, int64_t channels,
                      int64_t outChannels);
  /// Rows of tiles (4 output rows each) a work item transforms at once:
  /// their transformed input stays in L2 and fills whole GEMM panels.
  static int64_t blockTileRows(const Window &w, int64_t channels);
  /// Rows of tiles over the output map (of one depth slice).
  static int64_t tileRows(const Window &w) { return (w.out[1] + 3) / 4; }
  /// FLOPs of `outChannels` output channels over `tileRows` rows of tiles
  /// of one output slice: the GEMMs and both transforms.
  static double flops(const Window &w, int64_t channels, int64_t outChannels,
                      int64_t tileRows);

  /// The most depth taps of a 3-D conv it serves.
  static constexpr int64_t kMaxDepthTaps = 7;

  /// `weights` [outChannels x channels x (depth taps x) 3 x 3] is
  /// transformed here when given (a constant), else on each call of
  /// multiply.
  WinogradConv(const Window &w, int64_t channels, int64_t outChannels,
               const float *weights);

  /// Floats transformInput writes for `tileRows` rows of tiles.
  int64_t inputFloats(int64_t tileRows) const;
  /// V for tile rows [ty0, ty1) of input depth slice `slice` of image `x`
  /// (channels volumes) into `v`.
  void transformInput(const float *x, int64_t slice, int64_t ty0, int64_t ty1,
                      float *v) const;
  /// The input slices output slice `od` reads, one per depth tap: tap t
  /// reads slice slice0 + t, inside the input for t in [first, end).
  struct DepthTaps {
    int64_t first, end, slice0;
  };
  DepthTaps depthTaps(int64_t od) const;
  /// Output channels [m0, m1) of tile rows [ty0, ty1) of an output slice
  /// into `y` (its first row, in the image's Y), from the V of the input
  /// slices of its depth taps (`v[t]` for taps t in [taps.first,
  /// taps.end), each transformInput's, all in one buffer); then
  /// `epilogue.apply` on each channel's rows of Y. `weights` is W when it
  /// was not given at creation. m0 must be a multiple of kPanelRows.
  void multiply(const float *const *v, DepthTaps taps, int64_t ty0, int64_t ty1,
                int64_t m0, int64_t m1, const float *weights, float *y,
                const RowEpilogue &epilogue) const;
  /// Whether multiply() reads `weights` (they were not given at creation).
  bool readsWeights() const { return packed_.empty() && u_.empty(); }

private:
  /// U for output channels [m0, m1) into u: 36 matrices [m1 - m0 x depth],
  /// depth ordered (depth tap, channel).
  void transformWeights(const float *w, int64_t m0, int64_t m1, float *u) const;

  Window w_;
  int64_t channels_, outChannels_, tileCols_;
  int64_t depthTaps_;              // the window's depth (1 for a 2-D conv)
  int64_t depth_;                  // the GEMMs' depth: depthTaps_ x channels_
  std::vector<PackedRows> packed_; // per transformed position (xi)
  std::vector<float> u_; // U when constant but not packed: nn::gemm reads it
};

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVWINOGRAD_H
