//===- TransposeTilesAvx2.cpp - transposeMatrix in 8x8 tiles (AVX2) -------===//
//
// Built with the AVX2 flags (isa/CMakeLists.txt); TransposeTiles.cpp picks
// it through GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/VectorOps.h"
#include "executor/kernels/layout/TransposeTiles.h"

#include <algorithm>
#include <cstdint>

#include <immintrin.h>

namespace geflow::kernels::nn::avx2 {
namespace {
struct T : VectorOps {
  static constexpr int kN = kLanes;
  static void transposeInRegisters(V *r) {
    V t[8];
    // Pairs of rows interleaved, then pairs of pairs: after the second step
    // r[4g + c] holds column c (low half) and 4 + c (high half) of rows 4g
    // to 4g + 3.
    for (int i = 0; i < 8; i += 2) {
      t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
      t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int g = 0; g < 2; ++g)
      for (int k = 0; k < 2; ++k) {
        const V a = t[4 * g + k], b = t[4 * g + k + 2];
        r[4 * g + 2 * k] = _mm256_shuffle_ps(a, b, 0x44);
        r[4 * g + 2 * k + 1] = _mm256_shuffle_ps(a, b, 0xee);
      }
    // Column c and 4 + c: the low and high halves of rows 0-3 and 4-7.
    for (int c = 0; c < 4; ++c) {
      t[c] = _mm256_permute2f128_ps(r[c], r[4 + c], 0x20);
      t[4 + c] = _mm256_permute2f128_ps(r[c], r[4 + c], 0x31);
    }
    for (int c = 0; c < 8; ++c)
      r[c] = t[c];
  }
};
} // namespace

#include "executor/kernels/isa/TransposeTilesBody.inc"

} // namespace geflow::kernels::nn::avx2
