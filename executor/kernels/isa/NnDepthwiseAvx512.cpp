//===- NnDepthwiseAvx512.cpp - the depthwise kxk row with AVX-512 ---------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); NnDepthwise.cpp picks
// it with GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvTaps.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <immintrin.h>

// GCC 12 warns about the undefined operands inside the cast, shuffle and
// masked-load intrinsics (a false positive: they are deliberately
// undefined).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace geflow::kernels::nn::avx512 {
constexpr int kTapLanes = 16;
#include "executor/kernels/isa/NnDepthwiseTaps.inc"
} // namespace geflow::kernels::nn::avx512
