//===- NnDepthwiseAvx512.cpp - the depthwise kxk row with AVX-512 ---------===//
//
// Built with the AVX-512 flags (CMakeLists.txt); NnDepthwise.cpp calls it
// only when cpu::activeIsa() is kAvx512.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/ConvTaps.h"
#include "executor/kernels/TransposeTiles.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

// GCC 12 warns about the undefined operands inside the cast, shuffle and
// masked-load intrinsics (a false positive: they are deliberately
// undefined).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace geflow::kernels::nn::avx512 {
constexpr int kTapLanes = 16;
#include "executor/kernels/NnDepthwiseTaps.inc"

namespace {
/// The 16x16 transpose of r in registers: r[c] holds column c afterwards.
inline void transposeInRegisters(__m512 *r) {
  __m512 t[16], u[16];
  // Pairs of rows, then pairs of pairs: t[4g + c] holds, in each 128-bit
  // lane q, column 4q + c of rows 4g to 4g + 3.
  for (int i = 0; i < 16; i += 2) {
    u[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    u[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4)
    for (int k = 0; k < 2; ++k) {
      const __m512d a = _mm512_castps_pd(u[i + k]);
      const __m512d b = _mm512_castps_pd(u[i + k + 2]);
      t[i + 2 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
      t[i + 2 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    }
  // Then the 128-bit lanes: column 4q + c gathers lane q of t[c], t[4 + c],
  // t[8 + c] and t[12 + c].
  for (int c = 0; c < 4; ++c) {
    const __m512 a02 = _mm512_shuffle_f32x4(t[c], t[4 + c], 0x88);
    const __m512 a13 = _mm512_shuffle_f32x4(t[c], t[4 + c], 0xdd);
    const __m512 b02 = _mm512_shuffle_f32x4(t[8 + c], t[12 + c], 0x88);
    const __m512 b13 = _mm512_shuffle_f32x4(t[8 + c], t[12 + c], 0xdd);
    r[c] = _mm512_shuffle_f32x4(a02, b02, 0x88);
    r[4 + c] = _mm512_shuffle_f32x4(a13, b13, 0x88);
    r[8 + c] = _mm512_shuffle_f32x4(a02, b02, 0xdd);
    r[12 + c] = _mm512_shuffle_f32x4(a13, b13, 0xdd);
  }
}
} // namespace

void transpose16(const float *src, int64_t srcStride, float *dst,
                 int64_t dstStride) {
  __m512 r[16];
  for (int i = 0; i < 16; ++i)
    r[i] = _mm512_loadu_ps(src + i * srcStride);
  transposeInRegisters(r);
  for (int c = 0; c < 16; ++c)
    _mm512_storeu_ps(dst + c * dstStride, r[c]);
}

void transpose16Edge(const float *src, int64_t srcStride, int64_t rows,
                     int64_t cols, float *dst, int64_t dstStride) {
  __m512 r[16];
  const __mmask16 colMask = static_cast<__mmask16>((1u << cols) - 1);
  const __mmask16 rowMask = static_cast<__mmask16>((1u << rows) - 1);
  for (int i = 0; i < 16; ++i)
    r[i] = i < rows ? _mm512_maskz_loadu_ps(colMask, src + i * srcStride)
                    : _mm512_setzero_ps();
  transposeInRegisters(r);
  for (int c = 0; c < cols; ++c)
    _mm512_mask_storeu_ps(dst + c * dstStride, rowMask, r[c]);
}
} // namespace geflow::kernels::nn::avx512
