//===- ConvColumns.cpp - im2col and col2im over the normalised window -----===//

#include "executor/kernels/conv/ConvColumns.h"

#include <Eigen/Core>

#include <algorithm>
#include <vector>

using namespace geflow::kernels;
using nn::TapColumns;
using nn::Window;

namespace {

using ArrayMap = Eigen::Map<Eigen::ArrayXf>;

/// A run of output positions along W inside a column tile: output columns
/// [x0, x1) of the output row whose first input row (kernel tap 0) is
/// (id0, ih0), at column `col` of the tile.
struct Segment {
  int64_t id0, ih0, x0, x1, col;
};

/// Copies n elements. Rows of im2col are short (7 to 112 floats); an inline
/// loop costs less than a call into libc's memmove for each.
template <class T>
inline void copyRow(const T *__restrict src, T *__restrict dst, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    dst[j] = src[j];
}

template <class T> inline void zeroRow(T *dst, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    dst[j] = T(0);
}

} // namespace

/// The im2col rows (channel, kd, kh, kw) of `channels` channels of `x` (one
/// image, group offset applied), columns [p0, p1) of the output positions,
/// into `col` (row length p1 - p0). The tile's segments and each tap's valid
/// columns are the same for every channel, so they are found once: no
/// division in the copy loops.
/// GCC would turn copyRow's and zeroRow's loops back into libc calls.
template <class T>
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
void nn::im2col(const Window &w, const T *x, int64_t channels, int64_t p0,
                int64_t p1, T *col) {
  const int64_t cols = p1 - p0, ow = w.out[2];
  // Per host thread, kept across calls: no allocation once they have grown.
  thread_local std::vector<Segment> segments;
  thread_local std::vector<TapColumns> taps;
  segments.clear();
  for (int64_t p = p0; p < p1;) {
    int64_t outRow = p / ow, x0 = p % ow;
    int64_t x1 = std::min<int64_t>(ow, x0 + (p1 - p));
    int64_t od = outRow / w.out[1], oh = outRow % w.out[1];
    segments.push_back({od * w.stride[0] - w.padBegin[0],
                        oh * w.stride[1] - w.padBegin[1], x0, x1, p - p0});
    p += x1 - x0;
  }
  taps.clear();
  for (int64_t kw = 0; kw < w.kernel[2]; ++kw)
    taps.push_back(nn::tapColumns(w, kw));
  const int64_t sw = w.stride[2];
  T *dst = col;
  for (int64_t c = 0; c < channels; ++c) {
    const T *plane = x + c * w.inSize();
    for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (const TapColumns &tap : taps) {
          for (const Segment &seg : segments) {
            T *out = dst + seg.col - seg.x0; // indexed by output column
            int64_t id = seg.id0 + kd * w.dilation[0];
            int64_t ih = seg.ih0 + kh * w.dilation[1];
            int64_t a = std::max(seg.x0, tap.lo), b = std::min(seg.x1, tap.hi);
            if (id < 0 || id >= w.in[0] || ih < 0 || ih >= w.in[1] || a >= b) {
              zeroRow(out + seg.x0, seg.x1 - seg.x0);
              continue;
            }
            const T *src = plane + (id * w.in[1] + ih) * w.in[2] + tap.offW;
            zeroRow(out + seg.x0, a - seg.x0);
            if (sw == 1) {
              copyRow(src + a, out + a, b - a);
            } else if (sw == 2) {
              // A constant stride lets the compiler vectorise the gather
              // (the stem and the downsampling convs).
              for (int64_t j = a; j < b; ++j)
                out[j] = src[2 * j];
            } else {
              for (int64_t j = a; j < b; ++j)
                out[j] = src[j * sw];
            }
            zeroRow(out + b, seg.x1 - b);
          }
          dst += cols;
        }
  }
}

template void nn::im2col<float>(const Window &, const float *, int64_t, int64_t,
                                int64_t, float *);
template void nn::im2col<int16_t>(const Window &, const int16_t *, int64_t,
                                  int64_t, int64_t, int16_t *);

/// The transpose of im2col over all output positions: adds each column of
/// `col` (rows (channel, kd, kh, kw), `w.outSize()` columns) into `y`.
void nn::col2im(const Window &w, const float *col, int64_t channels, float *y) {
  const int64_t cols = w.outSize();
  int64_t row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    float *plane = y + c * w.inSize();
    for (int64_t kd = 0; kd < w.kernel[0]; ++kd)
      for (int64_t kh = 0; kh < w.kernel[1]; ++kh)
        for (int64_t kw = 0; kw < w.kernel[2]; ++kw, ++row) {
          const float *src = col + row * cols;
          auto [offW, lo, hi] = nn::tapColumns(w, kw);
          if (lo >= hi)
            continue;
          for (int64_t od = 0; od < w.out[0]; ++od) {
            int64_t id = od * w.stride[0] - w.padBegin[0] + kd * w.dilation[0];
            if (id < 0 || id >= w.in[0])
              continue;
            for (int64_t oh = 0; oh < w.out[1]; ++oh) {
              int64_t ih =
                  oh * w.stride[1] - w.padBegin[1] + kh * w.dilation[1];
              if (ih < 0 || ih >= w.in[1])
                continue;
              float *dst = plane + (id * w.in[1] + ih) * w.in[2] + offW;
              const float *s = src + (od * w.out[1] + oh) * w.out[2];
              if (w.stride[2] == 1) {
                ArrayMap(dst + lo, hi - lo) +=
                    Eigen::Map<const Eigen::ArrayXf>(s + lo, hi - lo);
              } else {
                for (int64_t j = lo; j < hi; ++j)
                  dst[j * w.stride[2]] += s[j];
              }
            }
          }
        }
  }
}
