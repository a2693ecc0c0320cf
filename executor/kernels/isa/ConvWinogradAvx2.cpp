//===- ConvWinogradAvx2.cpp - Winograd transforms with AVX2 and FMA -------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); ConvWinograd.cpp picks it
// with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <utility>

namespace geflow::kernels::nn::avx2 {
constexpr int kLanes = 8;
#include "executor/kernels/isa/ConvWinogradBody.inc"

namespace {
/// All bits set in lanes [lo, hi) of 8: maskload/maskstore's mask.
__m256i laneRange(int64_t lo, int64_t hi) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_and_si256(
      _mm256_cmpgt_epi32(index, _mm256_set1_epi32(int(lo) - 1)),
      _mm256_cmpgt_epi32(_mm256_set1_epi32(int(hi)), index));
}
} // namespace

inline Vec loadLanes(const float *p, int64_t lo, int64_t hi) {
  const __m256 r = _mm256_maskload_ps(p, laneRange(lo, hi));
  Vec v;
  std::memcpy(&v, &r, sizeof v);
  return v;
}

inline void storeFirst(float *p, Vec v, int64_t n) {
  __m256 r;
  std::memcpy(&r, &v, sizeof r);
  _mm256_maskstore_ps(p, laneRange(0, n), r);
}
} // namespace geflow::kernels::nn::avx2
