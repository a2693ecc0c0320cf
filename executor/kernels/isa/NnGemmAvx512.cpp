//===- NnGemmAvx512.cpp - nn::gemm with AVX-512 ---------------------------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); NnGemm.cpp picks it
// with GEFLOW_PICK_BODY. With __AVX512F__ defined, Eigen
// vectorizes on zmm registers (16 floats) and its GEBP kernel gets 32
// registers: on Zen 5, with two 512-bit FMA pipes, about twice the AVX2
// body's throughput on the transformer's shapes.
//
// As in NnGemmAvx2.cpp, Eigen's namespace is renamed so that these
// instantiations do not share mangled names with the other bodies'.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

// GCC 12 warns about _mm512_undefined_ps() inside Eigen's AVX-512 transposes
// (a false positive: the value is a deliberately undefined operand).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#define Eigen geflow_avx512_Eigen
#include <Eigen/Core>

#include "executor/kernels/isa/NnGemmIsa.h"

namespace geflow::kernels::nn::avx512 {
#include "executor/kernels/isa/NnGemmBody.inc"
} // namespace geflow::kernels::nn::avx512
