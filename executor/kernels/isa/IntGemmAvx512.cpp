//===- IntGemmAvx512.cpp - qnt::intGemm with AVX-512 BW -------------------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); IntGemm.cpp picks it
// (GEFLOW_PICK_BODY_VNNI) at kAvx512 when the CPU lacks VNNI; the body is
// IntGemmAvx512Body.inc, its step vpmaddwd then vpaddd.
//
//===----------------------------------------------------------------------===//

#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace geflow::kernels::qnt::avx512 {
namespace {
/// Rows of a block: with 4 x 4 accumulators and vpmaddwd's products GCC 12
/// keeps all in registers; 5 or 6 rows spill accumulators on every k.
constexpr int kRows = 4;
inline __m512i dot(__m512i acc, __m512i a, __m512i b) {
  return _mm512_add_epi32(acc, _mm512_madd_epi16(a, b));
}
} // namespace
#include "executor/kernels/isa/IntGemmAvx512Body.inc"
} // namespace geflow::kernels::qnt::avx512
