//===- NnDepthwiseBlocks.cpp - depthwise convs 16 channels at a time ------===//
//
// ConvTaps.h's channel block: up to 16 input planes interleaved into one
// zero-bordered buffer (position-major, 16 floats per position), swept by
// channelBlockTaps with the bias in its accumulators, the activation run
// over the block's outputs in place, and the planes written back out. The
// transposes take 16 positions at a time with AVX-512 (transpose16), else
// they are scalar, a few floats per output; the plane-at-a-time paths
// they replace on small maps lost most of each vector to rows 7 to 28 wide
// and filled a bordered copy per plane.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/ConvTaps.h"
#include "executor/kernels/CpuIsa.h"

#include <algorithm>

namespace geflow::kernels::nn {

void depthwiseChannelBlock(const Window &w, const float *x,
                           const float *weights, const float *bias,
                           int64_t count, const Activation &act, float *y) {
  const int64_t taps = w.kernel[1] * w.kernel[2];
  const int64_t inH = w.in[1], inW = w.in[2], outH = w.out[1], outW = w.out[2];
  // The padded extent the outputs read, and the input's place in it.
  const int64_t paddedH =
      (outH - 1) * w.stride[1] + (w.kernel[1] - 1) * w.dilation[1] + 1;
  const int64_t paddedW =
      (outW - 1) * w.stride[2] + (w.kernel[2] - 1) * w.dilation[2] + 1;
  const int64_t top = w.padBegin[1], left = w.padBegin[2];
  const int64_t in16 = paddedH * paddedW * 16, out16 = outH * outW * 16;
  float *in = scratch(in16 + out16 + taps * 16 + 16, 3);
  float *out = in + in16, *w16 = out + out16, *bias16 = w16 + taps * 16;

  std::fill(in, in + in16, 0.0f);
  const int64_t r0 = std::max<int64_t>(0, -top),
                r1 = std::min(inH, paddedH - top);
  const int64_t c0 = std::max<int64_t>(0, -left),
                c1 = std::min(inW, paddedW - left);
  // Channel innermost: each position's 16 floats are written together, and
  // the count planes are read as as many sequential streams (channel
  // outermost wrote a 64-byte line per float, 16 passes over the block).
  // A whole block with AVX-512 goes through `flat` (the planes' positions
  // interleaved in order, 16 at a time by transpose16), then row by row.
  const int64_t area = inH * inW;
#if GEFLOW_HAVE_X86_KERNELS
  const bool vectorTransposes = count == 16 && cpu::atLeast(cpu::Isa::kAvx512);
#else
  const bool vectorTransposes = false;
#endif
  if (vectorTransposes) {
    float *flat = scratch(area * 16, 4);
    int64_t p = 0;
#if GEFLOW_HAVE_X86_KERNELS
    for (; p + 16 <= area; p += 16)
      avx512::transpose16(x + p, area, flat + p * 16, 16);
#endif
    for (; p < area; ++p)
      for (int64_t l = 0; l < 16; ++l)
        flat[p * 16 + l] = x[l * area + p];
    for (int64_t r = r0; r < r1; ++r)
      std::copy(flat + (r * inW + c0) * 16, flat + (r * inW + c1) * 16,
                in + ((r + top) * paddedW + left + c0) * 16);
  } else {
    for (int64_t r = r0; r < r1; ++r) {
      float *to = in + ((r + top) * paddedW + left) * 16;
      const float *from = x + r * inW;
      for (int64_t c = c0; c < c1; ++c)
        for (int64_t l = 0; l < count; ++l)
          to[c * 16 + l] = from[l * area + c];
    }
  }
  std::fill(w16, w16 + taps * 16 + 16, 0.0f);
  for (int64_t l = 0; l < count; ++l) {
    for (int64_t t = 0; t < taps; ++t)
      w16[t * 16 + l] = weights[l * taps + t];
    bias16[l] = bias ? bias[l] : 0.0f;
  }

  ChannelBlockWindow window{outH,        outW,          paddedW,
                            w.kernel[1], w.kernel[2],   w.stride[1],
                            w.stride[2], w.dilation[1], w.dilation[2]};
  channelBlockTaps(in, window, w16, bias16, out);
  // Every lane gets the activation; those past `count` are not written.
  applyActivation(act, out, out16);
  const int64_t positions = outH * outW;
  int64_t p = 0;
#if GEFLOW_HAVE_X86_KERNELS
  if (vectorTransposes)
    for (; p + 16 <= positions; p += 16)
      avx512::transpose16(out + p * 16, 16, y + p, positions);
#endif
  for (; p < positions; ++p)
    for (int64_t l = 0; l < count; ++l)
      y[l * positions + p] = out[p * 16 + l];
}

} // namespace geflow::kernels::nn
