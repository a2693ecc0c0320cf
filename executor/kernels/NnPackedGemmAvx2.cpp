//===- NnPackedGemmAvx2.cpp - the packed-weight GEMM's AVX2 + FMA body ----===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); nothing here runs unless
// packedGemmAvailable() said the CPU has both (NnPackedGemm.cpp).
//
// A 6x16 micro-kernel keeps C's tile in 12 ymm registers over a chunk of
// kDepthChunk values of k: one panel of A (6 x chunk) stays in L1 while it
// sweeps the chunk's rows of B (in L2: a column tile holds about 256 KB).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/NnPackedGemm.h"

#include <immintrin.h>

#include <algorithm>

namespace geflow::kernels::nn::avx2 {
namespace {

constexpr int64_t kDepthChunk = 256;

/// C[6 x 16] (= or +=) A-panel[kc x 6] * B[kc x 16].
void microKernel(int64_t kc, const float *__restrict a,
                 const float *__restrict b, int64_t ldb, float *c, int64_t ldc,
                 bool accumulate) {
  __m256 acc[kPanelRows][2];
  for (auto &row : acc)
    row[0] = row[1] = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k, a += kPanelRows, b += ldb) {
    __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    for (int r = 0; r < kPanelRows; ++r) {
      __m256 ar = _mm256_broadcast_ss(a + r);
      acc[r][0] = _mm256_fmadd_ps(ar, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(ar, b1, acc[r][1]);
    }
  }
  for (int r = 0; r < kPanelRows; ++r) {
    float *row = c + r * ldc;
    if (accumulate) {
      acc[r][0] = _mm256_add_ps(acc[r][0], _mm256_loadu_ps(row));
      acc[r][1] = _mm256_add_ps(acc[r][1], _mm256_loadu_ps(row + 8));
    }
    _mm256_storeu_ps(row, acc[r][0]);
    _mm256_storeu_ps(row + 8, acc[r][1]);
  }
}

} // namespace

void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const float *b, int64_t ldb, float *c, int64_t ldc) {
  // Per host thread: a zero-padded copy of a chunk's last, narrower column
  // panel, and the 6x16 tile a partial panel computes into.
  thread_local std::vector<float> edgeB;
  alignas(32) float tile[kPanelRows * kPanelCols];
  const int64_t k = a.depth;
  const int64_t fullCols = n / kPanelCols * kPanelCols, tailCols = n - fullCols;
  if (tailCols)
    edgeB.resize(std::min(k, kDepthChunk) * kPanelCols);
  for (int64_t k0 = 0; k0 < k; k0 += kDepthChunk) {
    const int64_t kc = std::min(kDepthChunk, k - k0);
    const bool accumulate = k0 > 0;
    const float *bChunk = b + k0 * ldb;
    if (tailCols) {
      std::fill(edgeB.begin(), edgeB.end(), 0.0f);
      for (int64_t kk = 0; kk < kc; ++kk)
        std::copy(bChunk + kk * ldb + fullCols, bChunk + kk * ldb + n,
                  edgeB.data() + kk * kPanelCols);
    }
    for (int64_t p = r0 / kPanelRows; p * kPanelRows < r1; ++p) {
      const float *aPanel = a.panel(p) + k0 * kPanelRows;
      const int64_t row0 = p * kPanelRows;
      const int64_t rows = std::min(kPanelRows, r1 - row0);
      float *cPanel = c + (row0 - r0) * ldc;
      for (int64_t j = 0; j < n; j += kPanelCols) {
        const int64_t cols = std::min(kPanelCols, n - j);
        const float *bPanel = j < fullCols ? bChunk + j : edgeB.data();
        const int64_t bStride = j < fullCols ? ldb : kPanelCols;
        if (rows == kPanelRows && cols == kPanelCols) {
          microKernel(kc, aPanel, bPanel, bStride, cPanel + j, ldc, accumulate);
          continue;
        }
        microKernel(kc, aPanel, bPanel, bStride, tile, kPanelCols, false);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t q = 0; q < cols; ++q) {
            float &dst = cPanel[r * ldc + j + q];
            dst = (accumulate ? dst : 0.0f) + tile[r * kPanelCols + q];
          }
      }
    }
  }
}

} // namespace geflow::kernels::nn::avx2
