//===- VectorMathAvx512.cpp - vmath's bodies on AVX-512 (16 lanes) --------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); VectorMath.cpp picks
// these with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/VectorMathIsa.h"

// GCC 12's AVX-512 intrinsics start from `__m512 __Y = __Y;` (an undefined
// vector on purpose), which -Wmaybe-uninitialized reports at every use.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include "executor/kernels/isa/VectorOps.h"
#include <immintrin.h>

namespace geflow::kernels::vmath::avx512 {
namespace {
struct S : VectorOps {
  using M = __mmask16;
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

#include "executor/kernels/isa/VectorMathBody.inc"

} // namespace geflow::kernels::vmath::avx512
