//===- ConvPlan.h - how a conv splits into work items -----------*- C++ -*-===//
//
// conv: per image and group, Y_g[M/g x P] = W_g[M/g x K] * col[K x P] with
// K = C/g * prod(kernel) and P = prod(output spatial). Block split: (image x
// group x column tile of P x output-channel tile); a block builds the columns
// of its tiles once and writes disjoint tiles of Y. The plan picks the path
// (Conv.cpp runs it) and its tiles, from the op alone, so the compiler's
// cost and block count and the kernel's work items agree by construction:
// small late-stage maps get narrower column tiles so there are still enough
// to go round (not the shifted ones: each column tile streams all weights
// again), and when those are still too few, output channels split too (a
// channel tile in another block rebuilds the same columns). Maps of at most
// 256 positions whose last column panels would be mostly padding turn the
// GEMM around (positionRows); depthwise and grouped convs with few taps per
// output run direct (ConvTaps.h); 3x3 stride-1 convs with enough channels
// run Winograd (ConvWinograd.h), in blocks of whole rows of 4x4 tiles;
// convs of an image's few channels run direct, eight outputs at a time.
// In NC1HWC0 (ConvBlocked.h) a depthwise conv runs direct, a block of 16
// channels per work item, and any other with positions as rows.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVPLAN_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVPLAN_H

#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/support/NnSupport.h"

#include <cstdint>

namespace geflow::kernels {

struct ConvPlan {
  ConvShape s;
  int64_t k = 0;        // GEMM depth: C/g * prod(kernel)
  int64_t p = 0;        // output positions per image
  int64_t tileCols = 1; // columns of P per work item
  int64_t tiles = 1;
  int64_t tileRows = 1; // output channels (of a group) per work item
  int64_t rowTiles = 1;
  bool pointwise = false; // X is the column matrix
  bool depthwise = false; // direct path, one output plane per work item
  bool shifted = false;   // whole output rows per tile (ConvShifted.h)
  // Output positions are the GEMM's rows and output channels its columns
  // (tileRows counts channels then): small maps, where whole 16-wide column
  // panels of positions would be mostly padding.
  bool positionRows = false;
  // Winograd F(4x4, 3x3): `tiles` counts blocks of `tileCols` rows of 4x4
  // tiles (not positions) of each output depth slice.
  bool winograd = false;
  // Grouped, few taps per output: one (image, group) per work item, direct.
  bool groupedTaps = false;
  // At most kMaxTapInputChannels input channels, not grouped (an image's
  // first conv): direct, nn::kTapChannels outputs per sweep (ConvTaps.h).
  // Work items are (image, band of tileCols / out width rows, block of
  // tileRows output channels).
  bool channelTaps = false;
  nn::Activation act; // fused_conv's; none for conv

  // GEMM work items are ordered (image, group, column tile, row tile); a
  // depthwise conv's are output planes, or in NC1HWC0 (s.blocked) blocks of
  // 16 of them.
  int64_t items() const {
    if (depthwise)
      return s.batch * (s.blocked ? ceilDiv(s.outChannels, nn::kChannelBlock)
                                  : s.outChannels);
    return s.batch * s.group * tiles * rowTiles;
  }
  double flopsPerItem() const;
};

/// The plan of a conv or fused_conv op.
rt::Status analyzeConv(const om::OpDef &op, ConvPlan *c);

/// The extent of dim d of a conv's input padded for its windows: what
/// positionRows' direct GEMM (nn::gemmDirect) addresses, its offsets 32-bit.
int64_t directPaddedExtent(const nn::Window &w, int d);

/// One host thread's part of a conv run on columns (im2col and 1x1 convs):
/// a range of the (image, group) maps' kPanelCols-wide column panels, all
/// output channels; or all columns and a range of the output channels (of
/// every group), taken where the column panels split unevenly (ResNeXt's
/// 14x14 maps: 13 panels, the last of 4 columns) or the weights outweigh
/// the columns, by 1x1 convs and by convs with channels enough to pay for
/// an im2col per thread.
struct ColumnsShare {
  // Over batch * group maps of ceilDiv(p, kPanelCols) panels each.
  int64_t panel0 = 0, panel1 = 0;
  int64_t m0 = 0, m1 = 0; // output channels of each group
  // Columns of the im2col GEMM (or of X, for a 1x1 conv) computed at once:
  // whole panels, as many as the budget holds. The simulated cores' items
  // are split for 16 or more cores; one by one they would run 16-wide
  // tiles.
  int64_t columns = 0;
};
ColumnsShare columnsShare(const ConvPlan &c, int64_t index, int64_t count);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVPLAN_H
