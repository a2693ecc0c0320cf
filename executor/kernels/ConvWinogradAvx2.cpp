//===- ConvWinogradAvx2.cpp - Winograd transforms with AVX2 and FMA -------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); ConvWinograd.cpp calls it only
// when cpu::activeIsa() is at least kAvx2.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

namespace geflow::kernels::nn::avx2 {
constexpr int kLanes = 8;
#include "executor/kernels/ConvWinogradBody.inc"
} // namespace geflow::kernels::nn::avx2
