//===- NnDepthwiseAvx512.cpp - the depthwise kxk row with AVX-512 ---------===//
//
// Built with the AVX-512 flags (CMakeLists.txt); NnDepthwise.cpp calls it
// only when cpu::activeIsa() is kAvx512.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/ConvTaps.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace geflow::kernels::nn::avx512 {
constexpr int kTapLanes = 16;
#include "executor/kernels/NnDepthwiseTaps.inc"
} // namespace geflow::kernels::nn::avx512
