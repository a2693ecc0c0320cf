//===- TransposeTiles.cpp - the transpose op's 2-D case in tiles ----------===//
//
// TransposeTiles.h. The tiles themselves are built with their ISA's flags
// (NnDepthwiseAvx512.cpp, NnDepthwiseAvx2.cpp); this file picks them.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/TransposeTiles.h"
#include "executor/kernels/CpuIsa.h"

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

namespace {

using TileFn = void (*)(const float *, int64_t, float *, int64_t);

/// The square tiles this machine transposes in registers, widest first.
struct Tiles {
  int64_t size[2] = {0, 0};
  TileFn fn[2] = {nullptr, nullptr};
};

Tiles machineTiles() {
  Tiles t;
  int n = 0;
#if GEFLOW_HAVE_X86_KERNELS
  if (cpu::atLeast(cpu::Isa::kAvx512)) {
    t.size[n] = 16;
    t.fn[n++] = &avx512::transpose16;
  }
  if (cpu::atLeast(cpu::Isa::kAvx2)) {
    t.size[n] = 8;
    t.fn[n++] = &avx2::transpose8;
  }
#endif
  (void)n;
  return t;
}

} // namespace

void transposePlanes(const PlaneTranspose &t, const float *in, float *out,
                     int64_t begin, int64_t end) {
  const int64_t rows = t.rows, cols = t.cols, plane = rows * cols;
  const int64_t bands = (cols + kTransposeBand - 1) / kTransposeBand;
  const int64_t chunks = (rows + kTransposeChunk - 1) / kTransposeChunk;
  const Tiles tiles = machineTiles();
  for (int64_t item = begin; item < end; ++item) {
    // Output rows c0 .. c0 + count - 1 (input columns), from column r0 to
    // r1 (input rows), of matrix b.
    const int64_t b = item / (bands * chunks), band = item / chunks % bands;
    const int64_t c0 = band * kTransposeBand,
                  r0 = item % chunks * kTransposeChunk;
    const int64_t count = std::min(kTransposeBand, cols - c0);
    const int64_t r1 = std::min(rows, r0 + kTransposeChunk);
    const float *src = in + b * plane;
    float *dst = out + b * plane;
    int64_t c = c0;
    for (int i = 0; i < 2; ++i) {
      const int64_t n = tiles.size[i];
      for (; n && c + n <= c0 + count; c += n) {
        int64_t r = r0;
        for (; r + n <= r1; r += n)
          tiles.fn[i](src + r * cols + c, cols, dst + c * rows + r, rows);
        for (; r < r1; ++r)
          for (int64_t q = 0; q < n; ++q)
            dst[(c + q) * rows + r] = src[r * cols + c + q];
      }
    }
    // Columns no tile took, and every column without vector tiles.
    for (; c < c0 + count; ++c)
      for (int64_t r = r0; r < r1; ++r)
        dst[c * rows + r] = src[r * cols + c];
  }
}

} // namespace geflow::kernels::nn
