//===- NnDepthwiseAvx2.cpp - the depthwise rows with AVX2 and FMA ---------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt); NnDepthwise.cpp calls it only
// when cpu::activeIsa() is at least kAvx2.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/ConvTaps.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/NnDepthwiseRow.inc"
constexpr int kTapLanes = 8;
#include "executor/kernels/NnDepthwiseTaps.inc"
} // namespace geflow::kernels::nn::avx2
