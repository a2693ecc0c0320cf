//===- PoolRowsAvx2.cpp - the pool row loops with AVX2 --------------------===//
//
// Built with the AVX2 flags (CMakeLists.txt); Pool.cpp calls it only
// when cpu::activeIsa() is at least that level.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/PoolRows.h"

#include <algorithm>
#include <cstring>

namespace geflow::kernels::pool::avx2 {
constexpr int kVectorLanes = 8;
#include "executor/kernels/PoolRowsBody.inc"
} // namespace geflow::kernels::pool::avx2
