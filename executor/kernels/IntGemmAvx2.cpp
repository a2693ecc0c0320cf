//===- IntGemmAvx2.cpp - qnt::intGemm with AVX2 ---------------------------===//
//
// Built with -mavx2 (CMakeLists.txt) and called only after a runtime CPU
// check (IntGemm.cpp), so the library still runs on CPUs without it.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>

namespace geflow::kernels::qnt::avx2 {
#include "executor/kernels/IntGemmBody.inc"
} // namespace geflow::kernels::qnt::avx2
