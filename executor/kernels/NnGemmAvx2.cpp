//===- NnGemmAvx2.cpp - nn::gemm with AVX2 and FMA ------------------------===//
//
// Built with -mavx2 -mfma (CMakeLists.txt) and called only after a runtime
// CPU check (NnGemm.cpp), so the library still runs on CPUs without them.
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

#include "executor/kernels/NnGemmIsa.h"

namespace geflow::kernels::nn::avx2 {
#include "executor/kernels/NnGemmBody.inc"
} // namespace geflow::kernels::nn::avx2
