//===- VectorMathAvx2.cpp - vmath's bodies on AVX2 + FMA (8 lanes) --------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); VectorMath.cpp calls these only
// when cpu::atLeast(cpu::Isa::kAvx2).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/VectorMathIsa.h"

#include <immintrin.h>

namespace geflow::kernels::vmath::avx2 {
namespace {
struct S {
  using V = __m256;
  using M = __m256;
  static constexpr int64_t kLanes = 8;
  static V set1(float v) { return _mm256_set1_ps(v); }
  static V load(const float *p) { return _mm256_loadu_ps(p); }
  static void store(float *p, V v) { _mm256_storeu_ps(p, v); }
  /// The first n < kLanes lanes (the rest 0), and their store (vmaskmov).
  static __m256i firstLanes(int64_t n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                              _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static V loadFirst(const float *p, int64_t n) {
    return _mm256_maskload_ps(p, firstLanes(n));
  }
  static void storeFirst(float *p, V v, int64_t n) {
    _mm256_maskstore_ps(p, firstLanes(n), v);
  }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V abs(V a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
  static V round(V a) {
    return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  /// 2^n for integral n in [-126, 127].
  static V pow2(V n) {
    const __m256i e =
        _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
  }
  /// p * 2^n for integral n in [-126, 127]; +inf for n = 128.
  static V scale(V p, V n) { return _mm256_mul_ps(p, pow2(n)); }
  static M lt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static M gt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  /// m ? a : b, lane-wise.
  static V select(M m, V a, V b) { return _mm256_blendv_ps(b, a, m); }
  static __m128 half(V v, __m128 (*op)(__m128, __m128)) {
    __m128 x = op(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    x = op(x, _mm_movehl_ps(x, x));
    return op(x, _mm_shuffle_ps(x, x, 1));
  }
  static float reduceAdd(V v) {
    return _mm_cvtss_f32(
        half(v, [](__m128 a, __m128 b) { return _mm_add_ps(a, b); }));
  }
  static float reduceMax(V v) {
    return _mm_cvtss_f32(
        half(v, [](__m128 a, __m128 b) { return _mm_max_ps(a, b); }));
  }
};
} // namespace

#include "executor/kernels/VectorMathBody.inc"

} // namespace geflow::kernels::vmath::avx2
