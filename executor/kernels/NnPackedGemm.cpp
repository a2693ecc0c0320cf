//===- NnPackedGemm.cpp - packing, and the dispatch to the AVX2 body ------===//

#include "executor/kernels/NnPackedGemm.h"
#include "executor/kernels/NnSupport.h"

#include <cstdlib>

namespace geflow::kernels::nn {

#if GEFLOW_HAVE_AVX2_GEMM
namespace avx2 {
void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const BRows &b, float *c, int64_t ldc,
                const RowEpilogue *epilogue);
} // namespace avx2
#endif

PackedRows packRows(const float *a, int64_t rows, int64_t depth, int64_t lda) {
  PackedRows packed;
  packed.rows = rows;
  packed.depth = depth;
  packed.data.assign(packed.panels() * kPanelRows * depth, 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    float *dst = packed.data.data() + (r / kPanelRows) * kPanelRows * depth +
                 r % kPanelRows;
    for (int64_t k = 0; k < depth; ++k)
      dst[k * kPanelRows] = a[r * lda + k];
  }
  return packed;
}

bool packedGemmAvailable() {
#if GEFLOW_HAVE_AVX2_GEMM
  return gemmIsa() == GemmIsa::kAvx2Fma;
#else
  return false;
#endif
}

void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const BRows &b, float *c, int64_t ldc,
                const RowEpilogue *epilogue) {
#if GEFLOW_HAVE_AVX2_GEMM
  avx2::gemmPacked(a, r0, r1, n, b, c, ldc, epilogue);
#else
  (void)a, (void)r0, (void)r1, (void)n, (void)b, (void)c, (void)ldc,
      (void)epilogue;
  std::abort(); // packedGemmAvailable() is false
#endif
}

} // namespace geflow::kernels::nn
