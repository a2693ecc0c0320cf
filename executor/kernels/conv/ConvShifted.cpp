//===- ConvShifted.cpp - stride-1 convs as GEMMs over shifted rows --------===//

#include "executor/kernels/conv/ConvShifted.h"

#include <algorithm>

using namespace geflow::kernels::nn;

bool ShiftedConv::applies(const Window &w) {
  bool unit = true;
  for (int d = 0; d < 3; ++d)
    unit = unit && w.stride[d] == 1 && w.dilation[d] == 1;
  return unit && w.kernelSize() > 1;
}

ShiftedConv::ShiftedConv(const Window &w, int64_t channels, int64_t tileRows)
    : w_(w), channels_(channels), paddedWidth_(w.out[2] + w.kernel[2] - 1),
      depthFloats_((tileRows + w.kernel[1] - 1) * paddedWidth_),
      tileRows_(tileRows) {
  // Tap (kd, kh, kw), in W's order, reads the slab shifted by its offset.
  for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
    for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
      for (int64_t kw = 0; kw < w.kernel[2]; ++kw)
        tapOffsets_.push_back(kd * depthFloats_ + kh * paddedWidth_ + kw);
}

PackedRows ShiftedConv::packWeights(const float *w, int64_t rows) const {
  const int64_t taps = w_.kernelSize(), depth = channels_ * taps;
  std::vector<float> tapMajor(rows * depth);
  for (int64_t m = 0; m < rows; ++m)
    for (int64_t c = 0; c < channels_; ++c)
      for (int64_t t = 0; t < taps; ++t)
        tapMajor[m * depth + t * channels_ + c] =
            w[(m * channels_ + c) * taps + t];
  return packRows(tapMajor.data(), rows, depth, depth);
}

int64_t ShiftedConv::slabFloats(const Window &w, int64_t channels,
                                int64_t tileRows) {
  // Per channel, kernel-depth planes of the tile's input rows and one more
  // row: the last tap of the last output row reads kernel-1 columns past
  // the slab's last full row.
  const int64_t paddedWidth = w.out[2] + w.kernel[2] - 1;
  return channels * (w.kernel[0] * (tileRows + w.kernel[1] - 1) + 1) *
         paddedWidth;
}

int64_t ShiftedConv::columns(int64_t outRows) const {
  return (outRows - 1) * paddedWidth_ + w_.out[2];
}

BRows ShiftedConv::buildSlab(const float *x, int64_t od, int64_t oh0,
                             int64_t outRows, float *slab) const {
  // A short last tile fills the first rows of each plane.
  const int64_t slabRows = outRows + w_.kernel[1] - 1;
  const int64_t channelFloats = w_.kernel[0] * depthFloats_ + paddedWidth_;
  const int64_t left = w_.padBegin[2];
  const int64_t width = std::min(w_.in[2], paddedWidth_ - left);
  for (int64_t c = 0; c < channels_; ++c) {
    float *dst = slab + c * channelFloats;
    for (int64_t kd = 0; kd < w_.kernel[0]; ++kd) {
      dst = slab + c * channelFloats + kd * depthFloats_;
      const int64_t id = od + kd - w_.padBegin[0];
      const float *plane =
          x + (c * w_.in[0] + id) * w_.in[1] * w_.in[2]; // if id is inside
      for (int64_t r = 0; r < slabRows; ++r, dst += paddedWidth_) {
        int64_t ih = oh0 + r - w_.padBegin[1];
        if (id < 0 || id >= w_.in[0] || ih < 0 || ih >= w_.in[1] ||
            width <= 0) {
          std::fill(dst, dst + paddedWidth_, 0.0f);
          continue;
        }
        std::fill(dst, dst + left, 0.0f);
        std::copy(plane + ih * w_.in[2], plane + ih * w_.in[2] + width,
                  dst + left);
        std::fill(dst + left + width, dst + paddedWidth_, 0.0f);
      }
    }
    dst = slab + c * channelFloats + w_.kernel[0] * depthFloats_;
    std::fill(dst, dst + paddedWidth_, 0.0f);
  }
  return BRows{slab, channelFloats, channels_, tapOffsets_.data()};
}
