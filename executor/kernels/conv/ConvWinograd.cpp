//===- ConvWinograd.cpp - 3x3 convs by Winograd's F(4x4, 3x3) -------------===//
//
// A work item is a block of whole rows of tiles and a range of output
// channels. Its input tiles are gathered one channel at a time, so the
// gather stays in L1: the channel's rows under the block copied with zero
// borders, each row deinterleaved into the tiles' columns (stride 4), and
// transformed into V [36][C][tiles]. The 36 GEMMs then run on
// chunks of kRowChunk output channels, each chunk's products [36][chunk x
// tiles] staying in L2 for the output transform, which writes 4x4 tiles
// into Y; Y's rows of the block then get the conv's epilogue.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvWinograd.h"

#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/isa/IsaDispatch.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace geflow::kernels::nn {
namespace baseline {
constexpr int kLanes = 4;
#include "executor/kernels/isa/ConvWinogradBody.inc"

inline Vec loadLanes(const float *p, int64_t lo, int64_t hi) {
  Vec v = {};
  for (int64_t q = lo; q < hi; ++q)
    v[q] = p[q];
  return v;
}

inline void storeFirst(float *p, Vec v, int64_t n) {
  std::memcpy(p, &v, n * sizeof(float));
}
} // namespace baseline
#if GEFLOW_HAVE_X86_KERNELS
#define GEFLOW_WINOGRAD_DECLARE                                                \
  void winogradGather(const float *plane, int64_t width, int64_t height,       \
                      int64_t top, int64_t left, int64_t rows, int64_t tw,     \
                      float *d, int64_t ldd);                                  \
  void winogradScatter(const float *o, int64_t ldo, float *row, int64_t ow);   \
  void winogradInput(const float *d, int64_t ldd, int64_t n, float *v,         \
                     int64_t vStride);                                         \
  void winogradOutput(const float *m, int64_t mStride, int64_t n, float *o,    \
                      int64_t ldo);
namespace avx2 {
GEFLOW_WINOGRAD_DECLARE
} // namespace avx2
namespace avx512 {
GEFLOW_WINOGRAD_DECLARE
} // namespace avx512
#undef GEFLOW_WINOGRAD_DECLARE
#endif
} // namespace geflow::kernels::nn

using namespace geflow::kernels;
using nn::Window;

namespace {

/// Transformed positions: a 6x6 input tile per 4x4 output tile.
constexpr int64_t kPositions = 36;
/// Rows of V and of the products are a multiple of this many floats apart:
/// every transform body reads whole vectors (16 lanes at most), and the
/// GEMMs run on whole column panels, read in place (the columns past the
/// tiles hold values no tile reads back).
constexpr int64_t kRowAlign = std::max<int64_t>(16, nn::kPanelCols);
/// The 36 positions' matrices of V and of the products lie one cache line
/// more than their size apart: channels x ld is mostly a multiple of 1024
/// floats, and 36 rows 4 KB apart all fall in one set of L1 (8 ways), so
/// the transforms, which touch one row of each, missed on nearly every
/// access (DenseNet's 128 -> 32 convs on 56x56: the input transform took
/// a third of the conv).
constexpr int64_t kPositionPad = kRowAlign;
/// The widest vector of any transform body (AVX-512's 16 floats).
constexpr int64_t kMaxLanes = 16;
/// Output channels whose products a chunk keeps (a multiple of kPanelRows):
/// [36 x 48 x tiles] stays in L2 between the GEMMs and the output transform.
constexpr int64_t kRowChunk = 48;
/// V's budget in floats (512 KB, half of L2): it is read once per chunk.
constexpr int64_t kInputFloats = 1 << 17;
/// The fewest input and output channels, and output rows and columns, for
/// which the transforms pay (measured on ResNet's and VGG's shapes). An 8x8
/// map is 2x2 tiles, GEMMs 4 columns wide: Inception's 448->384 convs there
/// took 3.4 ms as Winograd, 1.6 ms as a GEMM over positions.
constexpr int64_t kMinChannels = 16;
constexpr int64_t kMinMap = 9;

/// G g for a 3-vector g (stride sg) into six values (stride sr), in double
/// (one rounding to float at the end), by multiplies: divisions made
/// loading ResNet-50 a tenth of a second slower.
void weightStep(const double *g, int sg, double *r, int sr) {
  constexpr double k4 = 1.0 / 4, k6 = 1.0 / 6, k12 = 1.0 / 12, k24 = 1.0 / 24;
  const double g0 = g[0], g1 = g[sg], g2 = g[2 * sg];
  r[0] = g0 * k4;
  r[sr] = -(g0 + g1 + g2) * k6;
  r[2 * sr] = -(g0 - g1 + g2) * k6;
  r[3 * sr] = g0 * k24 + g1 * k12 + g2 * k6;
  r[4 * sr] = g0 * k24 - g1 * k12 + g2 * k6;
  r[5 * sr] = g2;
}

} // namespace

bool nn::WinogradConv::applies(const Window &w, int64_t group, int64_t channels,
                               int64_t outChannels) {
  return (w.rank == 2 || w.rank == 3) && group == 1 && w.kernel[1] == 3 &&
         w.kernel[2] == 3 && w.stride[1] == 1 && w.stride[2] == 1 &&
         w.dilation[0] == 1 && w.dilation[1] == 1 && w.dilation[2] == 1 &&
         w.kernel[0] <= kMaxDepthTaps && channels >= kMinChannels &&
         outChannels >= kMinChannels && w.out[1] >= kMinMap &&
         w.out[2] >= kMinMap;
}

int64_t nn::WinogradConv::blockTileRows(const Window &w, int64_t channels) {
  const int64_t th = tileRows(w), tw = (w.out[2] + 3) / 4;
  int64_t best = 1;
  double bestWaste = 0;
  for (int64_t r = 1; r <= th; ++r) {
    const int64_t tiles = r * tw, lanes = roundUp(tiles, kPanelCols);
    // Past the budget, only to fill one column panel.
    if (r > 1 && kPositions * channels * lanes > kInputFloats &&
        (r - 1) * tw >= kPanelCols)
      break;
    double waste = static_cast<double>(lanes) / tiles;
    if (r == 1 || waste <= bestWaste) {
      best = r;
      bestWaste = waste;
    }
  }
  return best;
}

double nn::WinogradConv::flops(const Window &w, int64_t channels,
                               int64_t outChannels, int64_t tileRows) {
  const double tiles = static_cast<double>(tileRows) * ((w.out[2] + 3) / 4);
  // Per tile: 2 * 36 per channel pair and depth tap; B^T d B about 264 per
  // input channel and slice (each slice once at stride 1, when its output
  // slices run in order), A^T M A about 170 per output channel.
  const double depth = static_cast<double>(channels) * w.kernel[0];
  const double slices = w.stride[0] < w.kernel[0] ? w.stride[0] : w.kernel[0];
  return tiles * (2.0 * kPositions * depth * outChannels +
                  264.0 * channels * slices + 170.0 * outChannels);
}

nn::WinogradConv::WinogradConv(const Window &w, int64_t channels,
                               int64_t outChannels, const float *weights)
    : w_(w), channels_(channels), outChannels_(outChannels),
      tileCols_((w.out[2] + 3) / 4), depthTaps_(w.kernel[0]),
      depth_(depthTaps_ * channels) {
  if (!weights)
    return;
  u_.resize(kPositions * outChannels * depth_);
  transformWeights(weights, 0, outChannels, u_.data());
  if (!packedGemmAvailable())
    return;
  for (int64_t xi = 0; xi < kPositions; ++xi)
    packed_.push_back(packRows(u_.data() + xi * outChannels * depth_,
                               outChannels, depth_, depth_));
  u_ = {};
}

void nn::WinogradConv::transformWeights(const float *w, int64_t m0, int64_t m1,
                                        float *u) const {
  const int64_t rows = m1 - m0, c = channels_, kt = depthTaps_;
  for (int64_t m = m0; m < m1; ++m)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t t = 0; t < kt; ++t) {
        const float *g = w + ((m * c + ci) * kt + t) * 9;
        double in[9], mid[18], out[36];
        std::copy(g, g + 9, in);
        for (int j = 0; j < 3; ++j) // columns: mid[3k + j] = (G g)[k][j]
          weightStep(in + j, 3, mid + j, 3);
        for (int k = 0; k < 6; ++k) // rows: (G g G^T)[k][l]
          weightStep(mid + 3 * k, 1, out + 6 * k, 1);
        for (int64_t xi = 0; xi < kPositions; ++xi)
          u[(xi * rows + m - m0) * depth_ + t * c + ci] =
              static_cast<float>(out[xi]);
      }
}

int64_t nn::WinogradConv::inputFloats(int64_t tileRows) const {
  return kPositions *
         (channels_ * roundUp(tileRows * tileCols_, kRowAlign) + kPositionPad);
}

void nn::WinogradConv::transformInput(const float *x, int64_t slice,
                                      int64_t ty0, int64_t ty1,
                                      float *v) const {
  const int64_t tw = tileCols_, tiles = (ty1 - ty0) * tw;
  const int64_t ld = roundUp(tiles, kRowAlign);
  // d's rows hold whole vectors past the tiles (winogradGather).
  const int64_t ldd = roundUp(tiles + 2 * kMaxLanes, kRowAlign);
  float *d = scratch(kPositions * ldd, 0);
  const int64_t top = 4 * ty0 - w_.padBegin[1], left = w_.padBegin[2];
  const auto gather = GEFLOW_PICK_BODY(nn, winogradGather);
  const auto input = GEFLOW_PICK_BODY(nn, winogradInput);
  const float *plane = x + slice * w_.in[1] * w_.in[2];
  for (int64_t c = 0; c < channels_; ++c) {
    gather(plane + c * w_.inSize(), w_.in[2], w_.in[1], top, left, ty1 - ty0,
           tw, d, ldd);
    input(d, ldd, tiles, v + c * ld, channels_ * ld + kPositionPad);
  }
}

nn::WinogradConv::DepthTaps nn::WinogradConv::depthTaps(int64_t od) const {
  const int64_t slice0 = od * w_.stride[0] - w_.padBegin[0];
  const int64_t first = std::clamp<int64_t>(-slice0, 0, depthTaps_);
  const int64_t end = std::clamp<int64_t>(w_.in[0] - slice0, first, depthTaps_);
  return {first, end, slice0};
}

void nn::WinogradConv::multiply(const float *const *v, DepthTaps taps,
                                int64_t ty0, int64_t ty1, int64_t m0,
                                int64_t m1, const float *weights, float *y,
                                const RowEpilogue &epilogue) const {
  const int64_t tiles = (ty1 - ty0) * tileCols_;
  const int64_t ld = roundUp(tiles, kRowAlign), c = channels_;
  const int64_t positionStride = c * ld + kPositionPad; // in V
  const int64_t oh = w_.out[1], ow = w_.out[2], p = w_.outSize();
  // Each tap's V, as offsets from the first tap's (one buffer); a slice
  // outside the input adds nothing, so its tap's depth is left out.
  const float *base = taps.first < taps.end ? v[taps.first] : nullptr;
  int64_t offsets[kMaxDepthTaps];
  const int64_t y0 = 4 * ty0, y1 = std::min(oh, 4 * ty1);
  // Between positions' products.
  const int64_t chunkStride = kRowChunk * ld + kPositionPad;
  float *prod = scratch(kPositions * chunkStride, 2);
  // winogradScatter reads whole vectors past the last row's tiles.
  float *o = scratch(16 * ld + kMaxLanes, 0);
  float *u = packed_.empty() && u_.empty()
                 ? scratch(kPositions * kRowChunk * depth_, 3)
                 : nullptr;
  const auto output = GEFLOW_PICK_BODY(nn, winogradOutput);
  const auto scatter = GEFLOW_PICK_BODY(nn, winogradScatter);
  for (int64_t mc = m0; mc < m1; mc += kRowChunk) {
    const int64_t me = std::min(m1, mc + kRowChunk), rows = me - mc;
    if (u)
      transformWeights(weights, mc, me, u);
    for (int64_t xi = 0; xi < kPositions; ++xi) {
      float *cOut = prod + xi * chunkStride;
      if (taps.first == taps.end) { // the slice is all padding
        std::fill(cOut, cOut + rows * ld, 0.0f);
        continue;
      }
      if (!packed_.empty()) {
        for (int64_t t = taps.first; t < taps.end; ++t)
          offsets[t] = (v[t] - base) + xi * positionStride;
        // V's rows are padded to whole vectors: read in place.
        gemmPacked(
            packed_[xi], mc, me, tiles,
            BRows{base, ld, c, offsets, ld, taps.first * c, taps.end * c}, cOut,
            ld);
        continue;
      }
      const float *a = u ? u + xi * rows * depth_
                         : u_.data() + (xi * outChannels_ + mc) * depth_;
      for (int64_t t = taps.first; t < taps.end; ++t)
        gemm(false, false, rows, tiles, c, 1.0f, a + t * c, depth_,
             v[t] + xi * positionStride, ld, t > taps.first ? 1.0f : 0.0f, cOut,
             ld);
    }
    for (int64_t m = mc; m < me; ++m) {
      output(prod + (m - mc) * ld, chunkStride, tiles, o, ld);
      // Each tile's 4x4 into Y, clipped at the map's bottom and right edges.
      float *ym = y + m * p;
      for (int64_t r = y0; r < y1; ++r)
        scatter(o + r % 4 * 4 * ld + (r / 4 - ty0) * tileCols_, ld, ym + r * ow,
                ow);
      epilogue.apply(epilogue.context, m, ym + y0 * ow, (y1 - y0) * ow);
    }
  }
}
