//===- PoolRowsAvx512.cpp - the pool row loops with AVX-512 --------------===//
//
// Built with the AVX-512 flags (CMakeLists.txt); Pool.cpp calls it only
// when cpu::activeIsa() is at least that level.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/PoolRows.h"

#include <algorithm>
#include <cstring>

namespace geflow::kernels::pool::avx512 {
constexpr int kVectorLanes = 16;
#include "executor/kernels/PoolRowsBody.inc"
} // namespace geflow::kernels::pool::avx512
