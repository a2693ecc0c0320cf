//===- VectorMathAvx2.cpp - vmath's bodies on AVX2 + FMA (8 lanes) --------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); VectorMath.cpp picks
// these with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/VectorMathIsa.h"
#include "executor/kernels/isa/VectorOps.h"

#include <immintrin.h>

namespace geflow::kernels::vmath::avx2 {
namespace {
struct S : VectorOps {
  using M = __m256; // a comparison's lanes, as blendv takes them
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

#include "executor/kernels/isa/VectorMathBody.inc"

} // namespace geflow::kernels::vmath::avx2
