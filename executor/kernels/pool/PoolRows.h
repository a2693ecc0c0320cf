//===- PoolRows.h - one output row of a max or average pool -----*- C++ -*-===//
//
// The inner loops of float max_pool and average_pool (Pool.cpp), with one
// body per instruction set: these short strided loops over rows of a few
// dozen floats were a tenth of Inception v3 at the baseline's 4 lanes.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_POOL_POOLROWS_H
#define GEFLOW_EXECUTOR_KERNELS_POOL_POOLROWS_H

#include "executor/kernels/support/NnSupport.h"

#include <array>
#include <cstdint>

namespace geflow::kernels::pool {

/// The input an output row of width `width` reads: `numRows` input rows (the
/// window's taps along the outer dims, in window order), each read at the
/// tap columns `cols` (one per tap along the row) with the window `stride`.
/// `scratch` holds `rowWidth` floats: the rows are combined into it first,
/// so a k x k window costs k + k passes over a row instead of k * k.
struct PoolRow {
  const float *const *rows;
  int64_t numRows;
  const nn::TapColumns *cols;
  int64_t numCols;
  int64_t stride, width, rowWidth;
  float *scratch;
};

/// One plane of a pool with unit strides and dilations whose output is the
/// input's size (the "same" pools: Inception's 3x3 average pools, SPP's max
/// pools). Its windows' rows are combined over the whole plane at once, then
/// the taps along the rows, in the row bodies' order (max pools give their
/// results bit for bit), without the loop overheads of rows a few dozen
/// floats long (most of the row path's time on Inception's 35x35, 17x17 and
/// 8x8 maps). `scratch` holds height x width floats. With `scales`
/// (average_pool), each output is then multiplied by its scale there (1 /
/// its count, 0 where the count is 0): within an ulp of the row path's
/// division, and a vector multiply.
struct PoolPlane {
  int64_t height, width;
  int64_t kernelH, kernelW, padTop, padLeft;
  const float *scales;
  float *scratch;
};

/// Lanes of a pool block: planes interleaved position-major, a vector's
/// worth of floats per position.
inline constexpr int64_t kBlockLanes = 16;

/// A 2-D pool over kBlockLanes planes at once (PoolKernel interleaves them):
/// each tap of a window is one vector over the planes. NCHW rows of 8 to
/// 35 floats left most of a vector idle and paid the row loops' overheads
/// on each (Inception's pools ran at a third of ORT's, whose NCHWc layout
/// is this one). Per output row and column, `rowTaps` and `colTaps` hold
/// the window's taps inside the input, [begin, end); with `scales`
/// (average_pool), each output is multiplied by its own (1 / its count, 0
/// where the count is 0).
struct PoolBlock {
  int64_t inW, outH, outW, kernelW;
  int64_t strideH, strideW, padTop, padLeft, dilationH, dilationW;
  const std::array<int64_t, 4> *rowTaps, *colTaps;
  const float *scales;
};

/// Fills the output row `out` from `row`'s windows. The bodies:
/// maxRow: out[j] = the largest tap of window j (-inf for a window with none);
/// sumRow: out[j] = the sum of window j's taps (0 for none).
/// maxPlane and sumPlane do the same over a PoolPlane, maxBlock and
/// sumBlock over a PoolBlock's interleaved planes.
using RowFn = void (*)(const PoolRow &row, float *out);
using PlaneFn = void (*)(const PoolPlane &plane, const float *in, float *out);
using BlockFn = void (*)(const PoolBlock &block, const float *in, float *out);
#define GEFLOW_POOL_ROWS_DECLARE                                               \
  void maxRow(const PoolRow &row, float *out);                                 \
  void sumRow(const PoolRow &row, float *out);                                 \
  void maxPlane(const PoolPlane &plane, const float *in, float *out);          \
  void sumPlane(const PoolPlane &plane, const float *in, float *out);          \
  void maxBlock(const PoolBlock &block, const float *in, float *out);          \
  void sumBlock(const PoolBlock &block, const float *in, float *out);
namespace baseline {
GEFLOW_POOL_ROWS_DECLARE
} // namespace baseline
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
GEFLOW_POOL_ROWS_DECLARE
} // namespace avx2
namespace avx512 {
GEFLOW_POOL_ROWS_DECLARE
} // namespace avx512
#endif
#undef GEFLOW_POOL_ROWS_DECLARE

} // namespace geflow::kernels::pool

#endif // GEFLOW_EXECUTOR_KERNELS_POOL_POOLROWS_H
