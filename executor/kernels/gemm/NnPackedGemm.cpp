//===- NnPackedGemm.cpp - packing, and the dispatch to the ISA bodies -----===//
//
// The packed formats are the same for every body; the GEMMs run the AVX-512
// body (isa/NnPackedGemmAvx512.cpp) at that level, else the AVX2 + FMA one
// (isa/NnPackedGemmAvx2.cpp), both on isa/NnPackedGemmBody.inc.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/support/NnSupport.h"

#include <algorithm>
#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#include <cstdlib>
#include <vector>

namespace geflow::kernels::nn {

// The bodies (GEFLOW_PICK_BODY): AVX2 + FMA and AVX-512 ones, and a baseline
// that is never called (packedGemmAvailable() is false there).
#define GEFLOW_PACKED_GEMM_DECLARE                                             \
  void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,      \
                  const BRows &b, float *c, int64_t ldc,                       \
                  const RowEpilogue *epilogue);                                \
  void gemmPanels(const float *aPanels, int64_t rows, const PackedCols &b,     \
                  int64_t c0, int64_t c1, float *c, int64_t ldc);              \
  void gemmDirect(const DirectRows &a, int64_t rows, const PackedCols &b,      \
                  int64_t c0, int64_t c1, float *c, int64_t ldc);              \
  void gemmDirectBlocked(                                                      \
      const DirectRows &a, int64_t rows, const PackedCols &b, int64_t c0,      \
      int64_t c1, float *y, int64_t blockStride, const BlockedFinish &finish);
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
GEFLOW_PACKED_GEMM_DECLARE
} // namespace avx2
namespace avx512 {
GEFLOW_PACKED_GEMM_DECLARE
} // namespace avx512
#endif
#undef GEFLOW_PACKED_GEMM_DECLARE

namespace baseline {
void gemmPacked(const PackedRows &, int64_t, int64_t, int64_t, const BRows &,
                float *, int64_t, const RowEpilogue *) {
  std::abort();
}
void gemmPanels(const float *, int64_t, const PackedCols &, int64_t, int64_t,
                float *, int64_t) {
  std::abort();
}
void gemmDirect(const DirectRows &, int64_t, const PackedCols &, int64_t,
                int64_t, float *, int64_t) {
  std::abort();
}
void gemmDirectBlocked(const DirectRows &, int64_t, const PackedCols &, int64_t,
                       int64_t, float *, int64_t, const BlockedFinish &) {
  std::abort();
}
} // namespace baseline

namespace {
#if defined(__SSE2__)
/// The first depth / 4 * 4 values of kPanelRows whole rows of `src` into one
/// A panel: 4x4 transposes of rows 0..3 and 2x4 ones of rows 4..5. The
/// activation operand of a linear layer is packed on every run, and the
/// scalar loop's six strided stores per k were 3-11 % of a transformer's
/// time (measured, BERT/GPT/ViT).
int64_t packFullPanel(const float *src, int64_t depth, int64_t lda,
                      float *dst) {
  static_assert(kPanelRows == 6, "the shuffles below assume 6-row panels");
  int64_t k = 0;
  for (; k + 4 <= depth; k += 4, dst += 4 * kPanelRows) {
    __m128 r0 = _mm_loadu_ps(src + k), r1 = _mm_loadu_ps(src + lda + k),
           r2 = _mm_loadu_ps(src + 2 * lda + k),
           r3 = _mm_loadu_ps(src + 3 * lda + k);
    __m128 r4 = _mm_loadu_ps(src + 4 * lda + k),
           r5 = _mm_loadu_ps(src + 5 * lda + k);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3); // r_i now holds rows 0..3 at k + i
    __m128 lo = _mm_unpacklo_ps(r4, r5), hi = _mm_unpackhi_ps(r4, r5);
    const __m128 tail[4] = {lo, _mm_movehl_ps(lo, lo), hi,
                            _mm_movehl_ps(hi, hi)};
    const __m128 head[4] = {r0, r1, r2, r3};
    for (int i = 0; i < 4; ++i) {
      _mm_storeu_ps(dst + i * kPanelRows, head[i]);
      _mm_storel_pi(reinterpret_cast<__m64 *>(dst + i * kPanelRows + 4),
                    tail[i]);
    }
  }
  return k;
}
#endif

/// Rows [0, rows) of `a` (leading dimension lda, depth columns) into `dst`
/// in panels of `width` rows, k-major inside a panel; rows past the end are
/// zero.
void packInPanels(const float *a, int64_t rows, int64_t depth, int64_t lda,
                  int64_t width, float *dst) {
  const int64_t panels = (rows + width - 1) / width;
  for (int64_t p = 0; p < panels; ++p, dst += width * depth) {
    const int64_t real = std::min(width, rows - p * width);
    const float *src = a + p * width * lda;
    int64_t k = 0;
#if defined(__SSE2__)
    if (width == kPanelRows && real == kPanelRows)
      k = packFullPanel(src, depth, lda, dst);
#endif
    for (; k < depth; ++k) {
      for (int64_t r = 0; r < real; ++r)
        dst[k * width + r] = src[r * lda + k];
      for (int64_t r = real; r < width; ++r)
        dst[k * width + r] = 0.0f;
    }
  }
}

PanelStorage packInPanels(const float *a, int64_t rows, int64_t depth,
                          int64_t lda, int64_t width) {
  PanelStorage data((rows + width - 1) / width * width * depth);
  packInPanels(a, rows, depth, lda, width, data.data());
  return data;
}
} // namespace

PackedRows packRows(const float *a, int64_t rows, int64_t depth, int64_t lda) {
  PackedRows packed;
  packed.rows = rows;
  packed.depth = depth;
  packed.data = packInPanels(a, rows, depth, lda, kPanelRows);
  return packed;
}

PackedCols packTransposedRows(const float *w, int64_t cols, int64_t depth,
                              int64_t ldw) {
  // Column j of B is row j of W: W's rows packed in kPanelCols-wide panels.
  PackedCols packed;
  packed.cols = cols;
  packed.depth = depth;
  packed.data = packInPanels(w, cols, depth, ldw, kPanelCols);
  return packed;
}

PackedCols packCols(const float *b, int64_t depth, int64_t cols, int64_t ldb) {
  PackedCols packed;
  packed.cols = cols;
  packed.depth = depth;
  packed.data =
      PanelStorage((cols + kPanelCols - 1) / kPanelCols * kPanelCols * depth);
  for (int64_t j0 = 0; j0 < cols; j0 += kPanelCols) {
    const int64_t width = std::min(kPanelCols, cols - j0);
    float *dst = packed.data.data() + j0 * depth;
    for (int64_t k = 0; k < depth; ++k)
      std::copy(b + k * ldb + j0, b + k * ldb + j0 + width,
                dst + k * kPanelCols);
  }
  return packed;
}

void packRowsInto(const float *a, int64_t rows, int64_t depth, int64_t lda,
                  float *dst) {
  packInPanels(a, rows, depth, lda, kPanelRows, dst);
}

void packColumnsAsRows(const float *b, int64_t ldb, int64_t depth, int64_t n,
                       float *dst, int64_t panelStride) {
  for (int64_t j0 = 0; j0 < n; j0 += kPanelRows, dst += panelStride) {
    const int64_t cols = std::min(kPanelRows, n - j0);
    const float *src = b + j0;
    if (cols == kPanelRows) {
      for (int64_t k = 0; k < depth; ++k, src += ldb)
        for (int64_t q = 0; q < kPanelRows; ++q)
          dst[k * kPanelRows + q] = src[q];
      continue;
    }
    for (int64_t k = 0; k < depth; ++k, src += ldb)
      for (int64_t q = 0; q < kPanelRows; ++q)
        dst[k * kPanelRows + q] = q < cols ? src[q] : 0.0f;
  }
}

bool packedGemmAvailable() { return cpu::pickBody(false, true, true); }

void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const BRows &b, float *c, int64_t ldc,
                const RowEpilogue *epilogue) {
  GEFLOW_PICK_BODY(nn, gemmPacked)(a, r0, r1, n, b, c, ldc, epilogue);
}

void gemmPanels(const float *aPanels, int64_t rows, const PackedCols &b,
                int64_t c0, int64_t c1, float *c, int64_t ldc) {
  GEFLOW_PICK_BODY(nn, gemmPanels)(aPanels, rows, b, c0, c1, c, ldc);
}

void gemmDirect(const DirectRows &a, int64_t rows, const PackedCols &b,
                int64_t c0, int64_t c1, float *c, int64_t ldc) {
  GEFLOW_PICK_BODY(nn, gemmDirect)(a, rows, b, c0, c1, c, ldc);
}

void gemmDirectBlocked(const DirectRows &a, int64_t rows, const PackedCols &b,
                       int64_t c0, int64_t c1, float *y, int64_t blockStride,
                       const BlockedFinish &finish) {
  GEFLOW_PICK_BODY(nn, gemmDirectBlocked)
  (a, rows, b, c0, c1, y, blockStride, finish);
}

} // namespace geflow::kernels::nn
