//===- VectorMathAvx512.cpp - vmath's bodies on AVX-512 (16 lanes) --------===//
//
// Built with the AVX-512 flags (CMakeLists.txt); VectorMath.cpp calls these
// only when cpu::atLeast(cpu::Isa::kAvx512).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/VectorMathIsa.h"

// GCC 12's AVX-512 intrinsics start from `__m512 __Y = __Y;` (an undefined
// vector on purpose), which -Wmaybe-uninitialized reports at every use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

namespace geflow::kernels::vmath::avx512 {
namespace {
struct S {
  using V = __m512;
  using M = __mmask16;
  static constexpr int64_t kLanes = 16;
  static V set1(float v) { return _mm512_set1_ps(v); }
  static V load(const float *p) { return _mm512_loadu_ps(p); }
  static void store(float *p, V v) { _mm512_storeu_ps(p, v); }
  /// The first n < kLanes lanes (the rest 0), and their store: masked, so a
  /// short row's tail costs one vector, not a copy through the stack.
  static V loadFirst(const float *p, int64_t n) {
    return _mm512_maskz_loadu_ps(static_cast<M>((1u << n) - 1), p);
  }
  static void storeFirst(float *p, V v, int64_t n) {
    _mm512_mask_storeu_ps(p, static_cast<M>((1u << n) - 1), v);
  }
  static V add(V a, V b) { return _mm512_add_ps(a, b); }
  static V sub(V a, V b) { return _mm512_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm512_mul_ps(a, b); }
  static V div(V a, V b) { return _mm512_div_ps(a, b); }
  static V fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
  static V min(V a, V b) { return _mm512_min_ps(a, b); }
  static V max(V a, V b) { return _mm512_max_ps(a, b); }
  static V abs(V a) { return _mm512_abs_ps(a); }
  static V round(V a) {
    return _mm512_roundscale_ps(a,
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  }
  /// 2^n for integral n in [-126, 127].
  static V pow2(V n) {
    const __m512i e =
        _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
    return _mm512_castsi512_ps(_mm512_slli_epi32(e, 23));
  }
  /// p * 2^n for integral n: one instruction (vscalefps).
  static V scale(V p, V n) { return _mm512_scalef_ps(p, n); }
  static M lt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
  static M gt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
  /// m ? a : b, lane-wise.
  static V select(M m, V a, V b) { return _mm512_mask_blend_ps(m, b, a); }
  static float reduceAdd(V v) { return _mm512_reduce_add_ps(v); }
  static float reduceMax(V v) { return _mm512_reduce_max_ps(v); }
};
} // namespace

#include "executor/kernels/VectorMathBody.inc"

} // namespace geflow::kernels::vmath::avx512
