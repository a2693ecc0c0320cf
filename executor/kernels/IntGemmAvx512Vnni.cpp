//===- IntGemmAvx512Vnni.cpp - qnt::intGemm with AVX-512 VNNI -------------===//
//
// Built with the AVX-512 flags and -mavx512vnni (CMakeLists.txt) and called
// only when cpu::hasAvx512Vnni() (IntGemm.cpp); the body is
// IntGemmAvx512Body.inc, its step one vpdpwssd (multiply int16 pairs, add
// both products into the int32 lane, wrapping as vpmaddwd + vpaddd does).
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace geflow::kernels::qnt::avx512vnni {
namespace {
inline __m512i dot(__m512i acc, __m512i a, __m512i b) {
  return _mm512_dpwssd_epi32(acc, a, b);
}
} // namespace
#include "executor/kernels/IntGemmAvx512Body.inc"
} // namespace geflow::kernels::qnt::avx512vnni
