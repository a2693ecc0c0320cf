//===- NnDepthwiseBlocks.cpp - depthwise convs 16 channels at a time ------===//
//
// ConvTaps.h's channel block: up to 16 input planes interleaved into one
// zero-bordered buffer (position-major, 16 floats per position), swept by
// channelBlockTaps with the bias in its accumulators, the activation run
// over the block's outputs in place, and the planes written back out.
//
// The block goes through the map in strips of output rows, sized so that a
// strip's input and output stay in L2: a whole 112x112 block (800 KB each
// way) went out to memory between the transposes and the sweep, and lost to
// the plane-at-a-time rows it was meant to replace. Input rows are
// interleaved straight into the strip's zero-bordered rows; the rows two
// strips share move to the top of the buffer instead of being interleaved
// again. The transposes go in register tiles (TransposeTiles.h). In
// NC1HWC0 the block already is interleaved: its rows are copied into the
// strip as they are and the sweep writes Y itself.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/layout/TransposeTiles.h"

#include <algorithm>
#include <cstring>

namespace geflow::kernels::nn {
namespace {

/// What one strip's buffers (its padded input rows and its outputs) may
/// take: inside a core's L2 with room for the next layer's operands (96 KB
/// measured a little faster than 256 and 512 KB on Zen 4's 1 MB L2).
constexpr int64_t kStripBytes = 96 * 1024;

} // namespace

namespace {

/// The sweep both layouts share: `fillRow(ih, c0, c1, to)` writes input row
/// ih's columns [c0, c1) interleaved at `to`; `strip(r0, rows)` is where
/// output rows [r0, r0 + rows) go, interleaved; `finish(r0, rows, out)`
/// takes them from there once swept (bias added).
template <class FillRow, class Strip, class Finish>
void sweepChannelBlock(const Window &w, const float *weights, const float *bias,
                       int64_t count, bool outInScratch, FillRow &&fillRow,
                       Strip &&strip, Finish &&finish) {
  const int64_t taps = w.kernel[1] * w.kernel[2];
  const int64_t inH = w.in[1], inW = w.in[2], outH = w.out[1], outW = w.out[2];
  const int64_t sh = w.stride[1], reach = (w.kernel[1] - 1) * w.dilation[1];
  // The padded width the outputs read, and the input's place in it.
  const int64_t paddedW =
      (outW - 1) * w.stride[2] + (w.kernel[2] - 1) * w.dilation[2] + 1;
  const int64_t top = w.padBegin[1], left = w.padBegin[2];
  const int64_t c0 = std::max<int64_t>(0, -left),
                c1 = std::min(inW, paddedW - left);

  // Output rows per strip: each adds sh padded rows and an output row.
  const int64_t rowBytes = (sh * paddedW + outW) * 16 * 4;
  const int64_t fixedBytes = reach * paddedW * 16 * 4;
  const int64_t stripRows =
      std::clamp<int64_t>((kStripBytes - fixedBytes) / rowBytes, 1, outH);
  const int64_t inRows = (stripRows - 1) * sh + reach + 1;
  const int64_t in16 = inRows * paddedW * 16,
                out16 = outInScratch ? stripRows * outW * 16 : 0;
  float *in = scratch(in16 + out16 + taps * 16 + 16, 3);
  float *out = in + in16, *w16 = out + out16, *bias16 = w16 + taps * 16;

  std::fill(w16, w16 + taps * 16 + 16, 0.0f);
  for (int64_t l = 0; l < count; ++l) {
    for (int64_t t = 0; t < taps; ++t)
      w16[t * 16 + l] = weights[l * taps + t];
    bias16[l] = bias ? bias[l] : 0.0f;
  }
  // The border columns are zero once for all strips: the rows below write
  // columns [left + c0, left + c1) only.
  std::fill(in, in + in16, 0.0f);

  // Padded rows [held0, held1) are in the buffer from the strip before.
  int64_t held0 = 0, held1 = 0;
  for (int64_t r0 = 0; r0 < outH; r0 += stripRows) {
    const int64_t rows = std::min(stripRows, outH - r0);
    const int64_t p0 = r0 * sh, p1 = (r0 + rows - 1) * sh + reach + 1;
    auto padRow = [&](int64_t pr) { return in + (pr - p0) * paddedW * 16; };
    int64_t from = p0;
    if (held0 < p0 && p0 < held1) {
      std::memmove(in, in + (p0 - held0) * paddedW * 16,
                   (held1 - p0) * paddedW * 16 * sizeof(float));
      from = held1;
    }
    // Padded rows from..p1: input rows interleaved in place, or padding.
    for (int64_t pr = from; pr < p1 && c0 < c1; ++pr) {
      const int64_t ih = pr - top;
      float *to = padRow(pr) + (left + c0) * 16;
      if (ih >= 0 && ih < inH)
        fillRow(ih, c0, c1, to);
      else
        std::fill(to, to + (c1 - c0) * 16, 0.0f);
    }
    held0 = p0;
    held1 = p1;

    ChannelBlockWindow window{rows,        outW,          paddedW,
                              w.kernel[1], w.kernel[2],   sh,
                              w.stride[2], w.dilation[1], w.dilation[2]};
    float *dst = outInScratch ? out : strip(r0, rows);
    channelBlockTaps(in, window, w16, bias16, dst);
    finish(r0, rows, dst);
  }
}

} // namespace

void depthwiseChannelBlock(const Window &w, const float *x,
                           const float *weights, const float *bias,
                           int64_t count, const Activation &act, float *y) {
  const int64_t area = w.in[1] * w.in[2], outW = w.out[2],
                positions = w.out[1] * outW;
  sweepChannelBlock(
      w, weights, bias, count, /*outInScratch=*/true,
      [&](int64_t ih, int64_t c0, int64_t c1, float *to) {
        transposeMatrix(x + ih * w.in[2] + c0, area, count, c1 - c0, to, 16);
      },
      [](int64_t, int64_t) { return static_cast<float *>(nullptr); },
      [&](int64_t r0, int64_t rows, float *out) {
        // Every lane gets the activation; those past `count` are not
        // written.
        applyActivation(act, out, rows * outW * 16);
        transposeMatrix(out, 16, rows * outW, count, y + r0 * outW, positions);
      });
}

void depthwiseInterleavedBlock(const Window &w, const float *x,
                               const float *weights, const float *bias,
                               int64_t count, const float *residual,
                               const Activation &act, float *y) {
  const int64_t inW = w.in[2], outW = w.out[2];
  sweepChannelBlock(
      w, weights, bias, count, /*outInScratch=*/false,
      [&](int64_t ih, int64_t c0, int64_t c1, float *to) {
        std::memcpy(to, x + (ih * inW + c0) * 16,
                    (c1 - c0) * 16 * sizeof(float));
      },
      [&](int64_t r0, int64_t) { return y + r0 * outW * 16; },
      [&](int64_t r0, int64_t rows, float *out) {
        const int64_t n = rows * outW * 16;
        if (residual) {
          const float *z = residual + r0 * outW * 16;
          for (int64_t i = 0; i < n; ++i)
            out[i] += z[i];
        }
        applyActivation(act, out, n);
      });
}

} // namespace geflow::kernels::nn
