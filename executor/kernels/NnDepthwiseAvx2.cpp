//===- NnDepthwiseAvx2.cpp - the depthwise 3x3 row with AVX2 and FMA ------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); NnDepthwise.cpp calls it only
// when cpu::activeIsa() is at least kAvx2.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/NnDepthwiseRow.inc"
} // namespace geflow::kernels::nn::avx2
