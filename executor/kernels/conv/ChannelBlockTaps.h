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
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CHANNELBLOCKTAPS_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CHANNELBLOCKTAPS_H

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

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CHANNELBLOCKTAPS_H
