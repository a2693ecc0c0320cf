//===- ConvBlocked.cpp - convs in NC1HWC0 ---------------------------------===//
//
// A depthwise conv takes its blocks of 16 interleaved planes where they lie
// (nn::depthwiseInterleavedBlock): one work item per (image, block). Any
// other conv (one group) is a GEMM with output positions as rows and output
// channels as columns, the layout's natural order: row r of A at depth k =
// (input channel c, tap) is X at the offset of r's window plus that of
// (block c / 16, tap, lane c % 16), so A is read where it lies in the
// (zero-bordered) input against W^T packed at creation, and each 16-wide
// column block of C is one output block's rows: nn::gemmDirectBlocked
// stores it there with its bias, residual and a clamp, no transpose; any
// other activation runs over the chunk of positions while it is in cache.
// Without the packed GEMM (the SSE baseline, or W not a constant), A is
// gathered by the same offsets into rows for nn::gemm and C copied into the
// blocks.
//
// Host threads share the positions of each image, or where the weights
// outweigh them (late 7x7 maps), the output channels in whole 16-wide
// blocks.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvBlocked.h"

#include "executor/kernels/conv/ConvEpilogue.h"
#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/NnSupport.h"

#include <algorithm>
#include <cstring>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;

namespace {

constexpr int64_t kLanes = nn::kChannelBlock;
/// Floats of C^T per GEMM call (a chunk of positions by the thread's
/// channels): stored into the blocks while still in L1 / L2.
constexpr int64_t kChunkFloats = 16 * 1024;

class BlockedConvKernel final : public Kernel {
public:
  BlockedConvKernel(const ConvPlan &c, const float *weights) : c_(c) {
    if (c_.depthwise)
      return;
    const ConvShape &s = c_.s;
    if (weights && nn::packedGemmAvailable())
      packed_ = nn::packTransposedRows(weights, s.outChannels, c_.k, c_.k);
    buildOffsets();
  }

  bool readsConstantAtRun(int input) const override {
    return input != 1 || c_.depthwise || packed_.depth == 0;
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const auto [x, wt, bias, residual, y] =
        ConvBuffers::of(c_.s, inputs, outputs);
    if (c_.depthwise) {
      runDepthwise(x, wt, bias, residual, y,
                   blockRange(c_.items(), blockIdx, blockDim));
      return rt::Status::ok();
    }
    return runPositionRows(x, wt, bias, residual, y, blockIdx, blockDim);
  }

private:
  /// Blocks [items) = (image, block of 16 channels).
  void runDepthwise(const float *x, const float *wt, const float *bias,
                    const float *residual, float *y, BlockRange items) const {
    const ConvShape &s = c_.s;
    const int64_t blocks = ceilDiv(s.outChannels, kLanes);
    const int64_t inBlock = s.w.inSize() * kLanes, outBlock = c_.p * kLanes;
    for (int64_t i = items.begin; i < items.end; ++i) {
      const int64_t c0 = i % blocks * kLanes;
      nn::depthwiseInterleavedBlock(
          s.w, x + i * inBlock, wt + c0 * s.w.kernelSize(),
          bias ? bias + c0 : nullptr, std::min(kLanes, s.outChannels - c0),
          residual ? residual + i * outBlock : nullptr, c_.act,
          y + i * outBlock);
    }
  }

  /// This host thread's positions (or channel blocks) of every image.
  rt::Status runPositionRows(const float *x, const float *wt, const float *bias,
                             const float *residual, float *y, uint32_t blockIdx,
                             uint32_t blockDim) const {
    const HostGroup share = hostGroup(blockIdx, blockDim);
    const ConvShape &s = c_.s;
    const int64_t m = s.outChannels, p = c_.p;
    const bool byChannels = m > p;
    const int64_t rowPanels = ceilDiv(p, nn::kPanelRows);
    const int64_t parts = byChannels ? ceilDiv(m, kLanes) : rowPanels;
    const BlockRange part = share.active
                                ? blockRange(parts, share.index, share.count)
                                : BlockRange{0, 0};
    if (part.begin == part.end)
      return rt::Status::ok();
    const int64_t m0 = byChannels ? part.begin * kLanes : 0;
    const int64_t m1 = byChannels ? std::min(m, part.end * kLanes) : m;
    const int64_t q0 = byChannels ? 0 : part.begin * nn::kPanelRows;
    const int64_t q1 = byChannels ? p : std::min(p, part.end * nn::kPanelRows);
    const int64_t width = m1 - m0;
    // Positions a GEMM call takes: its C^T stays in L1 / L2 for the store.
    const int64_t chunk =
        std::clamp<int64_t>(kChunkFloats / std::max<int64_t>(width, 1) /
                                nn::kPanelRows * nn::kPanelRows,
                            nn::kPanelRows, roundUp(q1 - q0, nn::kPanelRows));
    float *cT = packed_.depth != 0 ? nullptr : nn::scratch(chunk * width, 2);
    const int64_t inImage =
                      ceilDiv(s.inChannels, kLanes) * s.w.inSize() * kLanes,
                  outImage = ceilDiv(m, kLanes) * p * kLanes;
    // The bias in whole blocks (zero past the channels): the GEMM adds it
    // to every lane it stores.
    thread_local std::vector<float> bias16;
    if (bias) {
      bias16.assign(roundUp(m, kLanes), 0.0f);
      std::copy(bias, bias + m, bias16.begin());
    }
    nn::BlockedFinish finish;
    finish.bias = bias ? bias16.data() + m0 : nullptr;
    finish.residual = residual != nullptr;
    finish.residualOffset = residual ? residual - y : 0;
    const bool clamps = clampBounds(c_.act, &finish.lo, &finish.hi);
    for (int64_t n = 0; n < s.batch; ++n) {
      const float *base = paddedInput(x + n * inImage);
      float *yn = y + n * outImage;
      for (int64_t r0 = q0; r0 < q1; r0 += chunk) {
        const int64_t r1 = std::min(q1, r0 + chunk), rows = r1 - r0;
        if (packed_.depth != 0) {
          // Straight into Y's blocks, bias, residual and a clamp on the
          // way; any other activation while the chunk is in cache.
          const nn::DirectRows a{base, rowOffsets_.data() + r0,
                                 depthOffsets_.data()};
          float *first = yn + (m0 / kLanes * p + r0) * kLanes;
          nn::gemmDirectBlocked(a, rows, packed_, m0, m1, first, p * kLanes,
                                finish);
          if (!clamps)
            for (int64_t j = m0; j < m1; j += kLanes)
              nn::applyActivation(c_.act, yn + (j / kLanes * p + r0) * kLanes,
                                  rows * kLanes);
          continue;
        }
        float *a = nn::scratch(rows * c_.k, 1);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t k = 0; k < c_.k; ++k)
            a[r * c_.k + k] = base[rowOffsets_[r0 + r] + depthOffsets_[k]];
        nn::gemm(false, true, rows, width, c_.k, 1.0f, a, c_.k, wt + m0 * c_.k,
                 c_.k, 0.0f, cT, width);
        storeBlocks(cT, width, m0, r0, r1, bias,
                    residual ? residual + n * outImage : nullptr, yn);
      }
    }
    return rt::Status::ok();
  }

  /// C^T's columns [m0, m0 + width) (whole blocks but the last) of
  /// positions [q0, q1) into Y's blocks, with bias, residual and the
  /// activation; lanes past the channels are 0 before the activation.
  void storeBlocks(const float *cT, int64_t width, int64_t m0, int64_t q0,
                   int64_t q1, const float *bias, const float *residual,
                   float *y) const {
    const int64_t p = c_.p, rows = q1 - q0;
    for (int64_t j = m0; j < m0 + width; j += kLanes) {
      const int64_t lanes = std::min(kLanes, m0 + width - j);
      float b[kLanes] = {};
      for (int64_t l = 0; l < lanes && bias; ++l)
        b[l] = bias[j + l];
      const int64_t at = (j / kLanes * p + q0) * kLanes;
      float *out = y + at;
      const float *from = cT + (j - m0);
      if (lanes == kLanes) {
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t l = 0; l < kLanes; ++l)
            out[r * kLanes + l] = from[r * width + l] + b[l];
      } else {
        for (int64_t r = 0; r < rows; ++r) {
          std::fill_n(std::copy_n(from + r * width, lanes, out + r * kLanes),
                      kLanes - lanes, 0.0f);
          for (int64_t l = 0; l < lanes; ++l)
            out[r * kLanes + l] += b[l];
        }
      }
      if (residual) {
        const float *z = residual + at;
        for (int64_t i = 0; i < rows * kLanes; ++i)
          out[i] += z[i];
      }
      nn::applyActivation(c_.act, out, rows * kLanes);
    }
  }

  /// Per output position the offset of its window's first tap; per depth
  /// (input channel, tap) in W's order, that tap's: over the input padded
  /// to paddedH_ x paddedW_ per block.
  void buildOffsets() {
    const nn::Window &w = c_.s.w;
    paddedH_ = directPaddedExtent(w, 1);
    paddedW_ = directPaddedExtent(w, 2);
    padded_ = paddedH_ != w.in[1] || paddedW_ != w.in[2];
    for (int64_t oh = 0; oh < w.out[1]; ++oh)
      for (int64_t ow = 0; ow < w.out[2]; ++ow)
        rowOffsets_.push_back(static_cast<int32_t>(
            (oh * w.stride[1] * paddedW_ + ow * w.stride[2]) * kLanes));
    const int64_t block = paddedH_ * paddedW_ * kLanes;
    for (int64_t c = 0; c < c_.s.inChannels; ++c)
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw)
          depthOffsets_.push_back(static_cast<int32_t>(
              c / kLanes * block +
              (kh * w.dilation[1] * paddedW_ + kw * w.dilation[2]) * kLanes +
              c % kLanes));
  }

  /// One image's blocks zero-bordered to paddedH_ x paddedW_ in this
  /// thread's scratch (the image itself when the windows need no border).
  const float *paddedInput(const float *image) const {
    if (!padded_)
      return image;
    const nn::Window &w = c_.s.w;
    const int64_t blocks = ceilDiv(c_.s.inChannels, kLanes);
    const int64_t rowFloats = paddedW_ * kLanes;
    float *padded = nn::scratch(blocks * paddedH_ * rowFloats, 3);
    for (int64_t b = 0; b < blocks; ++b)
      for (int64_t r = 0; r < paddedH_; ++r) {
        float *row = padded + (b * paddedH_ + r) * rowFloats;
        const int64_t ih = r - w.padBegin[1];
        if (ih < 0 || ih >= w.in[1]) {
          std::fill(row, row + rowFloats, 0.0f);
          continue;
        }
        float *inside = std::fill_n(row, w.padBegin[2] * kLanes, 0.0f);
        const float *from = image + (b * w.in[1] + ih) * w.in[2] * kLanes;
        inside = std::copy(from, from + w.in[2] * kLanes, inside);
        std::fill(inside, row + rowFloats, 0.0f);
      }
    return padded;
  }

  const ConvPlan c_;
  nn::PackedCols packed_; // W^T; depth 0: nn::gemm on W at run time
  std::vector<int32_t> rowOffsets_, depthOffsets_;
  int64_t paddedH_ = 1, paddedW_ = 1;
  bool padded_ = false;
};

} // namespace

std::unique_ptr<Kernel> kernels::makeBlockedConv(const ConvPlan &c,
                                                 const float *weights) {
  return std::make_unique<BlockedConvKernel>(c, weights);
}
