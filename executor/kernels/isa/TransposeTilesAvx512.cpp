//===- TransposeTilesAvx512.cpp - transposeMatrix in 16x16 tiles ----------===//
//
// Built with the AVX-512 flags (isa/CMakeLists.txt); TransposeTiles.cpp
// picks it through GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/layout/TransposeTiles.h"

#include <algorithm>
#include <cstdint>

#include <immintrin.h>

// GCC 12 warns about the undefined operands inside the cast, shuffle and
// masked-load intrinsics (a false positive: they are deliberately
// undefined).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "executor/kernels/isa/VectorOps.h"

namespace geflow::kernels::nn::avx512 {
namespace {
struct T : VectorOps {
  static constexpr int kN = kLanes;
  static void transposeInRegisters(V *r) {
    V t[16], u[16];
    // Pairs of rows, then pairs of pairs: t[4g + c] holds, in each 128-bit
    // lane q, column 4q + c of rows 4g to 4g + 3.
    for (int i = 0; i < 16; i += 2) {
      u[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
      u[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4)
      for (int k = 0; k < 2; ++k) {
        const __m512d a = _mm512_castps_pd(u[i + k]);
        const __m512d b = _mm512_castps_pd(u[i + k + 2]);
        t[i + 2 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
        t[i + 2 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
      }
    // Then the 128-bit lanes: column 4q + c gathers lane q of t[c],
    // t[4 + c], t[8 + c] and t[12 + c].
    for (int c = 0; c < 4; ++c) {
      const V a02 = _mm512_shuffle_f32x4(t[c], t[4 + c], 0x88);
      const V a13 = _mm512_shuffle_f32x4(t[c], t[4 + c], 0xdd);
      const V b02 = _mm512_shuffle_f32x4(t[8 + c], t[12 + c], 0x88);
      const V b13 = _mm512_shuffle_f32x4(t[8 + c], t[12 + c], 0xdd);
      r[c] = _mm512_shuffle_f32x4(a02, b02, 0x88);
      r[4 + c] = _mm512_shuffle_f32x4(a13, b13, 0x88);
      r[8 + c] = _mm512_shuffle_f32x4(a02, b02, 0xdd);
      r[12 + c] = _mm512_shuffle_f32x4(a13, b13, 0xdd);
    }
  }
};
} // namespace

#include "executor/kernels/isa/TransposeTilesBody.inc"

} // namespace geflow::kernels::nn::avx512
