//===- TransposeTiles.cpp - the transpose op's 2-D case in tiles ----------===//
//
// TransposeTiles.h. The tiles themselves are built with their ISA's flags
// (isa/TransposeTilesAvx2.cpp, isa/TransposeTilesAvx512.cpp, one shared
// body); this file has the scalar baseline, picks a body and splits the
// planes into work items.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/layout/TransposeTiles.h"
#include "executor/kernels/isa/IsaDispatch.h"

#include <algorithm>

namespace geflow::kernels::nn {

bool asPlaneTranspose(const std::vector<int64_t> &shape,
                      const std::vector<int64_t> &perm, PlaneTranspose *out) {
  // Input dims of more than one element, renumbered in input order.
  std::vector<int64_t> reduced(shape.size(), -1);
  int64_t kept = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0)
      return false; // no elements: nothing to tile (the gather copies none)
    if (shape[d] > 1)
      reduced[d] = kept++;
  }
  // Runs of output dims reading consecutive input dims: {first dim, size}.
  std::vector<std::pair<int64_t, int64_t>> groups;
  int64_t last = -2;
  for (int64_t p : perm) {
    const int64_t d = reduced[p];
    if (d < 0)
      continue;
    if (d == last + 1)
      groups.back().second *= shape[p];
    else
      groups.push_back({d, shape[p]});
    last = d;
  }
  if (groups.size() == 2 && groups[0].first > groups[1].first) {
    *out = {1, groups[1].second, groups[0].second};
    return true;
  }
  if (groups.size() == 3 && groups[0].first < groups[2].first &&
      groups[2].first < groups[1].first) {
    *out = {groups[0].second, groups[2].second, groups[1].second};
    return true;
  }
  return false;
}

void baseline::transposeMatrix(const float *src, int64_t srcStride,
                               int64_t rows, int64_t cols, float *dst,
                               int64_t dstStride) {
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      dst[j * dstStride + i] = src[i * srcStride + j];
}

void transposeMatrix(const float *src, int64_t srcStride, int64_t rows,
                     int64_t cols, float *dst, int64_t dstStride) {
  GEFLOW_PICK_BODY(nn, transposeMatrix)
  (src, srcStride, rows, cols, dst, dstStride);
}

void transposePlanes(const PlaneTranspose &t, const float *in, float *out,
                     int64_t begin, int64_t end) {
  const int64_t rows = t.rows, cols = t.cols, plane = rows * cols;
  const int64_t bands = (cols + kTransposeBand - 1) / kTransposeBand;
  const int64_t chunks = (rows + kTransposeChunk - 1) / kTransposeChunk;
  for (int64_t item = begin; item < end; ++item) {
    // Output rows c0 .. c0 + kTransposeBand (input columns), columns r0 ..
    // r0 + kTransposeChunk (input rows), of matrix b; fewer at its edges.
    const int64_t b = item / (bands * chunks), band = item / chunks % bands;
    const int64_t c0 = band * kTransposeBand,
                  r0 = item % chunks * kTransposeChunk;
    transposeMatrix(in + b * plane + r0 * cols + c0, cols,
                    std::min(kTransposeChunk, rows - r0),
                    std::min(kTransposeBand, cols - c0),
                    out + b * plane + c0 * rows + r0, rows);
  }
}

} // namespace geflow::kernels::nn
