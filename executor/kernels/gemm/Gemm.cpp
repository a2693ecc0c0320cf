//===- Gemm.cpp - gemm and matmul: packed weights, else Eigen's GEMM ------===//
//
// Both ops are cube work (AIC). Block split: tiles of the output (times the
// batch for matmul): row tiles, and column tiles too when there are too few
// rows to keep the cores busy (a batch-1 fully connected layer). A block owns a
// contiguous run of tiles; whole-row tiles in a run become one GEMM. On the
// packed path the host folds the blocks into one share per host thread
// instead (hostOutputShare). Cost: 2*M*N*K FLOPs per batch entry; bytes are
// the operands plus the output.
//
// A linear layer's weights are constant: on CPUs with the packed GEMM
// (NnPackedGemm.h) the kernel packs B (or B^T) into column panels once at
// creation, and a run packs only the activation rows of its tile into
// per-thread scratch (Eigen would re-pack the weights on every call, which
// was as costly as the multiply). Column tiles start at multiples of
// kPanelCols so each maps onto one gemmPanels call. Other B, and CPUs below
// AVX2, keep nn::gemm.
//
// fused_gemm and fused_matmul add their bias and activation to each output
// row right after its GEMM, while it is in cache.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/Core>

#include <algorithm>
#include <memory>

using namespace geflow;
using namespace geflow::kernels;

namespace {

/// Two micro-kernel row panels: a row tile packs into whole panels.
constexpr int64_t kRowTile = 2 * nn::kPanelRows;
/// Rows one packed GEMM call takes at most: their panels of one depth chunk
/// stay in L2 while every column panel of B sweeps them, and a transformer's
/// 196 or 197 tokens are one call, which streams B once.
constexpr int64_t kPackRows = 33 * nn::kPanelRows;
/// Work items a GEMM aims for before it splits columns too.
constexpr int64_t kTargetTiles = 32;
constexpr int64_t kMinColTile = 64;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Where B stays while a GEMM runs decides its tiles. Up to this size it
/// stays in L2: reading it again per row tile is free, packing A's rows
/// again per column tile is not, so few rows make one-panel tiles of full
/// width rather than column tiles.
constexpr int64_t kCachedWeightBytes = 1 << 20;
/// B of more bytes than this is streamed from L3 or memory again by every
/// row tile (measured on Zen 5: a 768x3072 weight ran at 83 GFLOP/s in
/// 12-row tiles, 133 in the tiles below; a 768x768 one ran as fast either
/// way).
constexpr int64_t kStreamedWeightBytes = 4 << 20;

int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// The output tiling of `batch` products of M x N (depth K): rowTile rows by
/// colTile columns, items ordered (batch, row tile, column tile). Many rows:
/// tiles of kRowTile whole rows. Few rows (a transformer's 128 or 197
/// tokens, a batch-1 fully connected layer): one-panel row tiles when B
/// stays in L2, and columns split too when that still leaves too few tiles
/// (shapeForStreamedB when B is streamed).
struct Tiling {
  int64_t rowTile = kRowTile, rowTiles = 1, colTile = 1, colTiles = 1;

  Tiling(int64_t batch, int64_t m, int64_t n, int64_t k) {
    const int64_t bBytes = 4 * k * n;
    if (bBytes <= kCachedWeightBytes &&
        batch * ceilDiv(m, rowTile) < kTargetTiles)
      rowTile = nn::kPanelRows;
    rowTiles = ceilDiv(m, rowTile);
    colTile = std::max<int64_t>(n, 1);
    const int64_t base = batch * rowTiles;
    const int64_t enough =
        bBytes <= kCachedWeightBytes ? kTargetTiles / 2 : kTargetTiles;
    if (base < enough && n >= 2 * kMinColTile) {
      if (bBytes > kStreamedWeightBytes) {
        shapeForStreamedB(batch, m, n);
      } else {
        int64_t want = std::min(
            ceilDiv(kTargetTiles, std::max<int64_t>(base, 1)), n / kMinColTile);
        colTile = roundUp(ceilDiv(n, want), nn::kPanelCols);
      }
    }
    colTiles = ceilDiv(std::max<int64_t>(n, 1), colTile);
  }
  int64_t perBatch() const { return rowTiles * colTiles; }

private:
  /// Tiles for a large B: each row tile streams B's panels again (N floats
  /// per depth), each column tile packs its rows again (M per depth, a pack
  /// costing about two streamed floats); the least of both over balanced
  /// row tiles of whole panels, at most one pack's rows.
  void shapeForStreamedB(int64_t batch, int64_t m, int64_t n) {
    double best = -1;
    for (int64_t r = 1; r <= ceilDiv(m, nn::kPanelRows); ++r) {
      const int64_t rt = roundUp(ceilDiv(m, r), nn::kPanelRows);
      if (rt > kPackRows || ceilDiv(m, rt) != r)
        continue;
      const int64_t want = std::max<int64_t>(
          1, std::min(ceilDiv(kTargetTiles, batch * r), n / kMinColTile));
      const int64_t ct = roundUp(ceilDiv(n, want), nn::kPanelCols);
      const double cost = 2.0 * ceilDiv(n, ct) * m + static_cast<double>(r) * n;
      if (best < 0 || cost < best) {
        best = cost;
        rowTile = rt;
        colTile = ct;
      }
    }
    rowTiles = ceilDiv(m, rowTile);
  }
};

/// Calls fn(batch, r0, r1, c0, c1) for the output tiles of items [begin, end),
/// merging runs of whole-row tiles of one batch entry into one call.
template <typename Fn>
void forEachTile(const Tiling &t, int64_t m, int64_t n, BlockRange items,
                 Fn fn) {
  int64_t per = t.perBatch();
  for (int64_t i = items.begin; i < items.end;) {
    int64_t batch = i / per, local = i % per;
    int64_t row = local / t.colTiles, col = local % t.colTiles;
    if (t.colTiles == 1) {
      int64_t last = std::min(items.end, (batch + 1) * per);
      fn(batch, row * t.rowTile, std::min(m, (last - batch * per) * t.rowTile),
         int64_t(0), n);
      i = last;
    } else {
      fn(batch, row * t.rowTile, std::min(m, (row + 1) * t.rowTile),
         col * t.colTile, std::min(n, (col + 1) * t.colTile));
      ++i;
    }
  }
}

//===----------------------------------------------------------------------===//
// The packed path: B packed at creation, op(A)'s rows packed per tile.
//===----------------------------------------------------------------------===//

/// B [k x n] as column panels when it is a constant and the CPU runs the
/// packed GEMM, else null. `transposed`: the constant is B^T [n x k].
/// `alpha` is folded into the panels.
std::shared_ptr<const nn::PackedCols> packWeights(const void *constant,
                                                  bool transposed, int64_t k,
                                                  int64_t n, float alpha) {
  if (!constant || k == 0 || n == 0 || !nn::packedGemmAvailable())
    return nullptr;
  const auto *b = static_cast<const float *>(constant);
  auto packed = std::make_shared<nn::PackedCols>(
      transposed ? nn::packTransposedRows(b, n, k, k)
                 : nn::packCols(b, k, n, n));
  if (alpha != 1.0f)
    for (float &v : packed->data)
      v *= alpha;
  return packed;
}

/// op(A)'s rows packed as A panels in this thread's scratch. Consecutive
/// column tiles of one row range (a block's run) pack it once.
class RowPanels {
public:
  /// Rows [0, rows) of op(A) starting at `a`: row-major with leading
  /// dimension `ld`, or, when `transposed`, columns of a [k x ld] matrix.
  const float *pack(const float *a, int64_t ld, bool transposed, int64_t rows,
                    int64_t k) {
    if (a == src_ && rows == rows_)
      return panels_;
    panels_ = nn::scratch(nn::rowPanelFloats(rows, k));
    if (transposed)
      nn::packColumnsAsRows(a, ld, k, rows, panels_, nn::kPanelRows * k);
    else
      nn::packRowsInto(a, rows, k, ld, panels_);
    src_ = a;
    rows_ = rows;
    return panels_;
  }

private:
  const float *src_ = nullptr;
  int64_t rows_ = 0;
  float *panels_ = nullptr;
};

/// Y[r0..r1, c0..c1) = op(A)[r0..r1) * B[:, c0..c1) against packed B, then
/// finish(i, row) on each row i (row = Y's row i from column c0) while it is
/// in cache. op(A) row i is at a + i * lda, or column i at a + i when
/// `transA`.
template <class FinishRow>
void multiplyPacked(const nn::PackedCols &b, RowPanels &panels, const float *a,
                    int64_t lda, bool transA, int64_t r0, int64_t r1,
                    int64_t c0, int64_t c1, float *y, int64_t ldy,
                    FinishRow finish) {
  // Calls of as even a number of rows as whole panels allow: each streams
  // B's columns again.
  const int64_t calls = ceilDiv(r1 - r0, kPackRows);
  const int64_t step = roundUp(ceilDiv(r1 - r0, calls), nn::kPanelRows);
  for (int64_t p0 = r0; p0 < r1; p0 += step) {
    const int64_t p1 = std::min(r1, p0 + step);
    const float *ap = panels.pack(transA ? a + p0 : a + p0 * lda, lda, transA,
                                  p1 - p0, b.depth);
    nn::gemmPanels(ap, p1 - p0, b, c0, c1, y + p0 * ldy + c0, ldy);
    for (int64_t i = p0; i < p1; ++i)
      finish(i, y + i * ldy + c0);
  }
}

/// The part [r0, r1) x [c0, c1) of a packed GEMM's M x N output that block
/// `blockIdx` computes, its blocks folded into one group per host thread
/// (hostGroup; none for the other blocks of a group). The plan's tiles are
/// the simulated cores' (12 rows, columns split when rows are few); a host
/// thread running them one by one streamed B's columns from L3 again per
/// tile (ConvNeXt's 196 x 1536 -> 384 layers: 162 GFLOP/s, against 199 as
/// one GEMM). A group takes whole column panels of every row when there are
/// more columns than rows (each group streams its part of B once), else
/// whole row panels of every column.
struct OutputShare {
  int64_t r0 = 0, r1 = 0, c0 = 0, c1 = 0;
  bool empty() const { return r0 >= r1 || c0 >= c1; }
};
OutputShare hostOutputShare(int64_t m, int64_t n, uint32_t blockIdx,
                            uint32_t blockDim) {
  const HostGroup group = hostGroup(blockIdx, blockDim);
  if (!group.active)
    return {};
  auto part = [&](int64_t size, int64_t panel, int64_t *begin, int64_t *end) {
    const int64_t panels = ceilDiv(size, panel);
    *begin = std::min(size, panels * group.index / group.count * panel);
    *end = std::min(size, panels * (group.index + 1) / group.count * panel);
  };
  OutputShare share{0, m, 0, n};
  if (n > m)
    part(n, nn::kPanelCols, &share.c0, &share.c1);
  else
    part(m, nn::kPanelRows, &share.r0, &share.r1);
  return share;
}

//===----------------------------------------------------------------------===//
// gemm: Y = alpha * op(A) * op(B) + beta * C, C unidirectionally broadcast.
//===----------------------------------------------------------------------===//

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
  bool transA = false, transB = false;
  float alpha = 1, beta = 1;
  bool hasC = false;
  int64_t cRowStride = 0, cColStride = 0; // element (i, j) of C is at i*r + j*c
  int64_t bytes = 0;
  nn::Activation act; // fused_gemm's; none for gemm
};

rt::Status analyzeGemm(const om::OpDef &op, GemmShape *s) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() < 2)
    return opError(op, "needs inputs A and B");
  std::vector<int64_t> a = shapeOf(op.input_desc(0));
  std::vector<int64_t> b = shapeOf(op.input_desc(1));
  if (a.size() != 2 || b.size() != 2)
    return opError(op, "A and B must be 2-D");
  GEFLOW_RT_RETURN_IF_ERROR(nn::parseActivation(op, &s->act));
  s->transA = attrInt(op, "transA", 0) != 0;
  s->transB = attrInt(op, "transB", 0) != 0;
  s->alpha = attrFloat(op, "alpha", 1.0f);
  s->beta = attrFloat(op, "beta", 1.0f);
  s->m = s->transA ? a[1] : a[0];
  s->k = s->transA ? a[0] : a[1];
  int64_t kb = s->transB ? b[1] : b[0];
  s->n = s->transB ? b[0] : b[1];
  if (kb != s->k)
    return opError(op, "inner dimensions differ (" + std::to_string(s->k) +
                           " vs " + std::to_string(kb) + ")");
  std::vector<int64_t> y = shapeOf(op.output_desc(0));
  if (y.size() != 2 || y[0] != s->m || y[1] != s->n)
    return opError(op, "output shape does not match [M, N]");
  s->hasC = nn::hasInput(op, 2);
  int64_t cElems = 0;
  if (s->hasC) {
    std::vector<int64_t> c = shapeOf(op.input_desc(2));
    if (c.size() > 2)
      return opError(op, "C must have rank <= 2");
    c.insert(c.begin(), 2 - c.size(), 1);
    if ((c[0] != 1 && c[0] != s->m) || (c[1] != 1 && c[1] != s->n))
      return opError(op, "C does not broadcast to [M, N]");
    s->cRowStride = c[0] == 1 ? 0 : c[1];
    s->cColStride = c[1] == 1 ? 0 : 1;
    cElems = c[0] * c[1];
  }
  s->bytes = 4 * (s->m * s->k + s->k * s->n + cElems + s->m * s->n);
  return rt::Status::ok();
}

rt::Status planGemm(const om::OpDef &op, KernelPlan *out) {
  GemmShape s;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeGemm(op, &s));
  Tiling t(1, s.m, s.n, s.k);
  out->engine = rt::Engine::kAic;
  out->maxBlocks = nn::blocksForFlops(
      t.perBatch(), 2.0 * std::min(s.m, t.rowTile) * t.colTile * s.k);
  out->cost.flops = 2.0 * s.m * s.n * s.k + (s.hasC ? 2.0 * s.m * s.n : 0.0);
  out->cost.bytes = static_cast<double>(s.bytes);
  return rt::Status::ok();
}

class GemmKernel final : public Kernel {
public:
  /// `weights`: B's bytes when B is a constant, else null.
  GemmKernel(const GemmShape &s, const void *weights)
      : s_(s), t_(1, s.m, s.n, s.k),
        packed_(packWeights(weights, s.transB, s.k, s.n, s.alpha)) {}

  bool readsConstantAtRun(int input) const override {
    return input != 1 || !packed_;
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *a = static_cast<const float *>(inputs[0].data);
    const float *b = static_cast<const float *>(inputs[1].data);
    const float *c = s_.hasC && s_.beta != 0.0f
                         ? static_cast<const float *>(inputs[2].data)
                         : nullptr;
    float *y = static_cast<float *>(outputs[0].data);
    if (packed_ && nn::packedGemmAvailable()) {
      const OutputShare share = hostOutputShare(s_.m, s_.n, blockIdx, blockDim);
      if (share.empty())
        return rt::Status::ok();
      RowPanels panels;
      multiplyPacked(
          *packed_, panels, a, s_.transA ? s_.m : s_.k, s_.transA, share.r0,
          share.r1, share.c0, share.c1, y, s_.n, [&](int64_t i, float *row) {
            if (c)
              for (int64_t j = share.c0; j < share.c1; ++j)
                row[j - share.c0] +=
                    s_.beta * c[i * s_.cRowStride + j * s_.cColStride];
            nn::applyActivation(s_.act, row, share.c1 - share.c0);
          });
      return rt::Status::ok();
    }
    BlockRange items = blockRange(t_.perBatch(), blockIdx, blockDim);
    forEachTile(t_, s_.m, s_.n, items,
                [&](int64_t, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
                  if (r0 >= r1 || c0 >= c1)
                    return;
                  if (c) {
                    // Y starts as broadcast C; the GEMM then scales it by beta
                    // and adds.
                    for (int64_t i = r0; i < r1; ++i)
                      for (int64_t j = c0; j < c1; ++j)
                        y[i * s_.n + j] =
                            c[i * s_.cRowStride + j * s_.cColStride];
                  }
                  const float *aRows = s_.transA ? a + r0 : a + r0 * s_.k;
                  const float *bCols = s_.transB ? b + c0 * s_.k : b + c0;
                  nn::gemm(s_.transA, s_.transB, r1 - r0, c1 - c0, s_.k,
                           s_.alpha, aRows, s_.transA ? s_.m : s_.k, bCols,
                           s_.transB ? s_.k : s_.n, c ? s_.beta : 0.0f,
                           y + r0 * s_.n + c0, s_.n);
                  if (s_.act.kind != nn::Activation::kNone)
                    for (int64_t i = r0; i < r1; ++i)
                      nn::applyActivation(s_.act, y + i * s_.n + c0, c1 - c0);
                });
    return rt::Status::ok();
  }

private:
  const GemmShape s_;
  const Tiling t_;
  /// B packed at creation (shared by every execution and thread), or null.
  const std::shared_ptr<const nn::PackedCols> packed_;
};

rt::Status createGemm(const KernelSpec &spec, std::unique_ptr<Kernel> *out) {
  GemmShape s;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeGemm(*spec.op, &s));
  *out = std::make_unique<GemmKernel>(s, vec::constantInput(spec, 1));
  return rt::Status::ok();
}

//===----------------------------------------------------------------------===//
// matmul: numpy semantics. A 1-D A is [1, K] and a 1-D B is [K, 1], the added
// dim dropped from the result; batch dims broadcast. When B has no batch and A
// is not broadcast, A's batch folds into M (one tall GEMM).
//===----------------------------------------------------------------------===//

struct MatMulShape {
  int64_t m = 0, n = 0, k = 0;
  int64_t batch = 1;
  std::vector<int64_t> aOffset, bOffset; // per batch entry, in elements
  int64_t bytes = 0;
  // fused_matmul: bias element (batch, i, j) is at biasOffset[batch] +
  // i*biasRowStride + j*biasColStride.
  bool hasBias = false;
  std::vector<int64_t> biasOffset;
  int64_t biasRowStride = 0, biasColStride = 0;
  nn::Activation act;
};

/// fused_matmul's bias, broadcast to Y = [batch dims..., M?, N?] (M or N
/// absent for a 1-D operand): per-batch offsets and row/column strides over
/// the full [batch dims..., M, N].
rt::Status analyzeMatMulBias(const om::OpDef &op,
                             const std::vector<int64_t> &ob, bool aVector,
                             bool bVector, MatMulShape *s) {
  std::vector<int64_t> bias = shapeOf(op.input_desc(2));
  std::vector<int64_t> y = shapeOf(op.output_desc(0));
  if (bias.size() > y.size())
    return opError(op, "bias has more dims than Y");
  bias.insert(bias.begin(), y.size() - bias.size(), 1);
  for (size_t i = 0; i < y.size(); ++i)
    if (bias[i] != 1 && bias[i] != y[i])
      return opError(op, "bias does not broadcast to Y");
  if (aVector)
    bias.insert(bias.begin() + ob.size(), 1);
  if (bVector)
    bias.push_back(1);
  size_t rank = bias.size();
  std::vector<int64_t> stride(rank, 0);
  for (int64_t i = rank, acc = 1; i-- > 0;) {
    stride[i] = bias[i] == 1 ? 0 : acc;
    acc *= bias[i];
  }
  s->biasRowStride = stride[rank - 2];
  s->biasColStride = stride[rank - 1];
  int64_t batch = 1;
  for (int64_t d : ob)
    batch *= d;
  s->biasOffset.assign(batch, 0);
  for (int64_t idx = 0; idx < batch; ++idx) {
    int64_t rest = idx, off = 0;
    for (size_t i = ob.size(); i-- > 0;) {
      off += (rest % ob[i]) * stride[i];
      rest /= ob[i];
    }
    s->biasOffset[idx] = off;
  }
  s->hasBias = true;
  s->bytes += 4 * numElements(op.input_desc(2));
  return rt::Status::ok();
}

rt::Status analyzeMatMul(const om::OpDef &op, MatMulShape *s) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  GEFLOW_RT_RETURN_IF_ERROR(nn::parseActivation(op, &s->act));
  bool fused = op.type() == "fused_matmul";
  if (op.input_desc_size() != 2 && !(fused && op.input_desc_size() == 3))
    return opError(op, "needs inputs A and B");
  std::vector<int64_t> a = shapeOf(op.input_desc(0));
  std::vector<int64_t> b = shapeOf(op.input_desc(1));
  if (a.empty() || b.empty())
    return opError(op, "operands must have rank >= 1");
  bool aVector = a.size() == 1, bVector = b.size() == 1;
  if (a.size() == 1)
    a.insert(a.begin(), 1);
  if (b.size() == 1)
    b.push_back(1);
  nn::MatMulBatch mb;
  GEFLOW_RT_RETURN_IF_ERROR(nn::analyzeMatMulBatch(op, a, b, &mb));
  s->m = mb.m;
  s->k = mb.k;
  s->n = mb.n;
  const std::vector<int64_t> &ob = mb.outDims;
  int64_t batch = mb.batch, aBatch = mb.aBatch, bBatch = mb.bBatch;
  s->bytes =
      4 * (aBatch * s->m * s->k + bBatch * s->k * s->n + batch * s->m * s->n);
  if (nn::hasInput(op, 2))
    GEFLOW_RT_RETURN_IF_ERROR(analyzeMatMulBias(op, ob, aVector, bVector, s));
  bool biasFolds =
      !s->hasBias || (s->biasRowStride == 0 &&
                      std::all_of(s->biasOffset.begin(), s->biasOffset.end(),
                                  [](int64_t o) { return o == 0; }));
  if (bBatch == 1 && aBatch == batch && biasFolds) {
    s->m *= batch;
    s->batch = 1;
    s->aOffset = {0};
    s->bOffset = {0};
    if (s->hasBias)
      s->biasOffset = {0};
    return rt::Status::ok();
  }
  s->batch = batch;
  s->aOffset = std::move(mb.aOffset);
  s->bOffset = std::move(mb.bOffset);
  return rt::Status::ok();
}

rt::Status planMatMul(const om::OpDef &op, KernelPlan *out) {
  MatMulShape s;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeMatMul(op, &s));
  Tiling t(s.batch, s.m, s.n, s.k);
  out->engine = rt::Engine::kAic;
  out->maxBlocks = nn::blocksForFlops(
      s.batch * t.perBatch(), 2.0 * std::min(s.m, t.rowTile) * t.colTile * s.k);
  out->cost.flops = 2.0 * s.batch * s.m * s.n * s.k;
  out->cost.bytes = static_cast<double>(s.bytes);
  return rt::Status::ok();
}

class MatMulKernel final : public Kernel {
public:
  /// `weights`: B's bytes when B is a constant, else null. Packed only when
  /// every batch entry reads the same B.
  MatMulKernel(MatMulShape s, const void *weights)
      : s_(std::move(s)), t_(s_.batch, s_.m, s_.n, s_.k),
        packed_(std::all_of(s_.bOffset.begin(), s_.bOffset.end(),
                            [](int64_t o) { return o == 0; })
                    ? packWeights(weights, false, s_.k, s_.n, 1.0f)
                    : nullptr) {}

  bool readsConstantAtRun(int input) const override {
    return input != 1 || !packed_;
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *a = static_cast<const float *>(inputs[0].data);
    const float *b = static_cast<const float *>(inputs[1].data);
    const float *bias =
        s_.hasBias ? static_cast<const float *>(inputs[2].data) : nullptr;
    float *y = static_cast<float *>(outputs[0].data);
    if (s_.m == 0)
      return rt::Status::ok();
    const bool packed = packed_ && nn::packedGemmAvailable();
    // Bias and activation on row i of batch entry `batch`, columns [c0, c1).
    auto finishFor = [&](int64_t batch, int64_t c0, int64_t c1) {
      return [&, batch, c0, c1](int64_t i, float *row) {
        if (bias) {
          const float *brow =
              bias + s_.biasOffset[batch] + i * s_.biasRowStride;
          Eigen::Map<Eigen::ArrayXf> out(row, c1 - c0);
          if (s_.biasColStride)
            out += Eigen::Map<const Eigen::ArrayXf>(brow + c0, c1 - c0);
          else
            out += *brow;
        }
        nn::applyActivation(s_.act, row, c1 - c0);
      };
    };
    RowPanels panels;
    if (packed && s_.batch == 1) {
      const OutputShare share = hostOutputShare(s_.m, s_.n, blockIdx, blockDim);
      if (!share.empty())
        multiplyPacked(*packed_, panels, a + s_.aOffset[0], s_.k, false,
                       share.r0, share.r1, share.c0, share.c1, y, s_.n,
                       finishFor(0, share.c0, share.c1));
      return rt::Status::ok();
    }
    BlockRange items = blockRange(s_.batch * t_.perBatch(), blockIdx, blockDim);
    forEachTile(
        t_, s_.m, s_.n, items,
        [&](int64_t batch, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
          if (r0 >= r1 || c0 >= c1)
            return;
          float *yb = y + batch * s_.m * s_.n;
          auto finish = finishFor(batch, c0, c1);
          const float *ab = a + s_.aOffset[batch];
          if (packed) {
            multiplyPacked(*packed_, panels, ab, s_.k, false, r0, r1, c0, c1,
                           yb, s_.n, finish);
            return;
          }
          nn::gemm(false, false, r1 - r0, c1 - c0, s_.k, 1.0f, ab + r0 * s_.k,
                   s_.k, b + s_.bOffset[batch] + c0, s_.n, 0.0f,
                   yb + r0 * s_.n + c0, s_.n);
          if (bias || s_.act.kind != nn::Activation::kNone)
            for (int64_t i = r0; i < r1; ++i)
              finish(i, yb + i * s_.n + c0);
        });
    return rt::Status::ok();
  }

private:
  const MatMulShape s_;
  const Tiling t_;
  /// B packed at creation (shared by every execution and thread), or null.
  const std::shared_ptr<const nn::PackedCols> packed_;
};

rt::Status createMatMul(const KernelSpec &spec, std::unique_ptr<Kernel> *out) {
  MatMulShape s;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeMatMul(*spec.op, &s));
  const void *weights = vec::constantInput(spec, 1);
  *out = std::make_unique<MatMulKernel>(std::move(s), weights);
  return rt::Status::ok();
}

} // namespace

void geflow::kernels::registerGemmKernels(KernelRegistry &registry) {
  registry.add("gemm", {planGemm, createGemm});
  registry.add("matmul", {planMatMul, createMatMul});
  registry.add("fused_gemm", {planGemm, createGemm});
  registry.add("fused_matmul", {planMatMul, createMatMul});
}
