//===- NnDepthwiseAvx2.cpp - the depthwise rows with AVX2 and FMA ---------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); NnDepthwise.cpp picks it
// with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvTaps.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/isa/NnDepthwiseRow.inc"
constexpr int kTapLanes = 8;
#include "executor/kernels/isa/NnDepthwiseTaps.inc"
} // namespace geflow::kernels::nn::avx2
