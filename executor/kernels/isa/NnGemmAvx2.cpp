//===- NnGemmAvx2.cpp - nn::gemm with AVX2 and FMA ------------------------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); NnGemm.cpp picks it with
// GEFLOW_PICK_BODY, so the library still runs on CPUs without AVX2 + FMA.
//
// Eigen's templates instantiated here have the same mangled names as the
// baseline ones in NnGemm.cpp but AVX2 bodies; the linker would keep one
// copy of each for both. Renaming Eigen's namespace in this file gives these
// instantiations names of their own.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

#define Eigen geflow_avx2_Eigen
#include <Eigen/Core>

#include "executor/kernels/isa/NnGemmIsa.h"

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/isa/NnGemmBody.inc"
} // namespace geflow::kernels::nn::avx2
