//===- ConvWinogradAvx512.cpp - Winograd transforms with AVX-512 ----------===//
//
// Built with the AVX-512 flags (CMakeLists.txt); ConvWinograd.cpp calls it
// only when cpu::activeIsa() is kAvx512.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>

namespace geflow::kernels::nn::avx512 {
constexpr int kLanes = 16;
#include "executor/kernels/ConvWinogradBody.inc"
} // namespace geflow::kernels::nn::avx512
