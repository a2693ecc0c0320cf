//===- IntGemmAvx512Vnni.cpp - qnt::intGemm with AVX-512 VNNI -------------===//
//
// Built with the avx512vnni flags (isa/CMakeLists.txt); IntGemm.cpp picks
// it (GEFLOW_PICK_BODY_VNNI) when cpu::hasAvx512Vnni(); the body is
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
/// Rows of a block: 6 x 4 accumulators, as the float micro-kernel's.
constexpr int kRows = 6;
/// vpdpwssd in asm: with _mm512_dpwssd_epi32, GCC 12 copies each
/// accumulator through a temporary and spills them to the stack on every k
/// (measured 2.5 to 3 times slower); "+v" keeps them in place.
inline __m512i dot(__m512i acc, __m512i a, __m512i b) {
  asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
  return acc;
}
} // namespace
#include "executor/kernels/isa/IntGemmAvx512Body.inc"
} // namespace geflow::kernels::qnt::avx512vnni
