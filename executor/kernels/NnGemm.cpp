//===- NnGemm.cpp - nn::gemm: the baseline body and the ISA dispatch ------===//
//
// Eigen's GEMM runs about three times faster with AVX2 + FMA than with the
// SSE2 baseline here, but the build must not assume the CPU it runs on (no
// -march=native). So the body is compiled twice (NnGemmBody.inc) and the
// AVX2 copy is picked once per process when the CPU has both extensions.
// GEFLOW_GEMM_ISA=baseline in the environment forces the baseline, to
// measure the difference.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/NnGemmIsa.h"
#include "executor/kernels/NnSupport.h"

#include <Eigen/Core>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace geflow::kernels;

namespace geflow::kernels::nn::baseline {
#include "executor/kernels/NnGemmBody.inc"
} // namespace geflow::kernels::nn::baseline

namespace {
using GemmFn = void (*)(bool, bool, int64_t, int64_t, int64_t, float,
                        const float *, int64_t, const float *, int64_t, float,
                        float *, int64_t);

bool cpuHasAvx2Fma() {
#if GEFLOW_HAVE_AVX2_GEMM
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

GemmFn bodyFor(nn::GemmIsa isa) {
#if GEFLOW_HAVE_AVX2_GEMM
  if (isa == nn::GemmIsa::kAvx2Fma)
    return &nn::avx2::gemm;
#endif
  (void)isa;
  return &nn::baseline::gemm;
}

nn::GemmIsa initialIsa() {
  const char *forced = std::getenv("GEFLOW_GEMM_ISA");
  if ((forced && std::strcmp(forced, "baseline") == 0) || !cpuHasAvx2Fma())
    return nn::GemmIsa::kBaseline;
  return nn::GemmIsa::kAvx2Fma;
}

// Relaxed: which body runs is not ordered with anything, and either computes
// the same product.
std::atomic<nn::GemmIsa> activeIsa{initialIsa()};
} // namespace

nn::GemmIsa nn::gemmIsa() { return activeIsa.load(std::memory_order_relaxed); }

bool nn::setGemmIsa(GemmIsa isa) {
  if (isa == GemmIsa::kAvx2Fma && !cpuHasAvx2Fma())
    return false;
  activeIsa.store(isa, std::memory_order_relaxed);
  return true;
}

const char *nn::gemmIsaName(GemmIsa isa) {
  return isa == GemmIsa::kAvx2Fma ? "avx2+fma" : "baseline";
}

void nn::gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
              float alpha, const float *a, int64_t lda, const float *b,
              int64_t ldb, float beta, float *c, int64_t ldc) {
  bodyFor(gemmIsa())(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c,
                     ldc);
}
