//===- NnDepthwise.cpp - one output plane of a depthwise conv -------------===//
//
// A 2-D depthwise conv of one output per channel and no residual runs 16
// channels at a time (NnDepthwiseBlocks.cpp) except at 3x3 stride 1 on maps
// wider than 14, where the rows below are as fast without the transposes;
// the plane paths here take those, the residual, depth multipliers and 1-D
// and 3-D windows.
//
// A depthwise conv does 2 * taps FLOPs per output over one input plane, so it
// is bound by loads and stores, not arithmetic. Output rows are done one at a
// time so the row and the input rows it reads stay in L1. For 3x3 windows
// (MobileNet's, stride 1 or 2) each output accumulates its nine taps in a
// register: one store per output instead of nine read-modify-writes of the
// row; the columns at the padded edges, where a tap falls outside the row,
// go through the general path; relu and clip clamp in the same loop. A
// stride-1 map at most 64 wide is instead one sweep over a zero-bordered
// copy of the plane (planeSweep3x3): MobileNet's 56- to 7-wide rows were
// too short for the vector loop (112 gains nothing). The 3x3 row loop is built
// twice (NnDepthwiseRow.inc): stride 1 runs AVX2 + FMA when nn::gemm does.
//
// Every other 2-D window with strides 1 or 2 (5x5, 7x7, 3x3 at stride 2, any
// dilation) is one sweep over the plane's zero-bordered phase planes
// (ConvTaps.h), as planeSweep3x3 does, so short rows still fill the
// vectors; two vectors of outputs stay in registers over all the taps. This
// file also holds ConvTaps.h's planes and its sweeps' ISA dispatch.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/support/NnSupport.h"

#include <Eigen/Core>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

using namespace geflow::kernels;
using nn::TapColumns;
using nn::Window;

namespace geflow::kernels::nn {
namespace baseline {
#include "executor/kernels/isa/NnDepthwiseRow.inc"
constexpr int kTapLanes = 4;
#include "executor/kernels/isa/NnDepthwiseTaps.inc"
} // namespace baseline
// The ISA bodies of NnDepthwiseTaps.inc (isa/NnDepthwiseAvx2.cpp,
// isa/NnDepthwiseAvx512.cpp).
#define GEFLOW_DEPTHWISE_TAPS_DECLARE                                          \
  void depthwiseTaps(const float *const *src, const float *w, int64_t taps,    \
                     float bias, float lo, float hi, int64_t n, float *out);   \
  void groupedTaps(const float *const *src, const float *w4, int64_t taps,     \
                   int64_t n, float *out, int64_t ldo);                        \
  void channelTaps(const float *base, const int64_t *offsets, const float *w8, \
                   int64_t taps, const float *bias8, float lo, float hi,       \
                   int64_t n, int64_t channels, float *out, int64_t ldo);      \
  void channelBlockTaps(const float *in, const ChannelBlockWindow &w,          \
                        const float *w16, const float *bias16, float *out);
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
void row3x3(int64_t stride, const float *r0, const float *r1, const float *r2,
            const float *t, float bias, float lo, float hi, int64_t offW,
            int64_t j0, int64_t j1, float *out);
GEFLOW_DEPTHWISE_TAPS_DECLARE
} // namespace avx2
namespace avx512 {
// The 3x3 row has no AVX-512 body: that level runs the AVX2 one.
using avx2::row3x3;
GEFLOW_DEPTHWISE_TAPS_DECLARE
} // namespace avx512
#endif
#undef GEFLOW_DEPTHWISE_TAPS_DECLARE
} // namespace geflow::kernels::nn

namespace {

using Row3x3Fn = void (*)(int64_t, const float *, const float *, const float *,
                          const float *, float, float, float, int64_t, int64_t,
                          int64_t, float *);

/// The 3x3 row body of the active level; for stride 2 the baseline one,
/// whose 4-wide shuffles of even columns beat GCC's 8-wide ones (measured,
/// MobileNet's 112x112 stride-2 layer).
Row3x3Fn row3x3For(int64_t stride) {
  return stride == 1 ? GEFLOW_PICK_BODY(nn, row3x3) : &nn::baseline::row3x3;
}

/// A 2-D plane through nn::depthwiseTaps over its phase planes
/// (ConvTaps.h), rows clamped to [lo, hi]; the residual and other
/// activations are the caller's.
void planeTaps(const Window &w, const nn::TapPlanes &planes, const float *plane,
               const float *taps, float bias, float lo, float hi, float *out) {
  thread_local std::vector<float> phases, rows;
  thread_local std::vector<const float *> src;
  phases.resize(planes.channelFloats());
  planes.fill(plane, phases.data());
  src.clear();
  for (int64_t offset : planes.tapOffsets())
    src.push_back(phases.data() + offset);
  const int64_t n = planes.positions(), wq = planes.rowPitch();
  rows.resize(n + nn::kTapSlack);
  nn::depthwiseTaps(src.data(), taps, src.size(), bias, lo, hi, n, rows.data());
  for (int64_t r = 0; r < w.out[1]; ++r)
    std::copy(rows.data() + r * wq, rows.data() + r * wq + w.out[2],
              out + r * w.out[2]);
}

/// row[j] += a * src[j * stride] for j < n. Rows are short (7 to 112 floats):
/// a plain loop, vectorised for constant strides, beats an Eigen expression.
void axpyRow(float a, const float *__restrict src, int64_t stride,
             float *__restrict row, int64_t n) {
  if (stride == 1) {
    for (int64_t j = 0; j < n; ++j)
      row[j] += a * src[j];
  } else if (stride == 2) {
    for (int64_t j = 0; j < n; ++j)
      row[j] += a * src[2 * j];
  } else {
    for (int64_t j = 0; j < n; ++j)
      row[j] += a * src[j * stride];
  }
}

/// Output column j of a 3x3 row whose taps may fall outside the input row
/// (or on missing, null, rows).
float edgeColumn(const Window &w, const float *const *rows, const float *taps,
                 float bias, int64_t j) {
  float sum = bias;
  for (int64_t kh = 0; kh < 3; ++kh)
    for (int64_t kw = 0; kw < 3 && rows[kh]; ++kw) {
      int64_t c = j * w.stride[2] - w.padBegin[2] + kw;
      if (c >= 0 && c < w.in[2])
        sum += taps[kh * 3 + kw] * rows[kh][c];
    }
  return sum;
}

/// Adds tap column kw of kernel row kh to output columns [from, to) of `row`.
void addTap(const Window &w, const float *src, float tap, const TapColumns &t,
            int64_t from, int64_t to, float *row) {
  int64_t a = std::max(from, t.lo), b = std::min(to, t.hi);
  if (a < b)
    axpyRow(tap, src + t.offW + a * w.stride[2], w.stride[2], row + a, b - a);
}

/// Output maps at most this wide take planeSweep3x3: rows this short spend
/// much of their time in the loop's start and end, not its vector body
/// (measured: 56 wide 0.37 -> 0.28 ms a layer, 112 wide no gain).
constexpr int64_t kSweepMaxWidth = 64;

/// A stride-1 3x3 plane as one sweep: the input is copied into a
/// zero-bordered plane of width ow + 2, on which output (r, c) reads
/// (r + kh, c + kw), so the whole plane is one row-body call over
/// oh * (ow + 2) positions (the two per row past ow are dropped after).
void planeSweep3x3(const Window &w, const float *plane, const float *taps,
                   float bias, float lo, float hi, float *out) {
  thread_local std::vector<float> padded, sweep;
  const int64_t oh = w.out[1], ow = w.out[2], pw = ow + 2, ph = oh + 3;
  padded.assign(ph * pw, 0.0f); // one spare row: the sweep reads past oh+2
  const int64_t top = w.padBegin[1], left = w.padBegin[2];
  const int64_t c0 = std::max<int64_t>(0, -left),
                c1 = std::min<int64_t>(w.in[2], pw - left);
  for (int64_t ih = std::max<int64_t>(0, -top);
       ih < std::min<int64_t>(w.in[1], ph - top) && c0 < c1; ++ih)
    std::copy(plane + ih * w.in[2] + c0, plane + ih * w.in[2] + c1,
              padded.data() + (ih + top) * pw + left + c0);
  sweep.resize(oh * pw);
  const float *r0 = padded.data();
  row3x3For(1)(1, r0, r0 + pw, r0 + 2 * pw, taps, bias, lo, hi, 0, 0, oh * pw,
               sweep.data());
  for (int64_t r = 0; r < oh; ++r)
    std::copy(sweep.data() + r * pw, sweep.data() + r * pw + ow, out + r * ow);
}

} // namespace

void nn::depthwisePlane(const Window &w, const TapPlanes *planes,
                        const float *plane, const float *taps, float bias,
                        const float *residual, const Activation &act,
                        float *out) {
  const int64_t ow = w.out[2];
  const bool is3x3 = w.kernel[1] == 3 && w.kernel[2] == 3 &&
                     w.dilation[1] == 1 && w.dilation[2] == 1 &&
                     (w.stride[2] == 1 || w.stride[2] == 2);
  // relu and clip clamp inside the 3x3 row loop when no residual comes
  // first: no second pass over the row.
  // Everything but the tuned 3x3 stride-1 rows goes through planeTaps.
  const bool general =
      nn::TapPlanes::applies(w) && !(is3x3 && w.stride[2] == 1);
  const bool clamps =
      (is3x3 || general) && !residual &&
      (act.kind == Activation::kRelu || act.kind == Activation::kClip);
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
  if (clamps) {
    lo = act.kind == Activation::kRelu ? 0.0f : act.a;
    hi = act.kind == Activation::kRelu ? hi : act.b;
  }
  auto clamp = [&](float v) {
    v = v < lo ? lo : v;
    return hi < v ? hi : v;
  };
  if (general ||
      (is3x3 && w.stride[1] == 1 && w.stride[2] == 1 && ow <= kSweepMaxWidth)) {
    if (general) {
      std::optional<TapPlanes> local;
      planeTaps(w, planes ? *planes : local.emplace(w), plane, taps, bias, lo,
                hi, out);
    } else
      planeSweep3x3(w, plane, taps, bias, lo, hi, out);
    if (clamps)
      return;
    const int64_t n = w.out[1] * ow;
    if (residual)
      Eigen::Map<Eigen::ArrayXf>(out, n) +=
          Eigen::Map<const Eigen::ArrayXf>(residual, n);
    applyActivation(act, out, n);
    return;
  }
  // The row by row path. Per host thread, kept across calls: each tap
  // column's valid outputs and a zero row standing in for padding rows (the
  // plane paths above need neither: a plane of MobileNet's last stages is
  // not much more work than setting them up).
  thread_local std::vector<TapColumns> columns;
  thread_local std::vector<float> zeros;
  columns.clear();
  for (int64_t kw = 0; kw < w.kernel[2]; ++kw)
    columns.push_back(tapColumns(w, kw));
  const Row3x3Fn row3x3 = row3x3For(w.stride[2]);
  // Output columns where all three tap columns are inside the row.
  int64_t inner0 = 0, inner1 = 0;
  if (is3x3) {
    inner0 = columns[0].lo;
    inner1 = std::max(inner0, columns[2].hi);
    if (zeros.size() < static_cast<size_t>(w.in[2]))
      zeros.assign(w.in[2], 0.0f);
  }
  for (int64_t oh = 0; oh < w.out[1]; ++oh) {
    float *row = out + oh * ow;
    if (is3x3) {
      const float *rows[3];
      for (int64_t kh = 0; kh < 3; ++kh) {
        int64_t ih = oh * w.stride[1] - w.padBegin[1] + kh;
        rows[kh] = ih >= 0 && ih < w.in[1] ? plane + ih * w.in[2] : nullptr;
      }
      auto orZeros = [&](const float *r) { return r ? r : zeros.data(); };
      row3x3(w.stride[2], orZeros(rows[0]), orZeros(rows[1]), orZeros(rows[2]),
             taps, bias, lo, hi, columns[0].offW, inner0, inner1, row);
      // The edge columns left and right of [inner0, inner1), one by one.
      for (int64_t j = 0; j < inner0; ++j)
        row[j] = clamp(edgeColumn(w, rows, taps, bias, j));
      for (int64_t j = inner1; j < ow; ++j)
        row[j] = clamp(edgeColumn(w, rows, taps, bias, j));
    } else {
      std::fill(row, row + ow, bias);
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh) {
        int64_t ih = oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
        if (ih < 0 || ih >= w.in[1])
          continue;
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw)
          addTap(w, plane + ih * w.in[2], taps[kh * w.kernel[2] + kw],
                 columns[kw], 0, ow, row);
      }
    }
    if (clamps)
      continue;
    if (residual)
      Eigen::Map<Eigen::ArrayXf>(row, ow) +=
          Eigen::Map<const Eigen::ArrayXf>(residual + oh * ow, ow);
    applyActivation(act, row, ow);
  }
}

void nn::depthwiseTaps(const float *const *src, const float *w, int64_t taps,
                       float bias, float lo, float hi, int64_t n, float *out) {
  GEFLOW_PICK_BODY(nn, depthwiseTaps)(src, w, taps, bias, lo, hi, n, out);
}

void nn::groupedTaps(const float *const *src, const float *w4, int64_t taps,
                     int64_t n, float *out, int64_t ldo) {
  GEFLOW_PICK_BODY(nn, groupedTaps)(src, w4, taps, n, out, ldo);
}

void nn::channelTaps(const float *base, const int64_t *offsets, const float *w8,
                     int64_t taps, const float *bias8, float lo, float hi,
                     int64_t n, int64_t channels, float *out, int64_t ldo) {
  GEFLOW_PICK_BODY(nn, channelTaps)(base, offsets, w8, taps, bias8, lo, hi, n,
                                    channels, out, ldo);
}

void nn::channelBlockTaps(const float *in, const ChannelBlockWindow &w,
                          const float *w16, const float *bias16, float *out) {
  GEFLOW_PICK_BODY(nn, channelBlockTaps)(in, w, w16, bias16, out);
}

namespace {
/// The padded extent (rows or columns) a window's outputs read in dim d.
int64_t paddedExtent(const Window &w, int d) {
  return (w.out[d] - 1) * w.stride[d] + (w.kernel[d] - 1) * w.dilation[d] + 1;
}

/// dst[j] = src[2 * j] for j < n: a constant stride the compiler
/// vectorises.
void strided2(const float *__restrict src, int64_t n, float *__restrict dst) {
  for (int64_t j = 0; j < n; ++j)
    dst[j] = src[2 * j];
}
} // namespace

nn::TapPlanes::TapPlanes(const Window &w) : w_(w) {
  const int64_t sh = w.stride[1], sw = w.stride[2];
  wq_ = (paddedExtent(w, 2) + sw - 1) / sw;
  // One spare row and the sweep's overrun per phase plane.
  planeFloats_ = ((paddedExtent(w, 1) + sh - 1) / sh + 1) * wq_ + kTapSlack;
  for (int64_t i = 0; i < w.kernel[1]; ++i)
    for (int64_t k = 0; k < w.kernel[2]; ++k) {
      const int64_t row = i * w.dilation[1], col = k * w.dilation[2];
      tapOffsets_.push_back((row % sh * sw + col % sw) * planeFloats_ +
                            row / sh * wq_ + col / sw);
    }
}

void nn::TapPlanes::fill(const float *plane, float *dst) const {
  const int64_t sh = w_.stride[1], sw = w_.stride[2];
  const int64_t ph = paddedExtent(w_, 1), pw = paddedExtent(w_, 2);
  std::fill(dst, dst + channelFloats(), 0.0f);
  const int64_t top = w_.padBegin[1], left = w_.padBegin[2];
  const int64_t c0 = std::max<int64_t>(0, -left),
                c1 = std::min<int64_t>(w_.in[2], pw - left);
  for (int64_t ih = std::max<int64_t>(0, -top);
       ih < std::min<int64_t>(w_.in[1], ph - top) && c0 < c1; ++ih) {
    const int64_t pr = ih + top;
    const float *from = plane + ih * w_.in[2];
    float *to = dst + pr % sh * sw * planeFloats_ + pr / sh * wq_;
    if (sw == 1) {
      std::copy(from + c0, from + c1, to + left + c0);
      continue;
    }
    for (int64_t b = 0; b < 2; ++b) { // padded columns b, b + 2, ...
      const int64_t c = c0 + (b + c0 + left) % 2; // (c + left) % 2 == b
      if (c < c1)
        strided2(from + c, (c1 - c + 1) / 2,
                 to + b * planeFloats_ + (c + left) / 2);
    }
  }
}
