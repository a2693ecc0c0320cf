//===- NnGemmIsa.h - nn::gemm's per-instruction-set bodies ------*- C++ -*-===//
//
// Private to NnGemm.cpp, NnGemmAvx2.cpp and NnGemmAvx512.cpp: nn::gemm
// picks one of these from cpu::activeIsa() on each call.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_NNGEMMISA_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_NNGEMMISA_H

#include <cstdint>

namespace geflow::kernels::nn {
namespace baseline {
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
          float beta, float *c, int64_t ldc);
} // namespace baseline
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
          float beta, float *c, int64_t ldc);
} // namespace avx2
namespace avx512 {
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
          float beta, float *c, int64_t ldc);
} // namespace avx512
#endif
} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_NNGEMMISA_H
