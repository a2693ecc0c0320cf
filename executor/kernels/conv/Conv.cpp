//===- Conv.cpp - conv as a GEMM ------------------------------------------===//
//
// Runs the plan of ConvPlan.h. With AVX2 + FMA the weights are packed once
// at creation (NnPackedGemm.h) and a run packs none. The columns: a 1x1,
// stride-1, unpadded conv reads X itself; with packed weights, a stride-1
// conv reads tap-shifted views of a padded slab of X (ConvShifted.h, tiles
// of whole output rows); others copy im2col columns. Small maps with
// positions as the GEMM's rows (ResNet's 14x14 and 7x7, MobileNet's late
// 1x1s) pack the columns from X into row panels through a table of offsets
// built at creation, against weights packed as W^T once, and copy each
// channel's column of the result into Y. A depthwise conv (one input
// channel per group, 1-D or 2-D) runs direct, one output plane per work
// item (NnDepthwise.cpp); a grouped conv with few taps per output (ResNeXt's
// and RegNet's, 4 to 32 channels per group), one (image, group) per work
// item: the group's input planes are laid out once (ConvTaps.h) and four
// output channels at a time sweep them. A 3x3 stride-1 conv with enough
// channels runs Winograd's F(4x4, 3x3) (ConvWinograd.h). A conv of at most
// four input channels (an image's first) runs direct too, over the phase
// planes of its input, eight output channels per sweep.
//
// The plan's work items are split for the simulated cores (16 or more); the
// host folds them into one share per host thread that runs the kernel and
// runs each share in the widest GEMMs it allows: all output channels of a
// run of column panels (im2col and 1x1 convs; where the panels split
// unevenly, a share of the channels instead), a share of the positions or of
// the channels of an image (positions as rows), a share of Winograd's blocks
// x 6-channel panels. One by one, the items would run the micro-kernel on
// 16- or 32-wide tiles, a third slower.
//
// fused_conv is conv with its residual Z added and its activation applied to
// each output tile while it is still in cache.
//
// Cost: 2*K FLOPs per output element (plus the bias add), Winograd's own
// count for its convs (a quarter of the multiplies, plus the transforms);
// bytes: X, W, B, Y.
//
//===----------------------------------------------------------------------===

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/conv/ConvBlocked.h"
#include "executor/kernels/conv/ConvColumns.h"
#include "executor/kernels/conv/ConvEpilogue.h"
#include "executor/kernels/conv/ConvPlan.h"
#include "executor/kernels/conv/ConvShifted.h"
#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/conv/ConvWinograd.h"
#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/layout/TransposeTiles.h"
#include "executor/kernels/support/NnSupport.h"
#include "runtime/HostWorkers.h"

#include <algorithm>
#include <limits>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;
using nn::Window;

namespace {

rt::Status planConv(const om::OpDef &op, KernelPlan *out) {
  ConvPlan c;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeConv(op, &c));
  out->engine = rt::Engine::kAic;
  out->maxBlocks = nn::blocksForFlops(c.items(), c.flopsPerItem());
  double outputs = static_cast<double>(c.s.yElems);
  out->cost.flops =
      (c.winograd ? c.items() * c.flopsPerItem() : 2.0 * c.k * outputs) +
      (c.s.hasBias ? outputs : 0.0) + (c.s.hasResidual ? outputs : 0.0) +
      (c.act.kind != nn::Activation::kNone ? outputs : 0.0);
  out->cost.bytes = c.s.ioBytes();
  return rt::Status::ok();
}

/// A 3x3 stride-1 depthwise map wider than this keeps its planes
/// (nn::depthwisePlane's rows): on wide rows their vector loop is as fast as
/// the channel block's sweep, which pays two transposes on top (measured on
/// EfficientNet's 112- and 56-wide layers). Narrower rows are mostly a row's
/// end and its padding.
constexpr int64_t kMaxChannelBlockWidth = 14;

/// A 3x3 window at stride 1 without dilation.
bool isPlainRow3x3(const nn::Window &w) {
  return w.kernel[1] == 3 && w.kernel[2] == 3 && w.stride[1] == 1 &&
         w.stride[2] == 1 && w.dilation[1] == 1 && w.dilation[2] == 1;
}

class ConvKernel final : public Kernel {
  using Epilogue = ConvEpilogue;

public:
  /// `weights` is W when it is a constant, else null: then, on CPUs that
  /// run the packed GEMM, each group's rows are packed here once.
  ConvKernel(const ConvPlan &c, const float *weights) : c_(c) {
    if (c_.groupedTaps || c_.channelTaps ||
        (c_.depthwise && nn::TapPlanes::applies(c_.s.w)))
      planes_ = std::make_unique<nn::TapPlanes>(c_.s.w);
    const nn::Window &w = c_.s.w;
    channelBlocks_ = c_.depthwise && c_.s.outPerGroup() == 1 && w.rank == 2 &&
                     !(isPlainRow3x3(w) && w.out[2] > kMaxChannelBlockWidth);
    if (c_.groupedTaps || c_.channelTaps)
      return;
    if (c_.winograd) {
      winograd_ = std::make_unique<nn::WinogradConv>(c_.s.w, c_.s.inChannels,
                                                     c_.s.outChannels, weights);
      return;
    }
    if (!weights || c_.depthwise || !nn::packedGemmAvailable())
      return;
    const int64_t mg = c_.s.outPerGroup();
    if (c_.positionRows) {
      for (int64_t g = 0; g < c_.s.group; ++g)
        transposed_.push_back(
            nn::packTransposedRows(weights + g * mg * c_.k, mg, c_.k, c_.k));
      if (!c_.pointwise)
        buildDirect();
      return;
    }
    if (c_.shifted)
      shifted_ = std::make_unique<nn::ShiftedConv>(c_.s.w, c_.s.inPerGroup(),
                                                   c_.tileCols / c_.s.w.out[2]);
    for (int64_t g = 0; g < c_.s.group; ++g) {
      const float *wg = weights + g * mg * c_.k;
      packed_.push_back(shifted_ ? shifted_->packWeights(wg, mg)
                                 : nn::packRows(wg, mg, c_.k, c_.k));
    }
  }

  /// W, in the order run() picks its path: only the paths that read packed
  /// weights leave it alone.
  bool readsConstantAtRun(int input) const override {
    if (input != 1 || c_.channelTaps || c_.depthwise)
      return true;
    if (winograd_)
      return winograd_->readsWeights();
    if (c_.groupedTaps)
      return true;
    return !shifted_ && transposed_.empty() && packed_.empty();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const auto [x, wt, bias, residual, y] =
        ConvBuffers::of(c_.s, inputs, outputs);
    // Blocks that would rebuild the columns of another block (channel tiles
    // of one column tile) are folded; column, Winograd and positionRows
    // convs split their work over the host threads themselves, in
    // micro-kernel panels (runColumns, runWinograd, runPositionRows).
    const bool fold = c_.rowTiles > 1;
    BlockRange items = fold ? foldedItems(blockIdx, blockDim)
                            : blockRange(c_.items(), blockIdx, blockDim);
    if (c_.channelTaps)
      return runChannelTaps(x, wt, bias, residual, y, items);
    if (c_.depthwise) {
      if (channelBlocks_ && !residual)
        return depthwiseBlocks(x, wt, bias, y, blockIdx, blockDim);
      for (int64_t i = items.begin; i < items.end; ++i)
        depthwisePlane(x, wt, bias, residual, y, i);
      return rt::Status::ok();
    }
    if (winograd_)
      return runWinograd(x, wt, bias, residual, y, blockIdx, blockDim);
    if (c_.groupedTaps)
      return runGroupedTaps(x, wt, bias, residual, y, items);
    if (shifted_)
      return runShifted(x, bias, residual, y, items);
    if (!transposed_.empty())
      return runPositionRows(x, bias, residual, y, blockIdx, blockDim);
    return runColumns(x, wt, bias, residual, y, blockIdx, blockDim);
  }

private:
  /// The im2col GEMM (or X itself for a 1x1 conv) on host tiles: each host
  /// thread takes a share (columnsShare) of the (image, group) maps' column
  /// panels, or of the output channels, and computes runs of adjacent
  /// columns share.columns at a time.
  rt::Status runColumns(const float *x, const float *wt, const float *bias,
                        const float *residual, float *y, uint32_t blockIdx,
                        uint32_t blockDim) const {
    const ConvShape &s = c_.s;
    const int64_t mg = s.outPerGroup(), cg = s.inPerGroup();
    const HostGroup group = hostGroup(blockIdx, blockDim);
    if (!group.active)
      return rt::Status::ok();
    const ColumnsShare share = columnsShare(c_, group.index, group.count);
    const int64_t perMap = ceilDiv(c_.p, nn::kPanelCols);
    const int64_t m0 = share.m0, m1 = share.m1, step = share.columns;
    float *col = c_.pointwise ? nullptr : nn::scratch(c_.k * step);
    for (int64_t u = share.panel0; u < share.panel1 && m0 < m1;) {
      const int64_t ng = u / perMap, g = ng % s.group, n = ng / s.group;
      const int64_t p0 = u % perMap * nn::kPanelCols;
      const int64_t end = std::min(share.panel1, (ng + 1) * perMap);
      const int64_t p1 =
          std::min({c_.p, p0 + step, (end - ng * perMap) * nn::kPanelCols});
      u = ng * perMap + ceilDiv(p1, nn::kPanelCols);
      const float *xg = x + (n * s.inChannels + g * cg) * s.w.inSize();
      float *yg = y + (n * s.outChannels + g * mg) * c_.p;
      const float *b = xg + p0;
      int64_t ldb = c_.p;
      if (!c_.pointwise) {
        nn::im2col(s.w, xg, cg, p0, p1, col);
        b = col;
        ldb = p1 - p0;
      }
      Epilogue e{bias ? bias + g * mg : nullptr, residual, y, &c_.act};
      nn::RowEpilogue epilogue{&Epilogue::apply, &e};
      if (clampBounds(c_.act, &epilogue.lo, &epilogue.hi)) {
        epilogue.apply = nullptr; // the micro-kernel does it as it stores
        epilogue.bias = e.bias;
        epilogue.residual = residual != nullptr;
        epilogue.residualOffset = residual ? residual - y : 0;
      }
      float *c = yg + m0 * c_.p + p0;
      if (!packed_.empty()) {
        nn::gemmPacked(packed_[g], m0, m1, p1 - p0, b, ldb, c, c_.p, &epilogue);
        continue;
      }
      nn::gemm(false, false, m1 - m0, p1 - p0, c_.k, 1.0f,
               wt + (g * mg + m0) * c_.k, c_.k, b, ldb, 0.0f, c, c_.p);
      for (int64_t m = m0; m < m1; ++m)
        Epilogue::apply(&e, m, yg + m * c_.p + p0, p1 - p0);
    }
    return rt::Status::ok();
  }

private:
  /// Winograd on the host: each host thread takes a share of the (image,
  /// block, output slice) x 6-channel panel units, balanced to a panel (the
  /// plan's channel tiles split ResNet's 256 channels on 14x14, one block,
  /// into 150 and 106), and transforms the input tiles of a block once for
  /// all of its panels in the share; a 3-D conv's output slices of a block
  /// follow each other, so an input slice's V is kept for the next output
  /// slices that read it.
  rt::Status runWinograd(const float *x, const float *wt, const float *bias,
                         const float *residual, float *y, uint32_t blockIdx,
                         uint32_t blockDim) const {
    const HostGroup group = hostGroup(blockIdx, blockDim);
    if (!group.active)
      return rt::Status::ok();
    const ConvShape &s = c_.s;
    const Window &w = s.w;
    const int64_t th = nn::WinogradConv::tileRows(w), m = s.outChannels;
    const int64_t panels = ceilDiv(m, nn::kPanelRows);
    const int64_t kt = w.kernel[0], slices = w.out[0];
    const int64_t blocks = c_.tiles / slices; // of each output slice
    const BlockRange share =
        blockRange(s.batch * c_.tiles * panels, group.index, group.count);
    // One V per depth tap; input slice d's in slot d % kt, which the
    // kt consecutive slices under an output slice never share.
    const int64_t slotFloats = winograd_->inputFloats(c_.tileCols);
    float *v = nn::scratch(kt * slotFloats, 1);
    int64_t held[nn::WinogradConv::kMaxDepthTaps]; // (image, block, slice)
    std::fill(held, held + kt, -1);
    const float *taps[nn::WinogradConv::kMaxDepthTaps];
    for (int64_t u = share.begin, last; u < share.end; u = last) {
      const int64_t unit = u / panels;
      last = std::min(share.end, (unit + 1) * panels);
      const int64_t od = unit % slices, nb = unit / slices;
      const int64_t block = nb % blocks, n = nb / blocks;
      const int64_t ty0 = block * c_.tileCols;
      const int64_t ty1 = std::min(th, ty0 + c_.tileCols);
      const float *xn = x + n * s.inChannels * w.inSize();
      const nn::WinogradConv::DepthTaps depth = winograd_->depthTaps(od);
      for (int64_t t = depth.first; t < depth.end; ++t) {
        const int64_t slice = depth.slice0 + t, slot = slice % kt;
        const int64_t key = nb * w.in[0] + slice;
        float *vs = v + slot * slotFloats;
        if (held[slot] != key)
          winograd_->transformInput(xn, slice, ty0, ty1, vs);
        held[slot] = key;
        taps[t] = vs;
      }
      const int64_t m0 = (u - unit * panels) * nn::kPanelRows;
      const int64_t m1 = std::min(m, (last - unit * panels) * nn::kPanelRows);
      Epilogue e{bias, residual, y, &c_.act};
      winograd_->multiply(taps, depth, ty0, ty1, m0, m1, wt,
                          y + n * m * c_.p + od * w.out[1] * w.out[2],
                          nn::RowEpilogue{&Epilogue::apply, &e});
    }
    return rt::Status::ok();
  }

  /// A grouped conv's (image, group) items, direct: the group's input
  /// planes laid out once, then four output channels per sweep (a last one
  /// to three alone), each written into Y with the epilogue.
  rt::Status runGroupedTaps(const float *x, const float *wt, const float *bias,
                            const float *residual, float *y,
                            BlockRange items) const {
    constexpr int64_t kOuts = 4; // outputs per nn::groupedTaps sweep
    const ConvShape &s = c_.s;
    const int64_t mg = s.outPerGroup(), cg = s.inPerGroup(), k = c_.k;
    const int64_t cf = planes_->channelFloats(), n = planes_->positions();
    const int64_t ld = n + nn::kTapSlack;
    float *phases = nn::scratch(cg * cf, 1);
    float *rows = nn::scratch(kOuts * ld, 2);
    float *w4 = nn::scratch(kOuts * k, 3);
    thread_local std::vector<const float *> src;
    src.clear();
    for (int64_t c = 0; c < cg; ++c) // (channel, tap): W's order
      for (int64_t offset : planes_->tapOffsets())
        src.push_back(phases + c * cf + offset);
    for (int64_t i = items.begin; i < items.end; ++i) {
      const int64_t g = i % s.group, img = i / s.group;
      const float *xg = x + (img * s.inChannels + g * cg) * s.w.inSize();
      for (int64_t c = 0; c < cg; ++c)
        planes_->fill(xg + c * s.w.inSize(), phases + c * cf);
      const float *wg = wt + g * mg * k;
      Epilogue e{bias ? bias + g * mg : nullptr, residual, y, &c_.act};
      ShiftedRows out{&e,         y + (img * s.outChannels + g * mg) * c_.p,
                      c_.p,       planes_->rowPitch(),
                      s.w.out[2], s.w.out[1]};
      for (int64_t m0 = 0; m0 < mg; m0 += kOuts) {
        if (m0 + kOuts > mg) { // the last few, one at a time
          for (int64_t m = m0; m < mg; ++m) {
            nn::depthwiseTaps(src.data(), wg + m * k, k, 0.0f,
                              -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::infinity(), n, rows);
            ShiftedRows::apply(&out, m, rows, n);
          }
          break;
        }
        for (int64_t t = 0; t < k; ++t)
          for (int64_t r = 0; r < kOuts; ++r)
            w4[t * kOuts + r] = wg[(m0 + r) * k + t];
        nn::groupedTaps(src.data(), w4, k, n, rows, ld);
        for (int64_t r = 0; r < kOuts; ++r)
          ShiftedRows::apply(&out, m0 + r, rows + r * ld, n);
      }
    }
    return rt::Status::ok();
  }

  /// A few-channel conv's (image, band of rows, block of channels) items,
  /// direct: the image's input planes laid out once per host thread, then
  /// the block's sweeps over the band's output rows, written into Y, and
  /// the epilogue on them while they are in cache.
  rt::Status runChannelTaps(const float *x, const float *wt, const float *bias,
                            const float *residual, float *y,
                            BlockRange items) const {
    const ConvShape &s = c_.s;
    const int64_t k = c_.k, channels = s.inChannels, m = s.outChannels;
    const int64_t cf = planes_->channelFloats(), pitch = planes_->rowPitch();
    const int64_t oh = s.w.out[1], ow = s.w.out[2];
    const int64_t bandRows = ow ? c_.tileCols / ow : 0; // no columns: no work
    float *phases = nn::scratch(channels * cf, 1);
    float *w8 = nn::scratch(nn::kTapChannels * k, 2);
    thread_local std::vector<int64_t> offsets; // (channel, tap): W's order
    offsets.clear();
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t offset : planes_->tapOffsets())
        offsets.push_back(c * cf + offset);
    // Bias and a clamp are applied as the sweep stores; a residual or
    // another activation after it, on rows still in cache.
    float lo, hi;
    const bool inSweep = !residual && clampBounds(c_.act, &lo, &hi);
    if (!inSweep) {
      lo = -std::numeric_limits<float>::infinity();
      hi = std::numeric_limits<float>::infinity();
    }
    Epilogue e{bias, residual, y, &c_.act};
    int64_t built = -1; // the image now in `phases`
    for (int64_t i = items.begin; i < items.end; ++i) {
      const int64_t block = i % c_.rowTiles, nb = i / c_.rowTiles;
      const int64_t band = nb % c_.tiles, n = nb / c_.tiles;
      if (built != n)
        for (int64_t c = 0; c < channels; ++c)
          planes_->fill(x + (n * channels + c) * s.w.inSize(), phases + c * cf);
      built = n;
      const int64_t m0 = block * nn::kTapChannels;
      const int64_t outs = std::min(nn::kTapChannels, m - m0);
      float bias8[nn::kTapChannels] = {};
      for (int64_t r = 0; r < outs; ++r) {
        bias8[r] = inSweep && bias ? bias[m0 + r] : 0.0f;
        for (int64_t t = 0; t < k; ++t)
          w8[t * nn::kTapChannels + r] = wt[(m0 + r) * k + t];
      }
      for (int64_t r = outs; r < nn::kTapChannels; ++r)
        for (int64_t t = 0; t < k; ++t)
          w8[t * nn::kTapChannels + r] = 0.0f;
      const int64_t r0 = band * bandRows, r1 = std::min(oh, r0 + bandRows);
      float *ym = y + (n * m + m0) * c_.p;
      for (int64_t row = r0; row < r1; ++row)
        nn::channelTaps(phases + row * pitch, offsets.data(), w8, k, bias8, lo,
                        hi, ow, outs, ym + row * ow, c_.p);
      for (int64_t r = 0; r < outs && !inSweep; ++r)
        Epilogue::apply(&e, m0 + r, ym + r * c_.p + r0 * ow, (r1 - r0) * ow);
    }
    return rt::Status::ok();
  }

  /// The work items of a stride-1 conv over whole output rows: the GEMM reads
  /// the padded input slab in place (ConvShifted.h) into a tile on the padded
  /// width, whose rows the epilogue copies into Y without their tails.
  rt::Status runShifted(const float *x, const float *bias,
                        const float *residual, float *y,
                        BlockRange items) const {
    const ConvShape &s = c_.s;
    const int64_t mg = s.outPerGroup(), cg = s.inPerGroup();
    const int64_t ow = s.w.out[2], tileOutRows = c_.tileCols / ow;
    const int64_t sliceTiles = ceilDiv(s.w.out[1], tileOutRows);
    float *slab = nn::scratch(shifted_->slabFloats(), 1);
    float *tile = nn::scratch(c_.tileRows * shifted_->columns(tileOutRows), 2);
    int64_t built = -1; // the (image, group, column tile) now in `slab`
    nn::BRows b;
    for (int64_t i = items.begin; i < items.end; ++i) {
      int64_t rowTile = i % c_.rowTiles, ngt = i / c_.rowTiles;
      int64_t t = ngt % c_.tiles, ng = ngt / c_.tiles;
      int64_t g = ng % s.group, n = ng / s.group;
      // Tile t: output rows [oh0, oh0 + outRows) of depth slice od.
      int64_t od = t / sliceTiles, oh0 = t % sliceTiles * tileOutRows;
      int64_t outRows = std::min(tileOutRows, s.w.out[1] - oh0);
      int64_t p0 = (od * s.w.out[1] + oh0) * ow;
      int64_t m0 = rowTile * c_.tileRows, m1 = std::min(mg, m0 + c_.tileRows);
      if (built != ngt)
        b = shifted_->buildSlab(x + (n * s.inChannels + g * cg) * s.w.inSize(),
                                od, oh0, outRows, slab);
      built = ngt;
      float *yg = y + (n * s.outChannels + g * mg) * c_.p;
      Epilogue e{bias ? bias + g * mg : nullptr, residual, y, &c_.act};
      ShiftedRows rows{&e, yg + p0, c_.p, shifted_->paddedWidth(), ow, outRows};
      nn::RowEpilogue epilogue{&ShiftedRows::apply, &rows};
      int64_t cols = shifted_->columns(outRows);
      nn::gemmPacked(packed_[g], m0, m1, cols, b, tile, cols, &epilogue);
    }
    return rt::Status::ok();
  }

  /// The items of block `blockIdx` when the blocks are folded into one
  /// group per host thread (hostGroup): a block that shares columns with
  /// the next would build them again.
  BlockRange foldedItems(uint32_t blockIdx, uint32_t blockDim) const {
    if (!shifted_)
      return hostShare(c_.items(), blockIdx, blockDim);
    // A shifted conv's short last tile of rows, or last tile of channels,
    // weighs less than the others: equal counts of items gave one of two
    // host threads three times the other's work on Inception's 7x1 convs
    // on 17x17 (tiles of 8, 8 and 1 rows).
    const int64_t outRows = c_.s.w.out[1], mg = c_.s.outPerGroup();
    const int64_t tileOutRows = c_.tileCols / c_.s.w.out[2];
    const int64_t sliceTiles = ceilDiv(outRows, tileOutRows);
    return hostShareByWork(c_.items(), blockIdx, blockDim, [&](int64_t i) {
      const int64_t m0 = i % c_.rowTiles * c_.tileRows;
      const int64_t oh0 = i / c_.rowTiles % c_.tiles % sliceTiles * tileOutRows;
      return std::min(tileOutRows, outRows - oh0) *
             std::min(c_.tileRows, mg - m0);
    });
  }
  /// hostShare of `count` units whose work differs: unit i weighs work(i)
  /// (> 0) and goes to the group whose part of the total holds its middle,
  /// so the groups' units stay contiguous and cover every unit once.
  template <class Work>
  static BlockRange hostShareByWork(int64_t count, uint32_t blockIdx,
                                    uint32_t blockDim, Work work) {
    const HostGroup share = hostGroup(blockIdx, blockDim);
    if (!share.active)
      return {0, 0};
    int64_t total = 0;
    for (int64_t i = 0; i < count; ++i)
      total += work(i);
    BlockRange range{0, 0};
    for (int64_t i = 0, before = 0; i < count; ++i) {
      const int64_t w = work(i);
      const int64_t group = (2 * before + w) * share.count / (2 * total);
      before += w;
      if (group < share.index)
        range.begin = range.end = i + 1;
      else if (group == share.index)
        range.end = i + 1;
      else
        break;
    }
    return range;
  }
  /// Of `count` units, the share of block `blockIdx` when the blocks are
  /// folded into one group per host thread (see foldedItems).
  static BlockRange hostShare(int64_t count, uint32_t blockIdx,
                              uint32_t blockDim) {
    const HostGroup share = hostGroup(blockIdx, blockDim);
    return share.active ? blockRange(count, share.index, share.count)
                        : BlockRange{0, 0};
  }

  /// A conv with positions as the GEMM's rows: the columns of an image and
  /// group are packed (transposed) once into row panels, C^T [positions x
  /// channel tile] is computed against the weights packed at load, and each
  /// channel's column of it becomes a row of Y.
  rt::Status runPositionRows(const float *x, const float *bias,
                             const float *residual, float *y, uint32_t blockIdx,
                             uint32_t blockDim) const {
    // Each host thread takes a share of the positions, every channel: the
    // GEMM keeps its width, and no thread packs panels another one packs
    // too (a share of the channels packed the whole map each). Where the
    // weights outweigh the positions (MobileNet's 1x1 convs to 960 channels
    // on 7x7), a share of the positions streamed all the weights once per
    // thread; those take a share of the channels instead.
    const HostGroup share = hostGroup(blockIdx, blockDim);
    const ConvShape &s = c_.s;
    const int64_t mg = s.outPerGroup(), cg = s.inPerGroup(), p = c_.p;
    const bool byChannels = mg > p;
    const int64_t allPanels = ceilDiv(p, nn::kPanelRows);
    const int64_t colPanels = ceilDiv(mg, nn::kPanelCols);
    const int64_t parts = byChannels ? colPanels : allPanels;
    const int64_t part0 = parts * share.index / share.count;
    const int64_t part1 = parts * (share.index + 1) / share.count;
    if (!share.active || part0 == part1)
      return rt::Status::ok();
    const int64_t panel0 = byChannels ? 0 : part0;
    const int64_t panel1 = byChannels ? allPanels : part1;
    const int64_t m0 = byChannels ? part0 * nn::kPanelCols : 0;
    const int64_t m1 = byChannels ? std::min(mg, part1 * nn::kPanelCols) : mg;
    const int64_t q0 = panel0 * nn::kPanelRows;
    const int64_t q1 = std::min(p, panel1 * nn::kPanelRows), rows = q1 - q0;
    // A 1x1 conv packs its positions' columns into panels; the others read
    // them where they lie in the padded input (nn::gemmDirect).
    float *panels =
        c_.pointwise ? nn::scratch(nn::rowPanelFloats(rows, c_.k), 1) : nullptr;
    float *cT = nn::scratch(roundUp(rows, nn::kPanelRows) * (m1 - m0), 2);
    for (int64_t ng = 0; ng < s.batch * s.group; ++ng) {
      const int64_t g = ng % s.group, n = ng / s.group;
      const float *xg = x + (n * s.inChannels + g * cg) * s.w.inSize();
      if (c_.pointwise) {
        nn::packColumnsAsRows(xg + q0, p, c_.k, rows, panels,
                              nn::kPanelRows * c_.k);
        nn::gemmPanels(panels, rows, transposed_[g], m0, m1, cT, m1 - m0);
      } else {
        const nn::DirectRows a{paddedInput(xg, q0, q1), directRows_.data() + q0,
                               directDepth_.data()};
        nn::gemmDirect(a, rows, transposed_[g], m0, m1, cT, m1 - m0);
      }
      float *yg = y + (n * s.outChannels + g * mg + m0) * p;
      Epilogue e{bias ? bias + g * mg : nullptr, residual, y, &c_.act};
      storeTransposed(cT, m1 - m0, q0, q1, p, yg, [&](int64_t m, float *row) {
        Epilogue::apply(&e, m0 + m, row, rows);
      });
    }
    return rt::Status::ok();
  }

  /// Positions [q0, q1) of Y's rows [0, width) (p apart) = the columns of
  /// cT [q1 - q0 x width], then `finish(m, row + q0)` on each row. Sixteen
  /// rows at a time, transposed in registers (TransposeTiles.h), while the
  /// rows being written stay in L1.
  template <typename Finish>
  static void storeTransposed(const float *cT, int64_t width, int64_t q0,
                              int64_t q1, int64_t p, float *y,
                              Finish &&finish) {
    constexpr int64_t kRows = 16;
    for (int64_t m0 = 0; m0 < width; m0 += kRows) {
      const int64_t rows = std::min(kRows, width - m0);
      nn::transposeMatrix(cT + m0, width, q1 - q0, rows, y + m0 * p + q0, p);
      for (int64_t r = 0; r < rows; ++r)
        finish(m0 + r, y + (m0 + r) * p + q0);
    }
  }

  /// gemmDirect's offsets into the input padded to paddedIn_ (per dim):
  /// per output position, its window's first tap; per (input channel, tap),
  /// in im2col's order of depth, that tap's. The plan keeps them within 32
  /// bits (positionRowsPay).
  void buildDirect() {
    const Window &w = c_.s.w;
    int64_t planeFloats = 1;
    for (int d = 0; d < 3; ++d) {
      paddedIn_[d] = directPaddedExtent(w, d);
      padsInput_ = padsInput_ || paddedIn_[d] != w.in[d];
      planeFloats *= paddedIn_[d];
    }
    const int64_t rowFloats = paddedIn_[2],
                  sliceFloats = paddedIn_[1] * rowFloats;
    for (int64_t o0 = 0; o0 < w.out[0]; ++o0)
      for (int64_t o1 = 0; o1 < w.out[1]; ++o1)
        for (int64_t o2 = 0; o2 < w.out[2]; ++o2)
          directRows_.push_back(static_cast<int32_t>(
              o0 * w.stride[0] * sliceFloats + o1 * w.stride[1] * rowFloats +
              o2 * w.stride[2]));
    for (int64_t c = 0; c < c_.s.inPerGroup(); ++c)
      for (int64_t k0 = 0; k0 < w.kernel[0]; ++k0)
        for (int64_t k1 = 0; k1 < w.kernel[1]; ++k1)
          for (int64_t k2 = 0; k2 < w.kernel[2]; ++k2)
            directDepth_.push_back(static_cast<int32_t>(
                c * planeFloats + k0 * w.dilation[0] * sliceFloats +
                k1 * w.dilation[1] * rowFloats + k2 * w.dilation[2]));
  }

  /// The channels of one (image, group) of X at `xg`, zero-padded to
  /// paddedIn_ in this thread's scratch (X itself when there is no
  /// padding): the padded rows the windows of positions [q0, q1) read, the
  /// only ones filled, so that host threads sharing the positions pad (and
  /// read) their own part of X.
  const float *paddedInput(const float *xg, int64_t q0, int64_t q1) const {
    if (!padsInput_)
      return xg;
    const Window &w = c_.s.w;
    const int64_t *to = paddedIn_;
    // Rows of the padded (depth x height) grid, [first, last] of each plane.
    auto firstRow = [&](int64_t q) {
      const int64_t o1 = q / w.out[2] % w.out[1], o0 = q / w.out[2] / w.out[1];
      return o0 * w.stride[0] * to[1] + o1 * w.stride[1];
    };
    const int64_t first = firstRow(q0);
    const int64_t last = firstRow(q1 - 1) +
                         (w.kernel[0] - 1) * w.dilation[0] * to[1] +
                         (w.kernel[1] - 1) * w.dilation[1];
    const int64_t planeRows = to[0] * to[1];
    float *padded = nn::scratch(c_.s.inPerGroup() * planeRows * to[2], 1);
    for (int64_t c = 0; c < c_.s.inPerGroup(); ++c)
      for (int64_t r = first; r <= last; ++r) {
        float *row = padded + (c * planeRows + r) * to[2];
        const int64_t i0 = r / to[1] - w.padBegin[0];
        const int64_t i1 = r % to[1] - w.padBegin[1];
        if (i0 < 0 || i0 >= w.in[0] || i1 < 0 || i1 >= w.in[1]) {
          std::fill(row, row + to[2], 0.0f);
          continue;
        }
        const float *from = xg + ((c * w.in[0] + i0) * w.in[1] + i1) * w.in[2];
        float *inside = std::fill_n(row, w.padBegin[2], 0.0f);
        inside = std::copy(from, from + w.in[2], inside);
        std::fill(inside, row + to[2], 0.0f);
      }
    return padded;
  }

  /// Output plane `item` = (image, output channel) of a depthwise conv.
  void depthwisePlane(const float *x, const float *wt, const float *bias,
                      const float *residual, float *y, int64_t item) const {
    const ConvShape &s = c_.s;
    int64_t co = item % s.outChannels, n = item / s.outChannels;
    int64_t ci = co / s.outPerGroup();
    nn::depthwisePlane(
        s.w, planes_.get(), x + (n * s.inChannels + ci) * s.w.inSize(),
        wt + co * s.w.kernelSize(), bias ? bias[co] : 0.0f,
        residual ? residual + item * c_.p : nullptr, c_.act, y + item * c_.p);
  }

  /// Output planes `items` of a depthwise conv of one output per input
  /// channel, up to 16 channels of one image at a time (ConvTaps.h).
  rt::Status depthwiseBlocks(const float *x, const float *wt, const float *bias,
                             float *y, uint32_t blockIdx,
                             uint32_t blockDim) const {
    // The blocks take whole groups of 16 channels (one image's): a range of
    // planes cut elsewhere would leave a short group, whose transposes run
    // scalar.
    const ConvShape &s = c_.s;
    const int64_t perImage = ceilDiv(s.outChannels, nn::kChannelBlock);
    const BlockRange groups =
        blockRange(s.batch * perImage, blockIdx, blockDim);
    for (int64_t g = groups.begin; g < groups.end; ++g) {
      const int64_t n = g / perImage;
      const int64_t co = g % perImage * nn::kChannelBlock;
      const int64_t count = std::min(nn::kChannelBlock, s.outChannels - co);
      nn::depthwiseChannelBlock(s.w, x + (n * s.inChannels + co) * s.w.inSize(),
                                wt + co * s.w.kernelSize(),
                                bias ? bias + co : nullptr, count, c_.act,
                                y + (n * s.outChannels + co) * c_.p);
    }
    return rt::Status::ok();
  }

  const ConvPlan c_;
  std::vector<nn::PackedRows> packed_;     // per group; empty: nn::gemm on W
  std::vector<nn::PackedCols> transposed_; // per group, W^T: positionRows
  // positionRows by gemmDirect (not 1x1): see buildDirect.
  std::vector<int32_t> directRows_, directDepth_;
  int64_t paddedIn_[3] = {1, 1, 1};
  bool padsInput_ = false;
  std::unique_ptr<nn::ShiftedConv> shifted_; // packed_ is tap-major
  std::unique_ptr<nn::WinogradConv> winograd_;
  std::unique_ptr<nn::TapPlanes> planes_; // groupedTaps, depthwise
  // A depthwise conv on a small 2-D map, one output per channel: its planes
  // 16 at a time, interleaved (nn::depthwiseChannelBlock).
  bool channelBlocks_ = false;
};

rt::Status createConv(const KernelSpec &spec, std::unique_ptr<Kernel> *out) {
  ConvPlan c;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeConv(*spec.op, &c));
  const auto *weights = static_cast<const float *>(
      spec.constantInputs.size() > 1 ? spec.constantInputs[1] : nullptr);
  if (c.s.blocked)
    *out = makeBlockedConv(c, weights);
  else
    *out = std::make_unique<ConvKernel>(c, weights);
  return rt::Status::ok();
}

} // namespace

void geflow::kernels::registerConvKernels(KernelRegistry &registry) {
  registry.add("conv", {planConv, createConv});
  registry.add("fused_conv", {planConv, createConv});
}
