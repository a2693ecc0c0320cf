//===- ConvPlan.cpp - how a conv splits into work items -------------------===//

#include "executor/kernels/conv/ConvPlan.h"

#include "executor/kernels/conv/ConvShifted.h"
#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/conv/ConvWinograd.h"
#include "executor/kernels/gemm/NnPackedGemm.h"

#include <algorithm>
#include <cstdint>

using namespace geflow;
using namespace geflow::kernels;
using nn::Window;

namespace {

/// Floats of im2col scratch a column tile aims for (fits in L2).
constexpr int64_t kColTileFloats = 1 << 16;
/// A host tile's im2col columns: at least the micro-kernel's 64-wide tile
/// (narrower ones take 12x32 or 24x16 tiles, a third slower), within a
/// budget four times a column tile's. The GEMM reads each depth chunk of
/// them once per 1024 output channels, so the budget bounds memory, not
/// cache misses.
constexpr int64_t kMinHostTileCols = 64;
constexpr int64_t kHostTileFloats = 4 * kColTileFloats;
/// A 1x1 conv reads X where it lies (no im2col) but keeps to a column
/// tile's budget: the GEMM's row blocks sweep its depth chunk of X once
/// each, from L2 at that size; a whole 56x56 map (3 MB at 256 channels)
/// came from L3 every 6 to 18 output channels (AVX2: 7.5 -> 5.4 ms for
/// ResNeXt's 256 -> 256 1x1 conv; AVX-512, with its prefetches, unchanged).
constexpr int64_t kPointwiseHostTileFloats = kColTileFloats;
/// Work items a conv aims for before it narrows its column tiles below the
/// L2-sized ones, the narrowest column tile (one micro-kernel panel wide),
/// and for a split of output channels, the fewest channels of a tile and the
/// multiple they round to (whole panels of nn::gemmPacked and of Eigen's
/// GEMM).
constexpr int64_t kTargetItems = 16;
constexpr int64_t kMinTileCols = nn::kPanelCols;
constexpr int64_t kMinRowTile = 32;
constexpr int64_t kRowTileMultiple = nn::kPanelRows;

/// Output maps of at most this many positions (18x18) put them on the
/// GEMM's rows: the packed columns (an im2col over the whole map) stay in
/// L2, and a map of 17x17 or less loses a large share of its last 16-wide
/// column panel, or of the padded width of ConvShifted, to padding. 1x1
/// convs, which need no im2col otherwise, only from a smaller map on
/// (measured, ResNet's and MobileNet's shapes). On Zen 4 the 17x17 and 18x18
/// maps had paid only where the padded rows of a shifted conv were wider
/// than its output (Inception's 1x7); on Zen 5, whose FMAs are twice Zen
/// 4's, they pay for its 7x1 convs (192 -> 192: 0.93 -> 0.85 ms at one
/// thread, 0.57 -> 0.45 at two) and its 3x3 at stride 2 to 17x17 (288 ->
/// 384: 3.29 -> 3.02 ms, 1.91 -> 1.68) too.
constexpr int64_t kMaxPositionRows = 324;
constexpr int64_t kMaxPointwisePositionRows = 64;

bool positionRowsPay(const ConvPlan &c) {
  if (c.s.w.kernelSize() == 1)
    return c.p <= kMaxPointwisePositionRows;
  // The direct GEMM addresses a group's padded input with 32-bit offsets
  // (a large input under a wide stride could overflow them).
  int64_t padded = c.s.inPerGroup();
  for (int d = 0; d < 3; ++d)
    padded *= directPaddedExtent(c.s.w, d);
  return c.p <= kMaxPositionRows && padded <= INT32_MAX;
}

/// Lanes the micro-kernel computes for n real GEMM columns: whole panels.
/// A last panel of at most 8 columns costs half of one with AVX2's 8-lane
/// vectors, but all of one with AVX-512's 16 lanes under a mask; the plan
/// must not depend on the machine, and AVX-512's count is the one that
/// keeps its tiles whole (Inception's 17x17 1x7 convs: tiles of 2 rows, 40
/// columns, ran as 48-wide tiles at 71 % useful lanes; 3 rows fill 64).
int64_t panelLanes(int64_t n) {
  return (n + nn::kPanelCols - 1) / nn::kPanelCols * nn::kPanelCols;
}

/// Output rows per tile of a shifted conv: of 2 to 8 rows whose padded slab
/// (`channels` planes) fits in kColTileFloats, the count whose GEMM columns
/// on the padded width waste the fewest micro-kernel lanes per output
/// (ResNet's 56x56: 5 rows, 3% lost; 28x28: 3 rows, 5%; two rows lost 7%
/// and 14%).
int64_t shiftedTileRows(const Window &w, int64_t channels) {
  const int64_t ow = w.out[2], padded = ow + w.kernel[2] - 1;
  int64_t best = 0;
  double bestWaste = 0;
  for (int64_t r = 1; r <= std::min<int64_t>(8, w.out[1]); ++r) {
    if (r > 1 && nn::ShiftedConv::slabFloats(w, channels, r) > kColTileFloats)
      break;
    if (r == 1 && w.out[1] > 1)
      continue; // one row per tile copies each input row kernel-height times
    double waste =
        static_cast<double>(panelLanes((r - 1) * padded + ow)) / (r * ow);
    if (best == 0 || waste < bestWaste) {
      best = r;
      bestWaste = waste;
    }
  }
  // No slab of two rows fits: one row per tile after all.
  return std::max<int64_t>(best, 1);
}

/// One tile of all positions per image and group; channels split into
/// whole column panels until there are kTargetItems work items (the
/// simulated cores' split; the host folds them, runPositionRows).
rt::Status planPositionRows(ConvPlan *c) {
  c->positionRows = true;
  c->tileCols = std::max<int64_t>(c->p, 1);
  c->tiles = 1;
  const int64_t mg = std::max<int64_t>(c->s.outPerGroup(), 1);
  const int64_t images = std::max<int64_t>(c->s.batch * c->s.group, 1);
  int64_t want = std::max<int64_t>(1, ceilDiv(kTargetItems, images));
  c->tileRows = std::min(roundUp(mg, nn::kPanelCols),
                         roundUp(ceilDiv(mg, want), nn::kPanelCols));
  c->rowTiles = ceilDiv(mg, c->tileRows);
  return rt::Status::ok();
}

/// Output channels per work item when images x column tiles give fewer
/// than kTargetItems: split into tiles of whole panels, at least
/// kMinRowTile each.
void splitRows(ConvPlan *c, int64_t base) {
  int64_t mg = c->s.outPerGroup();
  c->tileRows = std::max<int64_t>(mg, 1);
  if (base < kTargetItems && mg >= 2 * kMinRowTile) {
    int64_t want = std::min(ceilDiv(kTargetItems, base), mg / kMinRowTile);
    c->tileRows =
        std::max(kRowTileMultiple,
                 ceilDiv(mg, want) / kRowTileMultiple * kRowTileMultiple);
  }
  c->rowTiles = ceilDiv(std::max<int64_t>(mg, 1), c->tileRows);
}

/// Grouped convs whose GEMM depth (channels per group x taps) is at most
/// this run direct (ConvTaps.h), half of it when strided: their GEMMs are
/// too small to pay (measured on ResNeXt's and RegNet's groups: 2-4x at
/// stride 1; at stride 2, 32 channels per group ran 10% faster as GEMMs).
constexpr int64_t kMaxGroupedTaps = 288;

/// Input channels of the convs that run channelTaps: 3 for an image, 4 for
/// RGBA or a depth channel. Measured warm on the zoo's first convs at stride
/// 2, im2col GEMM against direct: ResNet's 3 -> 64 7x7 3.3 against 2.8-3.1
/// ms, EfficientNet's 3 -> 32 3x3 0.38 against 0.34 ms.
constexpr int64_t kMaxTapInputChannels = 4;

bool channelTapsApply(const ConvPlan &c) {
  return c.s.group == 1 && !c.pointwise && nn::TapPlanes::applies(c.s.w) &&
         c.s.inChannels <= kMaxTapInputChannels &&
         c.s.outChannels >= nn::kTapChannels;
}

/// Work items of whole output rows and blocks of kTapChannels channels:
/// bands of rows until there are kTargetItems.
rt::Status planChannelTaps(ConvPlan *c) {
  c->channelTaps = true;
  c->depthwise = false; // one input channel, but many outputs per sweep
  const nn::Window &w = c->s.w;
  c->tileRows = nn::kTapChannels;
  c->rowTiles = ceilDiv(c->s.outChannels, c->tileRows);
  // An empty batch or map still makes one (empty) band.
  const int64_t images = std::max<int64_t>(c->s.batch, 1);
  const int64_t bands = std::max<int64_t>(
      1, std::min(w.out[1], ceilDiv(kTargetItems, images * c->rowTiles)));
  const int64_t bandRows = std::max<int64_t>(1, ceilDiv(w.out[1], bands));
  c->tiles = ceilDiv(w.out[1], bandRows);
  c->tileCols = bandRows * w.out[2];
  return rt::Status::ok();
}

/// Winograd's channel tiles when its blocks are too few and its channels too
/// few for splitRows: at least two panels each, so that DenseNet's 3x3 convs
/// to 32 channels on 14x14 maps are more than one simulated block.
constexpr int64_t kMinWinogradRowTile = 2 * nn::kPanelRows;
constexpr double kMaxWinogradSplitCost = 1.25;

/// Blocks of whole rows of 4x4 tiles per image and output depth slice,
/// channels split as for GEMMs or, with fewer channels, into tiles of at
/// least kMinWinogradRowTile: the simulated cores' items (the host splits
/// 6-channel panels, runWinograd).
rt::Status planWinograd(ConvPlan *c) {
  c->winograd = true;
  c->tileCols = nn::WinogradConv::blockTileRows(c->s.w, c->s.inPerGroup());
  c->tiles =
      c->s.w.out[0] * ceilDiv(nn::WinogradConv::tileRows(c->s.w), c->tileCols);
  const int64_t blocks = c->s.batch * c->tiles, mg = c->s.outPerGroup();
  splitRows(c, blocks);
  if (c->rowTiles == 1 && blocks < kTargetItems &&
      mg >= 2 * kMinWinogradRowTile) {
    // Each channel tile transforms the block's input again: not where that
    // is a large part of the work (many input channels, few outputs).
    const double whole = c->items() * c->flopsPerItem();
    const int64_t want =
        std::min(ceilDiv(kTargetItems, blocks), mg / kMinWinogradRowTile);
    c->tileRows = roundUp(ceilDiv(mg, want), kRowTileMultiple);
    c->rowTiles = ceilDiv(mg, c->tileRows);
    if (c->items() * c->flopsPerItem() > kMaxWinogradSplitCost * whole) {
      c->tileRows = mg;
      c->rowTiles = 1;
    }
  }
  return rt::Status::ok();
}

} // namespace

int64_t geflow::kernels::directPaddedExtent(const Window &w, int d) {
  return std::max(w.in[d] + w.padBegin[d] + w.padEnd[d],
                  (w.out[d] - 1) * w.stride[d] +
                      (w.kernel[d] - 1) * w.dilation[d] + 1);
}

rt::Status geflow::kernels::analyzeConv(const om::OpDef &op, ConvPlan *c) {
  GEFLOW_RT_RETURN_IF_ERROR(analyzeConvShape(op, false, &c->s));
  GEFLOW_RT_RETURN_IF_ERROR(nn::parseActivation(op, &c->act));
  const Window &w = c->s.w;
  c->k = c->s.inPerGroup() * w.kernelSize();
  c->p = w.outSize();
  c->pointwise = w.kernelSize() == 1;
  for (int d = 0; d < 3; ++d)
    c->pointwise = c->pointwise && w.stride[d] == 1 && w.padBegin[d] == 0 &&
                   w.padEnd[d] == 0 && w.in[d] == w.out[d];
  c->depthwise = c->s.inPerGroup() == 1 && w.rank <= 2 && !c->pointwise;
  if (c->s.blocked) {
    // The layout decides: blocks of interleaved planes, or a GEMM whose
    // rows are positions and whose columns are blocks of channels.
    c->depthwise = c->s.group > 1;
    // The direct GEMM's offsets into an image's padded blocks are 32-bit.
    const int64_t padded = roundUp(c->s.inChannels, nn::kChannelBlock) *
                           directPaddedExtent(w, 1) * directPaddedExtent(w, 2);
    if (!c->depthwise && padded > INT32_MAX)
      return opError(op, "NC1HWC0 input too large for 32-bit offsets");
    return c->depthwise ? rt::Status::ok() : planPositionRows(c);
  }
  if (nn::WinogradConv::applies(w, c->s.group, c->s.inPerGroup(),
                                c->s.outPerGroup()))
    return planWinograd(c);
  if (channelTapsApply(*c))
    return planChannelTaps(c);
  if (c->s.group > 1 && !c->depthwise && !c->pointwise &&
      nn::TapPlanes::applies(w) &&
      c->k <= (w.stride[1] * w.stride[2] > 1 ? kMaxGroupedTaps / 2
                                             : kMaxGroupedTaps)) {
    c->groupedTaps = true; // one item per (image, group)
    c->tileCols = std::max<int64_t>(c->p, 1);
    c->tileRows = std::max<int64_t>(c->s.outPerGroup(), 1);
    return rt::Status::ok();
  }
  if (!c->depthwise && positionRowsPay(*c))
    return planPositionRows(c);
  int64_t cols =
      std::max<int64_t>(64, kColTileFloats / std::max<int64_t>(c->k, 1));
  cols = (cols + 15) / 16 * 16;
  int64_t images = std::max<int64_t>(c->s.batch * c->s.group, 1);
  c->shifted = !c->pointwise && !c->depthwise && nn::ShiftedConv::applies(w);
  // A shifted conv splits output channels rather than narrow its tiles: a
  // channel tile only rebuilds a small slab, a column tile streams all the
  // weights again.
  if (!c->shifted && images * ceilDiv(c->p, cols) < kTargetItems) {
    int64_t perImage = ceilDiv(kTargetItems, images);
    cols = std::max(kMinTileCols, ceilDiv(ceilDiv(c->p, perImage), 16) * 16);
  }
  c->tileCols = std::max<int64_t>(1, std::min(cols, c->p));
  c->tiles = ceilDiv(c->p, c->tileCols);
  if (c->shifted) { // tiles of whole output rows of one depth slice
    int64_t rows = shiftedTileRows(w, c->s.inPerGroup());
    c->tileCols = rows * w.out[2];
    c->tiles = w.out[0] * ceilDiv(w.out[1], rows);
  }
  splitRows(c, images * c->tiles);
  return rt::Status::ok();
}

/// Output channels from which an im2col conv may split its channels over
/// the host threads: each builds the whole im2col then, a copy of the
/// columns that costs about 1/channels of the GEMM (ResNet's 1x1 stride-2
/// downsamples to 512 and 1024 on 28x28 and 14x14 maps).
constexpr int64_t kMinChannelsForRowShares = 64;

ColumnsShare geflow::kernels::columnsShare(const ConvPlan &c, int64_t index,
                                           int64_t count) {
  const int64_t mg = c.s.outPerGroup(), maps = c.s.batch * c.s.group;
  ColumnsShare share;
  const int64_t budget =
      (c.pointwise ? kPointwiseHostTileFloats : kHostTileFloats) /
      std::max<int64_t>(c.k, 1);
  share.columns =
      std::max(kMinHostTileCols, budget) / nn::kPanelCols * nn::kPanelCols;
  const int64_t panels = maps * ceilDiv(c.p, nn::kPanelCols);
  const int64_t rowPanels = ceilDiv(mg, nn::kPanelRows);
  // Each share's micro-kernel lanes, the largest share's: whole panels of
  // 16 columns by 6 rows.
  const int64_t byColumns = ceilDiv(panels, count) * rowPanels;
  const int64_t byRows = panels * ceilDiv(rowPanels, count);
  // A share of the channels builds the whole im2col (a 1x1 conv needs
  // none): worth it where the GEMM has channels enough to dwarf the copy.
  const bool rows = (c.pointwise || mg >= kMinChannelsForRowShares) &&
                    count > 1 &&
                    (byRows < byColumns || (byRows == byColumns && mg > c.p));
  if (rows) {
    const BlockRange r = blockRange(rowPanels, index, count);
    share.panel1 = panels;
    share.m0 = r.begin * nn::kPanelRows;
    share.m1 = std::min(mg, r.end * nn::kPanelRows);
    return share;
  }
  const BlockRange r = blockRange(panels, index, count);
  share.panel0 = r.begin;
  share.panel1 = r.end;
  share.m1 = mg;
  return share;
}

double ConvPlan::flopsPerItem() const {
  if (winograd)
    return nn::WinogradConv::flops(s.w, s.inPerGroup(), tileRows, tileCols);
  if (depthwise)
    return 2.0 * k * p * (s.blocked ? nn::kChannelBlock : 1);
  return 2.0 * tileRows * k * tileCols;
}
