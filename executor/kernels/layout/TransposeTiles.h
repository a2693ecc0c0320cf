//===- TransposeTiles.h - float transposes a tile at a time ---*- C++ -*-===//
//
// Square tiles of floats transposed in registers, for the depthwise channel
// blocks' interleaving (NnDepthwiseBlocks.cpp) and the transpose op's 2-D
// case (transposePlanes): 16x16 with AVX-512, 8x8 with AVX2. A gather of
// one float per output reads each input cache line once per output row;
// ConvNeXt's NCHW <-> NHWC permutes took 0.3 ms each that way.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_LAYOUT_TRANSPOSETILES_H
#define GEFLOW_EXECUTOR_KERNELS_LAYOUT_TRANSPOSETILES_H

#include <cstdint>
#include <vector>

namespace geflow::kernels::nn {

// transposeMatrix's bodies (GEFLOW_PICK_BODY): the AVX2 and AVX-512 ones
// are isa/TransposeTilesBody.inc on 8x8 and 16x16 tiles.
#define GEFLOW_TRANSPOSE_DECLARE                                               \
  void transposeMatrix(const float *src, int64_t srcStride, int64_t rows,      \
                       int64_t cols, float *dst, int64_t dstStride);
namespace baseline {
GEFLOW_TRANSPOSE_DECLARE
} // namespace baseline
#if GEFLOW_HAVE_X86_KERNELS
namespace avx2 {
GEFLOW_TRANSPOSE_DECLARE
} // namespace avx2
namespace avx512 {
GEFLOW_TRANSPOSE_DECLARE
} // namespace avx512
#endif
#undef GEFLOW_TRANSPOSE_DECLARE

/// dst[j * dstStride + i] = src[i * srcStride + j] for i < rows, j < cols:
/// Whole 16x16 tiles and masked ones at the edges (AVX-512), or 8x8 ones
/// (AVX2), else one float at a time.
void transposeMatrix(const float *src, int64_t srcStride, int64_t rows,
                     int64_t cols, float *dst, int64_t dstStride);

/// A permutation that is, once unit dims are dropped and dims that stay
/// neighbours merged, `batch` transposes of [rows, cols] matrices to
/// [cols, rows]: NCHW -> NHWC is [C, H*W] -> [H*W, C] per image.
struct PlaneTranspose {
  int64_t batch = 1, rows = 1, cols = 1;
};

/// True (and `out` set) when output dim d reading input dim perm[d] of
/// `shape` is a PlaneTranspose.
bool asPlaneTranspose(const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &perm, PlaneTranspose *out);

/// The work unit of a PlaneTranspose's block split: a block of
/// kTransposeBand output rows (input columns) by kTransposeChunk output
/// columns (input rows) of one matrix, fewer at the matrix's edges. Whole
/// blocks, so the tiles never straddle two ranges; 64 output rows read
/// four cache lines of each input row in turn (16 read one: 20-25 % slower
/// on ConvNeXt's permutes), and the chunks keep a [3136, 96] matrix's 96
/// output rows more than two work items.
inline constexpr int64_t kTransposeBand = 64;
inline constexpr int64_t kTransposeChunk = 256;

/// The work items of `t`.
inline int64_t transposeBands(const PlaneTranspose &t) {
  return t.batch * ((t.cols + kTransposeBand - 1) / kTransposeBand) *
         ((t.rows + kTransposeChunk - 1) / kTransposeChunk);
}

/// Work items [begin, end) of `t` on 4-byte elements, 16x16 (AVX-512) or
/// 8x8 (AVX2) tiles at a time, the rest one element at a time.
void transposePlanes(const PlaneTranspose &t, const float *in, float *out,
                     int64_t begin, int64_t end);

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_LAYOUT_TRANSPOSETILES_H
