//===- PoolRowsAvx512.cpp - the pool row loops with AVX-512 --------------===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); Pool.cpp picks it with
// GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/pool/PoolRows.h"

#include <algorithm>
#include <cstring>

namespace geflow::kernels::pool::avx512 {
constexpr int kVectorLanes = 16;
#include "executor/kernels/isa/PoolRowsBody.inc"
} // namespace geflow::kernels::pool::avx512
