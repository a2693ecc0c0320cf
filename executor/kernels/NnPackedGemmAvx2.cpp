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

/// C[6 x 8*Vectors] (= or +=) A-panel[kc x 6] * B[kc x 8*Vectors]. One
/// vector wide serves a last panel of at most 8 columns at half the cost.
template <int Vectors>
void microKernel(int64_t kc, const float *__restrict a,
                 const float *__restrict b, int64_t ldb, float *c, int64_t ldc,
                 bool accumulate) {
  __m256 acc[kPanelRows][Vectors];
  for (auto &row : acc)
    for (__m256 &v : row)
      v = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k, a += kPanelRows, b += ldb) {
    __m256 bv[Vectors];
    for (int v = 0; v < Vectors; ++v)
      bv[v] = _mm256_loadu_ps(b + 8 * v);
    for (int r = 0; r < kPanelRows; ++r) {
      __m256 ar = _mm256_broadcast_ss(a + r);
      for (int v = 0; v < Vectors; ++v)
        acc[r][v] = _mm256_fmadd_ps(ar, bv[v], acc[r][v]);
    }
  }
  for (int r = 0; r < kPanelRows; ++r)
    for (int v = 0; v < Vectors; ++v) {
      float *at = c + r * ldc + 8 * v;
      if (accumulate)
        acc[r][v] = _mm256_add_ps(acc[r][v], _mm256_loadu_ps(at));
      _mm256_storeu_ps(at, acc[r][v]);
    }
}

} // namespace

void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const BRows &b, float *c, int64_t ldc,
                const RowEpilogue *epilogue) {
  // Per host thread: a zero-padded copy of a chunk's last, narrower column
  // panel, and the 6x16 tile a partial panel computes into.
  thread_local std::vector<float> edgeB;
  alignas(32) float tile[kPanelRows * kPanelCols];
  const int64_t k = a.depth;
  const int64_t fullCols = n / kPanelCols * kPanelCols, tailCols = n - fullCols;
  if (tailCols)
    edgeB.resize(std::min(k, kDepthChunk) * kPanelCols);
  const int64_t ldb = b.ldb;
  for (int64_t k0 = 0, kc; k0 < k; k0 += kc) {
    // A chunk stays inside one group of B's rows.
    const float *bChunk = b.base + k0 * ldb;
    int64_t groupEnd = k;
    if (b.groupOffsets) {
      int64_t group = k0 / b.groupDepth, inGroup = k0 % b.groupDepth;
      bChunk = b.base + b.groupOffsets[group] + inGroup * ldb;
      groupEnd = std::min(k, (group + 1) * b.groupDepth);
    }
    kc = std::min(kDepthChunk, groupEnd - k0);
    const bool accumulate = k0 > 0;
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
          microKernel<2>(kc, aPanel, bPanel, bStride, cPanel + j, ldc,
                         accumulate);
          continue;
        }
        if (cols <= 8)
          microKernel<1>(kc, aPanel, bPanel, bStride, tile, kPanelCols, false);
        else
          microKernel<2>(kc, aPanel, bPanel, bStride, tile, kPanelCols, false);
        for (int64_t r = 0; r < rows; ++r)
          for (int64_t q = 0; q < cols; ++q) {
            float &dst = cPanel[r * ldc + j + q];
            dst = (accumulate ? dst : 0.0f) + tile[r * kPanelCols + q];
          }
      }
      // The panel's rows are final after the last chunk, and in L1 or L2.
      if (epilogue && k0 + kc == k)
        for (int64_t r = 0; r < rows; ++r)
          epilogue->apply(epilogue->context, row0 + r, cPanel + r * ldc, n);
    }
  }
}

} // namespace geflow::kernels::nn::avx2
