//===- NnPackedGemm.h - GEMM on weights packed once at load -----*- C++ -*-===//
//
// Conv's weights are the same for every run, yet Eigen's GEMM re-packs them
// on every call, once per column tile. A PackedRows holds them in the order
// the AVX2 + FMA micro-kernel reads them (panels of kPanelRows rows,
// k-major inside a panel), built when the kernel is created; the columns
// operand is read where it lies (im2col's tile, or X itself for a 1x1 conv),
// so a run packs nothing. For small maps the roles turn: the weights are
// the columns operand, packed once as W^T (PackedCols), and the conv packs
// its positions into row panels per run (gemmPanels). Only for CPUs with
// AVX2 + FMA (cpu::activeIsa()); elsewhere kernels keep nn::gemm.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_GEMM_NNPACKEDGEMM_H
#define GEFLOW_EXECUTOR_KERNELS_GEMM_NNPACKEDGEMM_H

#include "executor/kernels/gemm/PanelStorage.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace geflow::kernels::nn {

/// Rows of A per micro-kernel panel; columns of C per micro-kernel call.
inline constexpr int64_t kPanelRows = 6;
inline constexpr int64_t kPanelCols = 16;

/// A row-major [rows x depth] matrix in panels of kPanelRows rows; inside a
/// panel, for each k, the panel's rows' values at k (rows past the end are
/// zero).
struct PackedRows {
  int64_t rows = 0, depth = 0;
  PanelStorage data;

  int64_t panels() const { return (rows + kPanelRows - 1) / kPanelRows; }
  const float *panel(int64_t p) const {
    return data.data() + p * kPanelRows * depth;
  }
};

/// Packs rows [0, rows) of `a` (leading dimension lda, depth columns).
PackedRows packRows(const float *a, int64_t rows, int64_t depth, int64_t lda);

/// A [depth x cols] B operand in panels of kPanelCols columns; inside a
/// panel, for each k, the panel's columns' values at k (columns past the end
/// are zero): the micro-kernel reads it as it lies, nothing copied per run.
struct PackedCols {
  int64_t cols = 0, depth = 0;
  PanelStorage data;

  int64_t panels() const { return (cols + kPanelCols - 1) / kPanelCols; }
  const float *panel(int64_t p) const {
    return data.data() + p * kPanelCols * depth;
  }
};

/// Where a sweep of `b`'s panels over columns [c0, c1), `width` columns at
/// a time, goes after columns [j, j + width) of the depth chunk at k0 (kc
/// deep): the next columns, or the next chunk's first ones. `panel` is
/// that tile's first panel at its chunk (null after the last chunk): the
/// GEMMs ask for it while the current tile computes.
struct NextTile {
  const float *panel;
  int64_t j;
};
inline NextTile nextTile(const PackedCols &b, int64_t j, int64_t width,
                         int64_t c0, int64_t c1, int64_t k0, int64_t kc) {
  const int64_t nextJ = j + width < c1 ? j + width : c0;
  const int64_t nextK0 = nextJ == c0 ? k0 + kc : k0;
  return {nextK0 < b.depth ? b.panel(nextJ / kPanelCols) + nextK0 * kPanelCols
                           : nullptr,
          nextJ};
}

/// B = W^T packed, for W [cols x depth] row-major (leading dimension ldw):
/// a conv's weights as the columns of a GEMM whose rows are output
/// positions.
PackedCols packTransposedRows(const float *w, int64_t cols, int64_t depth,
                              int64_t ldw);

/// B [depth x cols] row-major (leading dimension ldb) packed in kPanelCols
/// panels: a linear layer's constant weights as the columns operand of
/// gemmPanels, packed once at load.
PackedCols packCols(const float *b, int64_t depth, int64_t cols, int64_t ldb);

/// Rows [0, rows) of `a` (leading dimension lda, depth columns) into `dst`
/// as A panels for gemmPanels (rowPanelFloats(rows, depth) floats; rows
/// past the end are zero): an activation operand packed per run.
void packRowsInto(const float *a, int64_t rows, int64_t depth, int64_t lda,
                  float *dst);

/// Floats packColumnsAsRows writes for `n` columns of depth `depth`.
inline int64_t rowPanelFloats(int64_t n, int64_t depth) {
  return (n + kPanelRows - 1) / kPanelRows * kPanelRows * depth;
}
/// The transpose of `b` [depth x n] (leading dimension ldb) into `dst` as
/// A panels: panel i, at dst + i * panelStride, holds columns 6i..6i+5 of b,
/// k-major (past n, zeros). A panelStride above 6 * depth packs b as a slice
/// of the depth of wider panels.
void packColumnsAsRows(const float *b, int64_t ldb, int64_t depth, int64_t n,
                       float *dst, int64_t panelStride);

/// True when this build and CPU run gemmPacked (AVX2 + FMA, and nn::gemm is
/// not forced to the baseline).
bool packedGemmAvailable();

/// Called on each finished row of C (`row` counts from A's row 0; `data` holds
/// its n values) while the row is still in cache: a fused epilogue. Without
/// `apply`, the micro-kernel itself adds bias[row] (when bias is not null)
/// and the residual (when `residual`), then clamps to [lo, hi], as it stores
/// the last chunk of depth: a conv's bias, residual Z and relu or clip with
/// no pass over C after the GEMM.
struct RowEpilogue {
  void (*apply)(const void *context, int64_t row, float *data,
                int64_t n) = nullptr;
  const void *context = nullptr;
  const float *bias = nullptr;
  /// C's element at p has its residual at p + residualOffset (Z laid out as
  /// C, as fused_conv's Z is as Y).
  bool residual = false;
  int64_t residualOffset = 0;
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
};

/// Where the rows of B are: row k is at base + groupOffsets[k / groupDepth]
/// + (k % groupDepth) * ldb. Without groupOffsets, B is plain row-major
/// (row k at base + k * ldb). Groups let B be shifted views of one matrix
/// (a conv's taps over its padded input) instead of copies.
struct BRows {
  const float *base = nullptr;
  int64_t ldb = 0;
  int64_t groupDepth = 0;
  const int64_t *groupOffsets = nullptr;
  /// Columns of each row that may be read (0: only the n used). A B whose
  /// rows are padded to whole vectors (readable >= n rounded up to 16) is
  /// read where it lies even in narrow tiles; the padding's lanes are
  /// loaded, never stored.
  int64_t readable = 0;
  /// The rows [firstRow, endRow) that take part, and A's depth they meet;
  /// the others count as zero (endRow 0: to A's depth). A 3-D Winograd
  /// conv's output slices at the volume's faces meet fewer input slices.
  int64_t firstRow = 0, endRow = 0;

  /// True when every row may be read up to column `end`.
  bool readableTo(int64_t end) const { return end <= readable; }
};

/// C[rows r0..r1 of A x n] = A[r0..r1) * B, B [A.depth x n], C with leading
/// dimension ldc (row r0 of A lands in C's first row), then `epilogue` (may
/// be null) on each row. r0 must be a multiple of kPanelRows. C's previous
/// contents are ignored.
void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                const BRows &b, float *c, int64_t ldc,
                const RowEpilogue *epilogue = nullptr);
/// An A operand read where it lies rather than packed: row r's value at
/// depth k is base[rowOffsets[r] + depthOffsets[k]]. A conv's output
/// positions (r) and (input channel, tap) pairs (k) over its padded input:
/// the GEMM of positionRows with no panels gathered per run.
struct DirectRows {
  const float *base = nullptr;
  const int32_t *rowOffsets = nullptr;
  const int32_t *depthOffsets = nullptr; // b.depth of them
};

/// gemmPanels with A direct. Only where packedGemmAvailable().
void gemmDirect(const DirectRows &a, int64_t rows, const PackedCols &b,
                int64_t c0, int64_t c1, float *c, int64_t ldc);

/// What gemmDirectBlocked adds and clamps as it stores the last chunk of
/// depth: bias of C's columns from c0 (whole blocks of 16, zero past the
/// channels; or null), the residual at the same place + residualOffset.
struct BlockedFinish {
  const float *bias = nullptr;
  bool residual = false;
  int64_t residualOffset = 0;
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
};

/// gemmDirect into NC1HWC0: C's column c0 + j of row r lands at y + j / 16
/// * blockStride + r * 16 + j % 16 (c0 a multiple of 16), whole blocks to
/// c1 rounded up (B's zero columns past its end make those lanes 0 + bias),
/// then `finish` on the last chunk of depth. Only where
/// packedGemmAvailable().
void gemmDirectBlocked(const DirectRows &a, int64_t rows, const PackedCols &b,
                       int64_t c0, int64_t c1, float *y, int64_t blockStride,
                       const BlockedFinish &finish);

/// C[rows x (c1 - c0)] = A * B[:, c0:c1), A as `rows` rows of A panels
/// (packColumnsAsRows, depth b.depth), C with leading dimension ldc. c0 must
/// be a multiple of kPanelCols. C's previous contents are ignored.
void gemmPanels(const float *aPanels, int64_t rows, const PackedCols &b,
                int64_t c0, int64_t c1, float *c, int64_t ldc);

/// The same for a plain row-major B with leading dimension ldb.
inline void gemmPacked(const PackedRows &a, int64_t r0, int64_t r1, int64_t n,
                       const float *b, int64_t ldb, float *c, int64_t ldc,
                       const RowEpilogue *epilogue = nullptr) {
  gemmPacked(a, r0, r1, n, BRows{b, ldb}, c, ldc, epilogue);
}

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_GEMM_NNPACKEDGEMM_H
