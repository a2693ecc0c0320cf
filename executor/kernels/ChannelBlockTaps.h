//===- ChannelBlockTaps.h - depthwise taps over 16 interleaved channels ---===//
//
// The window of a depthwise conv over 16 interleaved channels: each
// position of the zero-bordered input and of the output holds 16 floats,
// one per channel, so every tap is one vector FMA for all 16 (no lane
// wasted on a row's end, no border fill per plane). Small maps' planes
// (EfficientNet's and MobileNet's 28x28 to 7x7) were mostly that waste.
// No inline functions here: the ISA builds (NnDepthwiseAvx*.cpp) include it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CHANNELBLOCKTAPS_H
#define GEFLOW_EXECUTOR_KERNELS_CHANNELBLOCKTAPS_H

#include <cstdint>

namespace geflow::kernels::nn {

struct ChannelBlockWindow {
  int64_t outH, outW, paddedW;
  int64_t kernelH, kernelW, strideH, strideW, dilationH, dilationW;
};

/// out[(r * outW + c) * 16 + l] = bias16[l] + sum over taps (i, k) of
/// w16[(i * kernelW + k) * 16 + l] * in[((r * strideH + i * dilationH) *
/// paddedW + c * strideW + k * dilationW) * 16 + l].
void channelBlockTaps(const float *in, const ChannelBlockWindow &w,
                      const float *w16, const float *bias16, float *out);

#if GEFLOW_HAVE_X86_KERNELS
namespace avx512 {
/// dst[j * dstStride + i] = src[i * srcStride + j] for i, j < 16: the
/// channel block's transposes in and out, 16 positions of 16 channels at a
/// time (AVX-512 only; the other ISAs run them scalar).
void transpose16(const float *src, int64_t srcStride, float *dst,
                 int64_t dstStride);
} // namespace avx512
namespace avx2 {
/// dst[j * dstStride + i] = src[i * srcStride + j] for i, j < 8: the
/// channel block's transposes where AVX-512 is not there (or a block has
/// fewer than 16 channels).
void transpose8(const float *src, int64_t srcStride, float *dst,
                int64_t dstStride);
} // namespace avx2
#endif

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CHANNELBLOCKTAPS_H
