//===- ConvWinogradAvx512.cpp - Winograd transforms with AVX-512 ----------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); ConvWinograd.cpp picks
// it with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <cstdint>
#include <cstring>
#include <utility>

namespace geflow::kernels::nn::avx512 {
constexpr int kLanes = 16;
#include "executor/kernels/isa/ConvWinogradBody.inc"

namespace {
/// Lanes [lo, hi) of 16.
__mmask16 laneRange(int64_t lo, int64_t hi) {
  return hi <= lo ? 0 : __mmask16(((1u << hi) - 1) & ~((1u << lo) - 1));
}
Vec fromRegister(__m512 r) {
  Vec v;
  std::memcpy(&v, &r, sizeof v);
  return v;
}
} // namespace

inline Vec loadLanes(const float *p, int64_t lo, int64_t hi) {
  return fromRegister(_mm512_maskz_loadu_ps(laneRange(lo, hi), p));
}

inline void storeFirst(float *p, Vec v, int64_t n) {
  __m512 r;
  std::memcpy(&r, &v, sizeof r);
  _mm512_mask_storeu_ps(p, laneRange(0, n), r);
}
} // namespace geflow::kernels::nn::avx512
