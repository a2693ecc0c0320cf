//===- PoolRowsAvx2.cpp - the pool row loops with AVX2 --------------------===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); Pool.cpp picks it with
// GEFLOW_PICK_BODY.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/pool/PoolRows.h"

#include <algorithm>
#include <cstring>

namespace geflow::kernels::pool::avx2 {
constexpr int kVectorLanes = 8;
#include "executor/kernels/isa/PoolRowsBody.inc"
} // namespace geflow::kernels::pool::avx2
