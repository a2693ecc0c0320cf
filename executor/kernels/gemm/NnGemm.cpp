//===- NnGemm.cpp - nn::gemm: the baseline body and the ISA dispatch ------===//
//
// Eigen's GEMM runs about three times faster with AVX2 + FMA than with the
// SSE2 baseline here, but the build must not assume the CPU it runs on (no
// -march=native). So the body is compiled once per ISA (NnGemmBody.inc) and
// the best copy cpu::activeIsa() allows runs (CpuIsa.h): AVX-512
// (NnGemmAvx512.cpp), AVX2 + FMA (NnGemmAvx2.cpp) or this file's baseline.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/isa/NnGemmIsa.h"
#include "executor/kernels/support/NnSupport.h"

#include <Eigen/Core>

#include <cstdint>

using namespace geflow::kernels;

namespace geflow::kernels::nn::baseline {
#include "executor/kernels/isa/NnGemmBody.inc"
} // namespace geflow::kernels::nn::baseline

void nn::gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
              float alpha, const float *a, int64_t lda, const float *b,
              int64_t ldb, float beta, float *c, int64_t ldc) {
  GEFLOW_PICK_BODY(nn, gemm)(transA, transB, m, n, k, alpha, a, lda, b, ldb,
                             beta, c, ldc);
}
