//===- NnPackedGemmAvx512.cpp - the packed-weight GEMM's AVX-512 body -----===//
//
// Built with the avx512 flags (isa/CMakeLists.txt); NnPackedGemm.cpp picks
// it at kAvx512 (GEFLOW_PICK_BODY). Same packed operands as the AVX2 body
// (NnPackedGemmAvx2.cpp), and the same loops (NnPackedGemmBody.inc).
//
// The micro-kernel computes a 6 x 64 tile of C in 24 zmm accumulators: one
// 6-row A panel (as packed) against four 16-wide vectors of B. Per k that is
// 4 loads of B and 6 broadcasts of A for 24 FMAs, which keeps both of Zen
// 5's 512-bit FMA pipes busy. A 12 x 32 tile over two A panels (the same 24
// accumulators, 14 loads per k) measured the same to 5 % slower on
// ResNet-50's shapes, and needs its depth chunks twice as deep for the same
// loads of C. Narrower tiles take more A panels to keep 24 accumulators
// (12 x 32, 24 x 16: a conv that asks for 16 channels at a time), edge
// tiles are the same template with fewer rows; a last vector shorter than
// 16 columns is stored under a mask, so narrow panels cost no copy through
// a tile. Packed weights stream from DRAM once per run: while a tile
// computes, the next tile's A panels are asked into L2 (a chain of
// ResNet-50's 1x1 convs, weights cold: 160 -> 185 GFLOP/s on 14x14, 106 ->
// 146 on 7x7, whose one column tile reads all of A cold).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/isa/NnPackedGemmFinish.h"

#include <immintrin.h>

// GCC 12 warns about the _mm512_undefined_ps() inside _mm512_max_ps and
// _mm512_min_ps (a false positive: a deliberately undefined operand).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "executor/kernels/isa/VectorOps.h"

#include <algorithm>
#include <array>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace geflow::kernels::nn::avx512 {
namespace {

/// Vectors of 16 floats in a whole-width tile (the column step), and the
/// accumulators every tile aims for.
constexpr int kTileVectors = 4;
constexpr int64_t kTileCols = kTileVectors * kPanelCols;
constexpr int kAccumulators = 24;
/// Rows of a tile `vectors` wide: whole A panels filling the accumulators
/// (6 x 64, 12 x 32, 24 x 16; 6 x 48 leaves 6 free).
constexpr int maxTileRows(int vectors) {
  return kAccumulators / vectors / kPanelRows * kPanelRows;
}
constexpr int kMaxTileRows = maxTileRows(1);
/// A kDepthChunk x kTileCols panel of B is 32 KB: it stays in L1 (48 KB on
/// Zen 5) while every row panel of a block sweeps it (256 deep, 64 KB,
/// measured no faster).
constexpr int64_t kDepthChunk = 128;
/// A ColumnTile is one tile: up to four 16-wide vectors.
constexpr int64_t kSweepCols = kTileCols;
/// NnPackedGemmTile.inc's vector operations: the last vector of a tile
/// under a mask of its real lanes.
struct S : VectorOps {
  using M = __mmask16;
  static V tileLoad(M m, const float *p) { return loadLanes(p, m); }
  static void tileStore(float *p, M m, V v) { storeLanes(p, m, v); }
  static V broadcast(const float *p) { return _mm512_set1_ps(*p); }
};
} // namespace

#include "executor/kernels/isa/NnPackedGemmTile.inc"

namespace {

/// Where a tile's operands are: A's first panel at `a`, the next ones
/// `aPanelStride` floats apart; B's vector v at b + v * bVectorStride, its
/// next k `ldb` on.
struct TileOperands {
  const float *a;
  int64_t aPanelStride;
  const float *b;
  int64_t ldb, bVectorStride;
  /// The B tile the next call will read, laid out as this one's (null:
  /// none): its lines are asked for into L2 one k at a time, so that
  /// weights read once per run stream in while this tile computes.
  const float *prefetch = nullptr;
  int prefetchVectors = 0;
  /// The A panels the next call will read, laid out as this one's (null:
  /// none): gemmPacked's weights come from DRAM once per run, and each
  /// tile's panels start a new run of lines the hardware prefetcher has
  /// not seen.
  const float *prefetchA = nullptr;
  /// Direct tiles (gemmDirect): row r's value at k is at
  /// a + rowOffsets[r] + depthOffsets[k].
  const int32_t *rowOffsets = nullptr;
  const int32_t *depthOffsets = nullptr;
  /// Floats from one 16-column vector of C to the next: the row's next 16
  /// (kPanelCols), or the next NC1HWC0 block (gemmDirectBlocked).
  int64_t cPanelStride = kPanelCols;
};

/// Row tile `t` of `tiles` asks for the next B tile at `next` (null: none),
/// `vectors` vectors wide, laid out as `op`'s: one vector per row tile, or
/// all of them by the first when there are fewer row tiles than vectors.
void askForNextTile(TileOperands &op, const float *next, int64_t vectors,
                    int64_t tiles, int64_t t) {
  const bool oneEach = tiles >= vectors;
  const bool asks = next && (oneEach ? t < vectors : t == 0);
  op.prefetch = asks ? next + (oneEach ? t : 0) * op.bVectorStride : nullptr;
  op.prefetchVectors = oneEach ? 1 : int(vectors);
}

/// C[Rows x 16*Vectors] (= or +=) A[Rows x kc] * B[kc x 16*Vectors]; the
/// last vector stores only the lanes of `lastMask`. The loops over rows and
/// vectors are unrolled (pragmas) and acc is only read after the k loop, so
/// that it stays in registers. With `finish` (the last chunk of an
/// in-register epilogue), each row gets its bias and clamp before the store.
/// Direct: A is read where it lies (TileOperands' offsets), not packed.
template <int Rows, int Vectors, bool Direct = false>
void microKernel(int64_t kc, const TileOperands &op, float *c, int64_t ldc,
                 __mmask16 lastMask, bool accumulate, const Finish *finish) {
  __m512 acc[Rows][Vectors];
  zeroTile(acc);
  prefetchTile<Rows, Vectors>(c, ldc, op.cPanelStride, accumulate, finish);
  constexpr int kPanels = (Rows + kPanelRows - 1) / kPanelRows;
  const float *a[kPanels];
#pragma GCC unroll 4
  for (int p = 0; p < kPanels; ++p)
    a[p] = op.a + p * op.aPanelStride;
  int64_t rowOffset[Rows];
  if constexpr (Direct)
#pragma GCC unroll 32
    for (int r = 0; r < Rows; ++r)
      rowOffset[r] = op.rowOffsets[r];
  const float *__restrict b = op.b;
  const int64_t ldb = op.ldb, bvs = op.bVectorStride;
  // One k of the tile.
  const auto multiplyAdd = [&](int64_t k,
                               const float *bk) __attribute__((always_inline)) {
    __m512 bv[Vectors];
#pragma GCC unroll 4
    for (int v = 0; v < Vectors; ++v)
      bv[v] = _mm512_loadu_ps(bk + v * bvs);
    const float *ak = Direct ? op.a + op.depthOffsets[k] : nullptr;
#pragma GCC unroll 32
    for (int r = 0; r < Rows; ++r) {
      const __m512 ar = _mm512_set1_ps(
          Direct ? ak[rowOffset[r]]
                 : a[r / kPanelRows][k * kPanelRows + r % kPanelRows]);
#pragma GCC unroll 4
      for (int v = 0; v < Vectors; ++v)
        acc[r][v] = _mm512_fmadd_ps(ar, bv[v], acc[r][v]);
    }
  };
  // The k loop once per set of prefetches, so that none tests for them.
  const auto sweep = [&](auto askA, auto askB) __attribute__((always_inline)) {
    const float *pf = op.prefetch;
    for (int64_t k = 0; k < kc; ++k, b += ldb) {
      multiplyAdd(k, b);
      if constexpr (decltype(askA)::value) {
#pragma GCC unroll 4
        for (int p = 0; p < kPanels; ++p)
          _mm_prefetch(reinterpret_cast<const char *>(
                           op.prefetchA + p * op.aPanelStride + k * kPanelRows),
                       _MM_HINT_T1);
      }
      if constexpr (decltype(askB)::value) {
        for (int v = 0; v < op.prefetchVectors; ++v)
          _mm_prefetch(reinterpret_cast<const char *>(pf + v * bvs),
                       _MM_HINT_T1);
        pf += ldb;
      }
    }
  };
  using Yes = std::true_type;
  using No = std::false_type;
  if (op.prefetchA)
    op.prefetch ? sweep(Yes(), Yes()) : sweep(Yes(), No());
  else
    op.prefetch ? sweep(No(), Yes()) : sweep(No(), No());
#pragma GCC unroll 32
  for (int r = 0; r < Rows; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < Vectors; ++v)
      storeVector(acc[r][v], c + r * ldc + v * op.cPanelStride,
                  v == Vectors - 1 ? lastMask : __mmask16(0xffff), r, v,
                  accumulate, finish);
}

using Kernel = void (*)(int64_t, const TileOperands &, float *, int64_t,
                        __mmask16, bool, const Finish *);

template <bool Direct, int Vectors, int Rows> constexpr Kernel kernelFor() {
  if constexpr (Rows <= maxTileRows(Vectors))
    return &microKernel<Rows, Vectors, Direct>;
  else
    return nullptr; // never asked for: more accumulators than registers
}
template <bool Direct, int Vectors, int... R>
constexpr std::array<Kernel, sizeof...(R)>
kernelRow(std::integer_sequence<int, R...>) {
  return {kernelFor<Direct, Vectors, R + 1>()...};
}
/// [vectors - 1][rows - 1] up to MaxRows rows.
template <bool Direct, int MaxRows, int... V>
constexpr std::array<std::array<Kernel, MaxRows>, kTileVectors>
kernelTable(std::integer_sequence<int, V...>) {
  return {
      kernelRow<Direct, V + 1>(std::make_integer_sequence<int, MaxRows>())...};
}
/// Every tile shape an edge can leave.
constexpr auto kKernels = kernelTable<false, kMaxTileRows>(
    std::make_integer_sequence<int, kTileVectors>());
/// gemmDirect's tiles: one panel of rows at most (each row's offset is held
/// in a register).
constexpr auto kDirectKernels = kernelTable<true, kPanelRows>(
    std::make_integer_sequence<int, kTileVectors>());

/// Vectors of 16 columns for `cols` columns.
int64_t vectorsFor(int64_t cols) {
  return (cols + kPanelCols - 1) / kPanelCols;
}

/// Rows per tile for `rows` rows (from a panel) and `cols` columns: as many
/// whole panels as the tile's width leaves accumulators for, spread evenly
/// over the tiles (49 rows at 16 columns: 18, 18, 13; not 24, 24, 1, whose
/// one-row tile waits on its FMAs' latency).
int64_t tileRowsFor(int64_t rows, int64_t cols) {
  const int64_t panels = (rows + kPanelRows - 1) / kPanelRows;
  const int64_t most = maxTileRows(vectorsFor(cols)) / kPanelRows;
  const int64_t tiles = (panels + most - 1) / most;
  return (panels + tiles - 1) / tiles * kPanelRows;
}

/// C's tile at `c` of `rows` x `cols` real values (= or +=) A * B; rows at
/// most tileRowsFor(..., cols).
void tileProduct(int64_t kc, const TileOperands &op, int64_t rows, int64_t cols,
                 float *c, int64_t ldc, bool accumulate,
                 const Finish *finish = nullptr) {
  const int64_t vectors = vectorsFor(cols);
  const int64_t lastLanes = cols - (vectors - 1) * kPanelCols;
  const __mmask16 lastMask = __mmask16((1u << lastLanes) - 1);
  kKernels[vectors - 1][rows - 1](kc, op, c, ldc, lastMask, accumulate, finish);
}

/// The kc x cols block of B at `src` (row stride ldb) into `dst` as kc rows
/// of `width` floats (cols <= width; the rest zero), contiguous.
void copyPanel(const float *src, int64_t ldb, int64_t kc, int64_t cols,
               int64_t width, float *__restrict dst) {
  const int64_t whole = cols / kPanelCols;
  const int64_t lastLanes = cols - whole * kPanelCols;
  const __mmask16 lastMask = __mmask16((1u << lastLanes) - 1);
  for (int64_t kk = 0; kk < kc; ++kk, src += ldb, dst += width) {
    int64_t v = 0;
    for (; v < whole; ++v)
      _mm512_storeu_ps(dst + 16 * v, _mm512_loadu_ps(src + 16 * v));
    for (; v * kPanelCols < width; ++v)
      _mm512_storeu_ps(dst + 16 * v, v == whole ? _mm512_maskz_loadu_ps(
                                                      lastMask, src + 16 * v)
                                                : _mm512_setzero_ps());
  }
}

void packedBlock(const PackedBlock &block) {
  const auto &[a, b, n, r0, r1, c, ldc, epilogue, inRegisters, k0, kc, bChunk,
               accumulate, last, rb0, rb1, copy, copyDepth] = block;
  const int64_t ldb = b.ldb, aPanelStride = kPanelRows * a.depth;
  for (int64_t j = 0; j < n; j += kTileCols) {
    const int64_t cols = std::min(kTileCols, n - j);
    const int64_t width = (cols + kPanelCols - 1) / kPanelCols * kPanelCols;
    // A short chunk stays in L1 where it lies, when the tile's whole
    // vectors are inside B's rows (a narrow B with rows padded to whole
    // vectors, as Winograd's V: its lanes past n are loaded, never stored).
    const bool inPlace =
        kc <= kInPlaceDepth && (cols == kTileCols || b.readableTo(j + width));
    TileOperands op{nullptr, aPanelStride, inPlace ? bChunk + j : copy,
                    inPlace ? ldb : width, kPanelCols};
    if (!inPlace)
      copyPanel(bChunk + j, ldb, kc, cols, width, copy);
    const int64_t step = tileRowsFor(rb1 - rb0, cols);
    // B read in place is an activation a layer wrote, out of cache by now
    // and its rows far apart: the next tile (the next columns, or the first
    // ones again for the next block of rows) is asked for while this one
    // computes.
    const int64_t nextJ = j + kTileCols < n ? j + kTileCols : 0;
    const float *next =
        inPlace && (nextJ > 0 || rb1 < r1) ? bChunk + nextJ : nullptr;
    const int64_t nextVectors = vectorsFor(std::min(kTileCols, n - nextJ));
    const int64_t tiles = (rb1 - rb0 + step - 1) / step;
    for (int64_t row0 = rb0, t = 0; row0 < rb1; row0 += step, ++t) {
      op.a = a.panel(row0 / kPanelRows) + k0 * kPanelRows;
      // The first columns' sweep reads this chunk of A from DRAM; later
      // sweeps find it in L2.
      op.prefetchA = j == 0 && row0 + step < rb1
                         ? a.panel((row0 + step) / kPanelRows) + k0 * kPanelRows
                         : nullptr;
      askForNextTile(op, next, nextVectors, tiles, t);
      const Finish finish =
          inRegisters ? Finish::forRows(*epilogue, row0) : Finish();
      tileProduct(kc, op, std::min(step, rb1 - row0), cols,
                  c + (row0 - r0) * ldc + j, ldc, accumulate,
                  inRegisters && last ? &finish : nullptr);
    }
  }
}

void panelsTile(const ColumnTile &tile, const float *aPanels, int64_t rows,
                float *c, int64_t ldc) {
  const auto &[b, c0, c1, k0, kc, j, bPanel, after] = tile;
  const int64_t k = b.depth;
  // B's 16-wide panels are zero-padded and kPanelCols * k apart.
  TileOperands op{nullptr, kPanelRows * k, bPanel, kPanelCols, kPanelCols * k};
  const int64_t cols = std::min(kTileCols, c1 - j);
  const int64_t step = tileRowsFor(rows, cols);
  // Weights read once per run come from DRAM: the next B tile (the next
  // columns, or the next chunk's first ones) is asked into L2 while this one
  // computes. Its vectors are spread over the row tiles, one each, or all
  // asked for by the first tile when there are fewer tiles.
  const int64_t nextVectors = vectorsFor(std::min(kTileCols, c1 - after.j));
  const int64_t tiles = (rows + step - 1) / step;
  for (int64_t row0 = 0, t = 0; row0 < rows; row0 += step, ++t) {
    op.a = aPanels + row0 * k + k0 * kPanelRows;
    askForNextTile(op, after.panel, nextVectors, tiles, t);
    tileProduct(kc, op, std::min(step, rows - row0), cols,
                c + row0 * ldc + (j - c0), ldc, k0 > 0);
  }
}

/// Tiles of one panel of rows at most, their sizes differing by one at most
/// (49 rows: 6 and 5, not eight of 6 and one of 1, whose one row waits on
/// its FMAs' latency). Blocked: C's 16-column vectors are blockStride apart
/// (NC1HWC0), whole, with `finish` on the last chunk.
template <bool Blocked>
void directTiles(const ColumnTile &tile, const DirectRows &a, int64_t rows,
                 float *c, int64_t ldc, int64_t blockStride,
                 const BlockedFinish *finish) {
  const auto &[b, c0, end, k0, kc, j, bPanel, after] = tile;
  const int64_t k = b.depth;
  const int64_t tiles = (rows + kPanelRows - 1) / kPanelRows;
  TileOperands op{a.base, 0, bPanel, kPanelCols, kPanelCols * k};
  op.depthOffsets = a.depthOffsets + k0;
  if (Blocked)
    op.cPanelStride = blockStride;
  const int64_t cols = std::min(kTileCols, end - j);
  const int64_t vectors = vectorsFor(cols);
  const __mmask16 lastMask =
      Blocked ? __mmask16(0xffff)
              : __mmask16((1u << (cols - (vectors - 1) * kPanelCols)) - 1);
  // The next B tile streams in while this one computes (panelsTile).
  const int64_t nextVectors = vectorsFor(std::min(kTileCols, end - after.j));
  const Finish tileFinish =
      Blocked ? Finish::forColumns(*finish, j - c0) : Finish();
  const bool last = k0 + kc == k;
  float *out = Blocked ? c + (j - c0) / kPanelCols * blockStride : c + (j - c0);
  for (int64_t t = 0; t < tiles; ++t) {
    const int64_t row0 = rows * t / tiles, row1 = rows * (t + 1) / tiles;
    op.rowOffsets = a.rowOffsets + row0;
    askForNextTile(op, after.panel, nextVectors, tiles, t);
    kDirectKernels[vectors - 1][row1 - row0 - 1](
        kc, op, out + row0 * ldc, ldc, lastMask, k0 > 0,
        Blocked && last ? &tileFinish : nullptr);
  }
}

void directTile(const ColumnTile &tile, const DirectRows &a, int64_t rows,
                float *c, int64_t ldc) {
  directTiles<false>(tile, a, rows, c, ldc, 0, nullptr);
}

void blockedTile(const ColumnTile &tile, const DirectRows &a, int64_t rows,
                 float *y, int64_t blockStride, const BlockedFinish &finish) {
  directTiles<true>(tile, a, rows, y, kPanelCols, blockStride, &finish);
}

} // namespace

#include "executor/kernels/isa/NnPackedGemmBody.inc"

} // namespace geflow::kernels::nn::avx512
