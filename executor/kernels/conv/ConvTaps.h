//===- ConvTaps.h - direct convs over zero-bordered phase planes *- C++ -*-===//
//
// A conv with few taps per output (depthwise, or grouped with few channels
// per group) does too little work per output for a GEMM to pay; it runs
// direct, vectorised over output positions. Each input plane is copied with
// zero borders (no tap ever falls outside, so no edge columns) and split by
// the strides into phase planes: with strides (sh, sw), phase plane (a, b)
// holds padded input (sh * y + a, sw * x + b) at (y, x), rows wq floats
// apart. Tap (i, k) of output (r, c) then reads padded (sh * r + i * dh,
// sw * c + k * dw), which is phase plane (i * dh % sh, k * dw % sw) at (r +
// i * dh / sh, c + k * dw / sw): every tap reads consecutive floats, and a
// whole output plane is one sweep over oh * wq positions on the padded width
// (the wq - ow past each row's end are dropped). The sweeps' bodies are in
// NnDepthwiseTaps.inc, one per ISA.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVTAPS_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVTAPS_H

#include "executor/kernels/conv/ChannelBlockTaps.h"
#include "executor/kernels/support/NnSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

/// Floats the sweeps may read or write past their n positions (two of the
/// widest vectors).
inline constexpr int64_t kTapSlack = 32;

class TapPlanes {
public:
  /// 2-D windows with strides of 1 or 2.
  static bool applies(const Window &w) {
    return w.rank == 2 && w.stride[1] <= 2 && w.stride[2] <= 2;
  }
  explicit TapPlanes(const Window &w);

  /// Floats of one input plane's phase planes (with the sweep's slack).
  int64_t channelFloats() const {
    return w_.stride[1] * w_.stride[2] * planeFloats_;
  }
  /// Positions of a sweep over one output plane, and its row pitch.
  int64_t positions() const { return w_.out[1] * wq_; }
  int64_t rowPitch() const { return wq_; }
  /// Per tap in W's order: its offset in a channel's phase planes from
  /// output (0, 0).
  const std::vector<int64_t> &tapOffsets() const { return tapOffsets_; }
  /// Copies `plane` into its phase planes at `dst` (channelFloats(), all
  /// written).
  void fill(const float *plane, float *dst) const;

private:
  Window w_;
  int64_t wq_, planeFloats_;
  std::vector<int64_t> tapOffsets_;
};

/// out[j] = bias + sum over taps t of w[t] * src[t][j], clamped to [lo, hi],
/// for j in [0, n) rounded up to 2 * 16 (the buffers have kTapSlack room).
void depthwiseTaps(const float *const *src, const float *w, int64_t taps,
                   float bias, float lo, float hi, int64_t n, float *out);
/// Four outputs (rows ldo apart) at once over the same inputs, weights
/// w4[4 * t + r]; no bias or clamp.
void groupedTaps(const float *const *src, const float *w4, int64_t taps,
                 int64_t n, float *out, int64_t ldo);

/// Output channels a channelTaps sweep computes at once.
inline constexpr int64_t kTapChannels = 8;
/// A conv with few input channels (an image's first conv: 3 channels, a 7x7
/// or 3x3 window at stride 2) has too shallow a GEMM for im2col to pay; it
/// runs direct, kTapChannels outputs at a time, so that each input vector
/// loaded feeds eight FMAs. Over n consecutive positions (one output row):
/// out[r * ldo + j] = bias8[r] + sum over taps t of w8[kTapChannels * t + r]
/// * base[offsets[t] + j], clamped to [lo, hi], for r < channels (<=
/// kTapChannels; bias8 has kTapChannels floats) and j in [0, n). Nothing is
/// written past n; the inputs are read up to n rounded up to 2 * 16
/// (kTapSlack).
void channelTaps(const float *base, const int64_t *offsets, const float *w8,
                 int64_t taps, const float *bias8, float lo, float hi,
                 int64_t n, int64_t channels, float *out, int64_t ldo);

/// Channels a depthwise channel block interleaves.
inline constexpr int64_t kChannelBlock = 16;
/// Output planes [c0, c0 + count) (count <= 16) of a depthwise conv of one
/// output channel per input channel, from input planes at `x` and weights at
/// `weights` (taps per channel), with `bias` (16 floats, the lanes past
/// count ignored; may be null), then the activation: through the channel
/// block (transposed in, swept, transposed out).
void depthwiseChannelBlock(const Window &w, const float *x,
                           const float *weights, const float *bias,
                           int64_t count, const Activation &act, float *y);

/// The same in NC1HWC0: `x`, `y` and the residual Z (may be null; added
/// before the activation) are one block of 16 interleaved planes each
/// ([H, W, 16]), read and written where they lie. The lanes past `count`
/// get bias 0, no weights and the activation.
void depthwiseInterleavedBlock(const Window &w, const float *x,
                               const float *weights, const float *bias,
                               int64_t count, const float *residual,
                               const Activation &act, float *y);

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVTAPS_H
