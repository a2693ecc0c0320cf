//===- VectorOps.h - one ISA's float vector operations ---------*- C++ -*-===//
//
// Included by the per-ISA translation units only: VectorOps is the struct
// of the ISA the including file is built for (AVX-512 when __AVX512F__,
// else AVX2), so the structs the shared bodies take (vmath's S, the
// transpose tiles' T, the packed GEMM's S) start from it and add only what
// is their own. Internal linkage: each file is built with its own ISA's
// flags, and one shared inline copy could carry the wrong ones into
// another.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_ISA_VECTOROPS_H
#define GEFLOW_EXECUTOR_KERNELS_ISA_VECTOROPS_H

#include <cstdint>

#include <immintrin.h>

namespace geflow::kernels {
namespace {

struct VectorOps {
#if defined(__AVX512F__)
#define GEFLOW_MM(op) _mm512_##op
  using V = __m512;
  using Lanes = __mmask16; // which lanes a masked load or store touches
  static constexpr int64_t kLanes = 16;
  static Lanes firstLanes(int64_t n) { return Lanes((1u << n) - 1); }
  static V loadLanes(const float *p, Lanes m) {
    return _mm512_maskz_loadu_ps(m, p);
  }
  static void storeLanes(float *p, Lanes m, V v) {
    _mm512_mask_storeu_ps(p, m, v);
  }
#elif defined(__AVX2__)
#define GEFLOW_MM(op) _mm256_##op
  using V = __m256;
  using Lanes = __m256i;
  static constexpr int64_t kLanes = 8;
  /// Lanes [0, n) set (vmaskmov's mask), n <= kLanes.
  static Lanes firstLanes(int64_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V loadLanes(const float *p, Lanes m) {
    return _mm256_maskload_ps(p, m);
  }
  static void storeLanes(float *p, Lanes m, V v) {
    _mm256_maskstore_ps(p, m, v);
  }
#else
#error "VectorOps.h is for files built with the AVX2 or AVX-512 flags"
#endif
  // What differs only by the intrinsics' prefix, written once.
  static V zero() { return GEFLOW_MM(setzero_ps)(); }
  static V set1(float v) { return GEFLOW_MM(set1_ps)(v); }
  static V load(const float *p) { return GEFLOW_MM(loadu_ps)(p); }
  static void store(float *p, V v) { GEFLOW_MM(storeu_ps)(p, v); }
  static V add(V a, V b) { return GEFLOW_MM(add_ps)(a, b); }
  static V sub(V a, V b) { return GEFLOW_MM(sub_ps)(a, b); }
  static V mul(V a, V b) { return GEFLOW_MM(mul_ps)(a, b); }
  static V div(V a, V b) { return GEFLOW_MM(div_ps)(a, b); }
  static V fma(V a, V b, V c) { return GEFLOW_MM(fmadd_ps)(a, b, c); }
  static V min(V a, V b) { return GEFLOW_MM(min_ps)(a, b); }
  static V max(V a, V b) { return GEFLOW_MM(max_ps)(a, b); }
#undef GEFLOW_MM
  /// The first n < kLanes lanes at p (the rest 0), and their store: masked,
  /// so a short row's tail costs one vector, not a copy through the stack.
  static V loadFirst(const float *p, int64_t n) {
    return loadLanes(p, firstLanes(n));
  }
  static void storeFirst(float *p, V v, int64_t n) {
    storeLanes(p, firstLanes(n), v);
  }
};

} // namespace
} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_ISA_VECTOROPS_H
