//===- IntGemmAvx2.cpp - qnt::intGemm with AVX2 ---------------------------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); IntGemm.cpp picks it with
// GEFLOW_PICK_BODY, so the library still runs on CPUs without AVX2.
//
// vpmaddwd multiplies 16 int16 pairs and adds each pair into an int32 lane,
// so K is taken two at a time: a strip of B is interleaved once (rows 2p and
// 2p + 1 side by side, the odd tail and the last columns padded with 0),
// each row of A becomes int32 words of two consecutive values, and a 4 x 16
// block of C accumulates in eight registers over all of K.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace geflow::kernels::qnt::avx2 {
namespace {

constexpr int64_t kStrip = 128; // columns of B interleaved at a time
constexpr int64_t kRows = 4;
constexpr int64_t kCols = 16; // two vectors of eight int32

/// out[(p * width + j) * 2 + r] = B[2p + r][j0 + j], 0 past K and past nj.
void interleaveStrip(const int16_t *b, int64_t ldb, int64_t k, int64_t j0,
                     int64_t nj, int64_t width, int16_t *out) {
  for (int64_t p = 0; p < (k + 1) / 2; ++p) {
    const int16_t *r0 = b + 2 * p * ldb + j0;
    const int16_t *r1 = 2 * p + 1 < k ? r0 + ldb : nullptr;
    int16_t *o = out + p * width * 2;
    for (int64_t j = 0; j < width; ++j) {
      o[2 * j] = j < nj ? r0[j] : 0;
      o[2 * j + 1] = r1 && j < nj ? r1[j] : 0;
    }
  }
}

/// Row `a` (k values) as int32 words of two consecutive values.
void pairRow(const int16_t *a, int64_t k, int32_t *out) {
  for (int64_t p = 0; p < (k + 1) / 2; ++p) {
    uint32_t lo = static_cast<uint16_t>(a[2 * p]);
    uint32_t hi = 2 * p + 1 < k ? static_cast<uint16_t>(a[2 * p + 1]) : 0u;
    out[p] = static_cast<int32_t>(lo | (hi << 16));
  }
}

/// C[R rows x cols] at `c` from R paired rows of A (stride `pairs`) and the
/// interleaved strip at column jc.
template <int R>
void block(const int32_t *aw, int64_t pairs, const int16_t *strip,
           int64_t width, int64_t jc, int64_t cols, int32_t *c, int64_t ldc) {
  __m256i acc[R][2];
  for (int r = 0; r < R; ++r)
    acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (int64_t p = 0; p < pairs; ++p) {
    const int16_t *bq = strip + (p * width + jc) * 2;
    const __m256i b0 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(bq));
    const __m256i b1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(bq + 16));
    for (int r = 0; r < R; ++r) {
      const __m256i av = _mm256_set1_epi32(aw[r * pairs + p]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(av, b0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(av, b1));
    }
  }
  for (int r = 0; r < R; ++r) {
    alignas(32) int32_t out[kCols];
    _mm256_store_si256(reinterpret_cast<__m256i *>(out), acc[r][0]);
    _mm256_store_si256(reinterpret_cast<__m256i *>(out + 8), acc[r][1]);
    std::memcpy(c + r * ldc, out, cols * sizeof(int32_t));
  }
}

template <int R>
void rows(const int16_t *a, int64_t lda, int64_t k, const int16_t *strip,
          int64_t width, int64_t nj, int32_t *c, int64_t ldc,
          std::vector<int32_t> &aw) {
  const int64_t pairs = (k + 1) / 2;
  aw.resize(R * std::max<int64_t>(pairs, 1));
  for (int r = 0; r < R; ++r)
    pairRow(a + r * lda, k, aw.data() + r * pairs);
  for (int64_t jc = 0; jc < nj; jc += kCols)
    block<R>(aw.data(), pairs, strip, width, jc, std::min(kCols, nj - jc),
             c + jc, ldc);
}

} // namespace

void intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a, int64_t lda,
             const int16_t *b, int64_t ldb, int32_t *c, int64_t ldc) {
  thread_local std::vector<int16_t> strip;
  thread_local std::vector<int32_t> aw;
  const int64_t pairs = (k + 1) / 2;
  for (int64_t j0 = 0; j0 < n; j0 += kStrip) {
    const int64_t nj = std::min(kStrip, n - j0);
    const int64_t width = (nj + kCols - 1) / kCols * kCols;
    strip.resize(std::max<int64_t>(pairs, 1) * width * 2);
    interleaveStrip(b, ldb, k, j0, nj, width, strip.data());
    int64_t i = 0;
    for (; i + kRows <= m; i += kRows)
      rows<kRows>(a + i * lda, lda, k, strip.data(), width, nj,
                  c + i * ldc + j0, ldc, aw);
    for (; i < m; ++i)
      rows<1>(a + i * lda, lda, k, strip.data(), width, nj, c + i * ldc + j0,
              ldc, aw);
  }
}

} // namespace geflow::kernels::qnt::avx2
