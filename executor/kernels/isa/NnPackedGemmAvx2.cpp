//===- NnPackedGemmAvx2.cpp - the packed-weight GEMM's AVX2 + FMA body ----===//
//
// Built with the avx2 flags (isa/CMakeLists.txt); NnPackedGemm.cpp picks it
// with GEFLOW_PICK_BODY, at kAvx2 (packedGemmAvailable()). Its loops around
// the micro-kernel are NnPackedGemmBody.inc, shared with the AVX-512 body.
//
// A 6x16 micro-kernel keeps C's tile in 12 ymm registers over a chunk of
// kDepthChunk values of k. For each chunk and block of rows, a tile of four
// 16-column panels of B is copied contiguous once (L1 and L2), and each row
// panel of the block (6 x chunk of A, packed at load) sweeps the tile's
// panels in turn from L1: model-sized GEMMs (256x256x256, 1024x64x256,
// 128x512x1152) ran 10-25 % faster than with one panel per sweep of A.
// gemmPanels has both operands packed already: its B panels come straight
// from the weights packed at load.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/NnPackedGemmFinish.h"
#include "executor/kernels/isa/VectorOps.h"

#include <immintrin.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace geflow::kernels::nn::avx2 {
namespace {

constexpr int64_t kDepthChunk = 256;
/// A ColumnTile is one 16-wide panel.
constexpr int64_t kSweepCols = kPanelCols;
/// NnPackedGemmTile.inc's vector operations: a tile stores whole vectors
/// (narrow panels go through a tile, panelProduct).
struct S : VectorOps {
  struct M {};
  static V tileLoad(M, const float *p) { return load(p); }
  static void tileStore(float *p, M, V v) { store(p, v); }
  static V broadcast(const float *p) { return _mm256_broadcast_ss(p); }
};
} // namespace

#include "executor/kernels/isa/NnPackedGemmTile.inc"

namespace {
// kInPlaceDepth (128): a 16-wide panel's 128 rows take at most 16 KB of L1
// (two lines a row) while every row panel of the block sweeps them.
/// Column panels of B each row panel of A sweeps in turn (64 columns, as
/// the AVX-512 body's tile): A is read from L2 once per tile, not per panel.
constexpr int64_t kTilePanels = 4;

/// C[6 x 8*Vectors] (= or +=) A-panel[kc x 6] * B[kc x 8*Vectors]. One
/// vector wide serves a last panel of at most 8 columns at half the cost.
/// The loops over rows and vectors are unrolled by hand (pragmas) and acc
/// is only read after the k loop: otherwise GCC 12 may keep acc in memory
/// and store it on every k (a third of the speed).
/// With `finish` (the last chunk of an in-register epilogue), each row gets
/// its bias and clamp before the store.
/// Rows < kPanelRows serves the last panel of A (its rows past the end are
/// not computed at all; the A panel still has kPanelRows values per k).
/// With `prefetch`, the line of that panel at each k is asked into L2 (one
/// 16-wide panel row is one line). Without it, A's lines are asked for
/// ahead: those of the A panel at `nextA`, or else 16 k ahead in this one.
/// Direct (gemmDirect): A is read where it lies, row r's value at k at
/// a + rowOffsets[r] + depthOffsets[k], and nothing of it is asked for.
template <int Vectors, int Rows = kPanelRows, bool Direct = false>
void microKernel(int64_t kc, const float *__restrict a,
                 const float *__restrict b, int64_t ldb, float *c, int64_t ldc,
                 bool accumulate, const Finish *finish,
                 const float *prefetch = nullptr, const float *nextA = nullptr,
                 const int32_t *rowOffsets = nullptr,
                 const int32_t *depthOffsets = nullptr) {
  __m256 acc[Rows][Vectors];
  zeroTile(acc);
  prefetchTile<Rows, Vectors>(c, ldc, 8, accumulate, finish);
  int64_t rowOffset[Rows];
  if constexpr (Direct)
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r)
      rowOffset[r] = rowOffsets[r];
  // One k of the tile; the loop runs twice below so that the one without
  // prefetches carries no test for them.
  const auto multiplyAdd = [&](const float *ak,
                               const float *bk) __attribute__((always_inline)) {
    __m256 bv[Vectors];
#pragma GCC unroll 2
    for (int v = 0; v < Vectors; ++v)
      bv[v] = _mm256_loadu_ps(bk + 8 * v);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
      __m256 ar = _mm256_broadcast_ss(ak + (Direct ? rowOffset[r] : r));
#pragma GCC unroll 2
      for (int v = 0; v < Vectors; ++v)
        acc[r][v] = _mm256_fmadd_ps(ar, bv[v], acc[r][v]);
    }
  };
  // A at k: the packed panel's, or where a direct row's values lie.
  const float *base = a;
  const auto aAt = [&](int64_t k) __attribute__((always_inline)) {
    return Direct ? base + depthOffsets[k] : base + k * kPanelRows;
  };
  if (prefetch) { // gemmPanels: A is this run's packed rows, in cache
    for (int64_t k = 0; k < kc; ++k, b += ldb) {
      multiplyAdd(aAt(k), b);
      _mm_prefetch(reinterpret_cast<const char *>(prefetch + k * ldb),
                   _MM_HINT_T1);
    }
  } else {
    // gemmPacked: A (the packed weights) streams from L2, or from DRAM on
    // a tile's first panel; its line 16 k ahead is asked for (5-15 % on the
    // zoo's GEMM shapes), or the next panel's, which starts a run of lines
    // the hardware prefetcher has not seen (a chain of ResNet-50's 1x1
    // convs with cold weights: 95 -> 100 GFLOP/s on 14x14, 68 -> 78 on 7x7).
    const float *ahead = nextA ? nextA : a + 16 * kPanelRows;
    for (int64_t k = 0; k < kc; ++k, ahead += kPanelRows, b += ldb) {
      if constexpr (!Direct)
        _mm_prefetch(reinterpret_cast<const char *>(ahead), _MM_HINT_T0);
      multiplyAdd(aAt(k), b);
    }
  }
#pragma GCC unroll 16
  for (int r = 0; r < Rows; ++r)
#pragma GCC unroll 2
    for (int v = 0; v < Vectors; ++v)
      storeVector(acc[r][v], c + r * ldc + 8 * v, {}, r, v, accumulate, finish);
}

using Kernel = void (*)(int64_t, const float *, const float *, int64_t, float *,
                        int64_t, bool, const Finish *, const float *,
                        const float *, const int32_t *, const int32_t *);
/// The two-vector (16-column) kernels by rows - 1, A packed or direct.
template <bool Direct>
constexpr Kernel kFullWidth[kPanelRows] = {
    &microKernel<2, 1, Direct>, &microKernel<2, 2, Direct>,
    &microKernel<2, 3, Direct>, &microKernel<2, 4, Direct>,
    &microKernel<2, 5, Direct>, &microKernel<2, 6, Direct>};

/// The kc x 16 panel of B at `src` (row stride ldb; `cols` <= 16 valid
/// columns, the rest zero) into `dst`, contiguous.
void copyPanel(const float *src, int64_t ldb, int64_t kc, int64_t cols,
               float *__restrict dst, const float *next = nullptr) {
  if (cols == kPanelCols) {
    for (int64_t kk = 0; kk < kc; ++kk, src += ldb, dst += kPanelCols) {
      if (next)
        _mm_prefetch(reinterpret_cast<const char *>(next + kk * ldb),
                     _MM_HINT_T1);
      _mm256_storeu_ps(dst, _mm256_loadu_ps(src));
      _mm256_storeu_ps(dst + 8, _mm256_loadu_ps(src + 8));
    }
    return;
  }
  for (int64_t kk = 0; kk < kc; ++kk, src += ldb, dst += kPanelCols)
    for (int64_t q = 0; q < kPanelCols; ++q)
      dst[q] = q < cols ? src[q] : 0.0f;
}

/// Where a direct A's rows lie (microKernel's Direct): none for packed A.
struct DirectOffsets {
  const int32_t *rows = nullptr, *depth = nullptr;
};

/// C's kPanelRows x kPanelCols panel at `c` (`rows` x `cols` of it real)
/// (= or +=) A-panel[kc x 6] * B-panel[kc x 16]. Whole-width panels with
/// fewer rows compute just those; narrower ones compute into a tile and
/// copy what is real. Direct: A's rows read through `offsets`.
template <bool Direct = false>
void panelProduct(int64_t kc, const float *a, const float *b, int64_t ldb,
                  int64_t rows, int64_t cols, float *c, int64_t ldc,
                  bool accumulate, const Finish *finish = nullptr,
                  const float *prefetch = nullptr, const float *nextA = nullptr,
                  DirectOffsets offsets = {}) {
  if (cols == kPanelCols) {
    // Fewer rows: only the real ones computed, straight into C.
    return kFullWidth<Direct>[rows - 1](kc, a, b, ldb, c, ldc, accumulate,
                                        finish, prefetch, nextA, offsets.rows,
                                        offsets.depth);
  }
  alignas(32) float tile[kPanelRows * kPanelCols];
  if constexpr (Direct) // only the real rows have offsets
    kFullWidth<true>[rows - 1](kc, a, b, ldb, tile, kPanelCols, false, nullptr,
                               prefetch, nullptr, offsets.rows, offsets.depth);
  else if (cols <= 8)
    microKernel<1>(kc, a, b, ldb, tile, kPanelCols, false, nullptr, prefetch,
                   nextA);
  else
    microKernel<2>(kc, a, b, ldb, tile, kPanelCols, false, nullptr, prefetch,
                   nextA);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t q = 0; q < cols; ++q) {
      float &dst = c[r * ldc + q];
      float v = (accumulate ? dst : 0.0f) + tile[r * kPanelCols + q];
      if (finish) {
        v += finish->bias ? finish->bias[r] : 0.0f;
        v += finish->residual ? (&dst)[finish->residualOffset] : 0.0f;
        if (finish->clamps) {
          v = v < finish->lo ? finish->lo : v;
          v = finish->hi < v ? finish->hi : v;
        }
      }
      dst = v;
    }
}

void packedBlock(const PackedBlock &block) {
  const auto &[a, b, n, r0, r1, c, ldc, epilogue, inRegisters, k0, kc, bChunk,
               accumulate, last, rb0, rb1, copy, copyDepth] = block;
  const int64_t ldb = b.ldb, panelFloats = copyDepth * kPanelCols;
  for (int64_t j0 = 0; j0 < n; j0 += kTilePanels * kPanelCols) {
    // The tile's panels: each row panel of A sweeps all of them while it is
    // in L1 (one panel at a time, a 1024-row A came from L3 once per 16
    // columns).
    const float *panelAt[kTilePanels];
    int64_t ldPanel[kTilePanels], colsOf[kTilePanels], panels = 0;
    for (int64_t j = j0; j < n && panels < kTilePanels;
         j += kPanelCols, ++panels) {
      const int64_t cols = std::min(kPanelCols, n - j);
      // A short chunk stays in L1 where it lies, when the panel's whole
      // vectors are inside B's rows.
      const bool inPlace = kc <= kInPlaceDepth &&
                           (cols == kPanelCols || b.readableTo(j + kPanelCols));
      float *panelCopy = copy + panels * panelFloats;
      panelAt[panels] = inPlace ? bChunk + j : panelCopy;
      ldPanel[panels] = inPlace ? ldb : kPanelCols;
      colsOf[panels] = cols;
      // B's rows are far apart and out of cache (an activation a layer
      // wrote): the copy asks for the same panel of the next tile, a line of
      // each row (the first tile again for the next row block), a whole
      // tile's work ahead of its copy.
      const int64_t tileCols = kTilePanels * kPanelCols;
      const int64_t nextJ = j + tileCols < n ? j + tileCols : j - j0;
      const float *next = j + tileCols < n || (rb1 < r1 && nextJ < n)
                              ? bChunk + nextJ
                              : nullptr;
      if (!inPlace)
        copyPanel(bChunk + j, ldb, kc, cols, panelCopy, next);
    }
    for (int64_t row0 = rb0; row0 < rb1; row0 += kPanelRows) {
      const float *aPanel = a.panel(row0 / kPanelRows) + k0 * kPanelRows;
      const int64_t rows = std::min(kPanelRows, rb1 - row0);
      const Finish finish =
          inRegisters ? Finish::forRows(*epilogue, row0) : Finish();
      // The tile's first columns read A from DRAM (the weights, once per
      // run): their first panel asks for the next row panel's A.
      const float *nextA =
          j0 == 0 && row0 + kPanelRows < rb1
              ? a.panel(row0 / kPanelRows + 1) + k0 * kPanelRows
              : nullptr;
      for (int64_t p = 0; p < panels; ++p)
        panelProduct(kc, aPanel, panelAt[p], ldPanel[p], rows, colsOf[p],
                     c + (row0 - r0) * ldc + j0 + p * kPanelCols, ldc,
                     accumulate, inRegisters && last ? &finish : nullptr,
                     nullptr, p == 0 ? nextA : nullptr);
    }
  }
}

/// gemmPanels' and gemmDirect's tile: every row tile of A against the
/// 16-column panel, the first one asking the next B panel (the next
/// columns, or the next chunk's first ones) into L2 while the tiles compute:
/// weights read once per run come from DRAM. Packed A's tiles are its
/// panels; direct A's tiles differ by one row at most (the AVX-512 body's
/// split: 49 rows as 6 and 5, not eight of 6 and one of 1).
template <bool Direct>
void rowTiles(const ColumnTile &tile, const float *a,
              const DirectOffsets &offsets, int64_t rows, float *c,
              int64_t ldc) {
  const auto &[b, c0, c1, k0, kc, j, bPanel, after] = tile;
  const int64_t k = b.depth;
  const int64_t tiles = (rows + kPanelRows - 1) / kPanelRows;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t row0 = Direct ? rows * t / tiles : t * kPanelRows;
    const int64_t row1 =
        Direct ? rows * (t + 1) / tiles : std::min(rows, row0 + kPanelRows);
    panelProduct<Direct>(
        kc, Direct ? a : a + row0 * k + k0 * kPanelRows, bPanel, kPanelCols,
        row1 - row0, std::min(kPanelCols, c1 - j), c + row0 * ldc + (j - c0),
        ldc, k0 > 0, nullptr, t == 0 ? after.panel : nullptr, nullptr,
        Direct ? DirectOffsets{offsets.rows + row0, offsets.depth + k0}
               : DirectOffsets{});
  }
}

void panelsTile(const ColumnTile &tile, const float *aPanels, int64_t rows,
                float *c, int64_t ldc) {
  rowTiles<false>(tile, aPanels, {}, rows, c, ldc);
}

void directTile(const ColumnTile &tile, const DirectRows &a, int64_t rows,
                float *c, int64_t ldc) {
  rowTiles<true>(tile, a.base, {a.rowOffsets, a.depthOffsets}, rows, c, ldc);
}

/// One 16-wide panel is one block: two vectors of 8, contiguous.
void blockedTile(const ColumnTile &tile, const DirectRows &a, int64_t rows,
                 float *y, int64_t blockStride, const BlockedFinish &finish) {
  const auto &[b, c0, end, k0, kc, j, bPanel, after] = tile;
  const bool last = k0 + kc == b.depth;
  const Finish panelFinish = Finish::forColumns(finish, j - c0);
  float *block = y + (j - c0) / kPanelCols * blockStride;
  const int64_t tiles = (rows + kPanelRows - 1) / kPanelRows;
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t row0 = rows * t / tiles, row1 = rows * (t + 1) / tiles;
    kFullWidth<true>[row1 - row0 - 1](
        kc, a.base, bPanel, kPanelCols, block + row0 * kPanelCols, kPanelCols,
        k0 > 0, last ? &panelFinish : nullptr, t == 0 ? after.panel : nullptr,
        nullptr, a.rowOffsets + row0, a.depthOffsets + k0);
  }
}

} // namespace

#include "executor/kernels/isa/NnPackedGemmBody.inc"

} // namespace geflow::kernels::nn::avx2
