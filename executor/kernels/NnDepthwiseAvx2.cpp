//===- NnDepthwiseAvx2.cpp - the depthwise rows with AVX2 and FMA ---------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); NnDepthwise.cpp calls it only
// when cpu::activeIsa() is at least kAvx2.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/ConvTaps.h"
#include "executor/kernels/TransposeTiles.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/NnDepthwiseRow.inc"
constexpr int kTapLanes = 8;
#include "executor/kernels/NnDepthwiseTaps.inc"

namespace {
/// The 8x8 transpose of r in registers: r[c] holds column c afterwards.
inline void transposeInRegisters(__m256 *r) {
  __m256 t[8];
  // Pairs of rows interleaved, then pairs of pairs: after the second step
  // r[4g + c] holds column c (low half) and 4 + c (high half) of rows 4g to
  // 4g + 3.
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int g = 0; g < 2; ++g)
    for (int k = 0; k < 2; ++k) {
      const __m256 a = t[4 * g + k], b = t[4 * g + k + 2];
      r[4 * g + 2 * k] = _mm256_shuffle_ps(a, b, 0x44);
      r[4 * g + 2 * k + 1] = _mm256_shuffle_ps(a, b, 0xee);
    }
  // Column c and 4 + c: the low and high halves of rows 0-3 and 4-7.
  for (int c = 0; c < 4; ++c) {
    t[c] = _mm256_permute2f128_ps(r[c], r[4 + c], 0x20);
    t[4 + c] = _mm256_permute2f128_ps(r[c], r[4 + c], 0x31);
  }
  for (int c = 0; c < 8; ++c)
    r[c] = t[c];
}

/// Lanes [0, n) set.
inline __m256i firstLanes(int64_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
} // namespace

void transpose8(const float *src, int64_t srcStride, float *dst,
                int64_t dstStride) {
  __m256 r[8];
  for (int i = 0; i < 8; ++i)
    r[i] = _mm256_loadu_ps(src + i * srcStride);
  transposeInRegisters(r);
  for (int c = 0; c < 8; ++c)
    _mm256_storeu_ps(dst + c * dstStride, r[c]);
}

void transpose8Edge(const float *src, int64_t srcStride, int64_t rows,
                    int64_t cols, float *dst, int64_t dstStride) {
  __m256 r[8];
  const __m256i colMask = firstLanes(cols), rowMask = firstLanes(rows);
  for (int i = 0; i < 8; ++i)
    r[i] = i < rows ? _mm256_maskload_ps(src + i * srcStride, colMask)
                    : _mm256_setzero_ps();
  transposeInRegisters(r);
  for (int c = 0; c < cols; ++c)
    _mm256_maskstore_ps(dst + c * dstStride, rowMask, r[c]);
}
} // namespace geflow::kernels::nn::avx2
