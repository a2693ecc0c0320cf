//===- Attention.cpp - softmax(scale Q K^T + mask) V by row blocks -------===//
//
// fused_attention (ir/GeFusedOps.td): Q [..., Sq, Dh], K [..., Sk, Dh] (or
// K^T [..., Dh, Sk] with k_transposed = 1), V [..., Sk, Dv], optional mask
// broadcast to the scores [..., Sq, Sk]; Y [..., Sq, Dv], stored transposed
// by `y_perm` when the op has one (a head merge it absorbed).
//
// Engine MIX: the two products are cube work, the softmax vector work, and
// the scores pass between them inside one block, as on an NPU's mixed core.
// Block split: (batch, block of query rows) items. A block computes its rows'
// scores into a per-thread buffer of about kScoreBlock floats (one GEMM),
// adds the mask, takes the softmax of each row and multiplies by V (a second
// GEMM), so the score tensor never reaches memory. On CPUs with the packed
// GEMM (NnPackedGemm.h) both products run on its micro-kernel: K^T and V of a
// batch entry are packed into column panels once per block that meets them
// (K read row by row as K^T's columns: no transposed copy), Q and the
// probabilities into row panels, all in per-thread buffers reused across
// runs; the softmax is vmath's vector exp.
// Cost: 2·Sq·Sk·(Dh + Dv) + 5·Sq·Sk FLOPs per batch; bytes: Q, K, V, mask
// and Y once.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/gemm/NnPackedGemm.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/Core>

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;

namespace {

/// Scores one block holds: small enough for L2, large enough for the GEMM.
constexpr int64_t kScoreBlock = 16384;

struct AttentionPlan {
  std::vector<int64_t> batchDims;
  int64_t batch = 1, sq = 0, sk = 0, dh = 0, dv = 0;
  int64_t rowsPerBlock = 1;
  bool kTransposed = false;
  float scale = 1.0f;
  bool hasMask = false;
  // Element strides of the mask along the batch dims, then Sq and Sk; 0 where
  // the mask broadcasts.
  std::vector<int64_t> maskBatchStrides;
  int64_t maskRowStride = 0, maskColStride = 0;
  // Where Y [..., Sq, Dv] lies in the result (transposed by y_perm): element
  // strides of the batch dims and of a row; a row's elements are contiguous.
  std::vector<int64_t> yBatchStrides;
  int64_t yRowStride = 0;

  int64_t rowBlocks() const { return (sq + rowsPerBlock - 1) / rowsPerBlock; }
  double flopsPerRow() const {
    return static_cast<double>(sk) * (2.0 * (dh + dv) + 5.0);
  }
};

/// B [depth x cols] (leading dimension ldb; `transposed`: B^T [cols x
/// depth] is given, leading dimension ldb) into `dst` in PackedCols' layout,
/// reusing dst's storage.
void packColsInto(const float *b, int64_t depth, int64_t cols, int64_t ldb,
                  bool transposed, nn::PackedCols *dst) {
  constexpr int64_t w = nn::kPanelCols;
  dst->depth = depth;
  dst->cols = cols;
  dst->data.resize((cols + w - 1) / w * w * depth);
  for (int64_t j0 = 0; j0 < cols; j0 += w) {
    const int64_t width = std::min(w, cols - j0);
    float *panel = dst->data.data() + j0 * depth;
    for (int64_t k = 0; k < depth; ++k) {
      float *out = panel + k * w;
      for (int64_t c = 0; c < width; ++c)
        out[c] = transposed ? b[(j0 + c) * ldb + k] : b[k * ldb + j0 + c];
      std::fill(out + width, out + w, 0.0f);
    }
  }
}

/// One thread's packed operands: K^T and V of the batch entry `batch` of
/// the current run (-1: none yet), and the row panels of Q and of the
/// probabilities. Kept across runs so a run allocates nothing.
struct AttentionScratch {
  int64_t batch = -1;
  nn::PackedCols kt, v;
  std::vector<float> qPanels, pPanels;
};

rt::Status analyzeMask(const om::OpDef &op, const std::vector<int64_t> &scores,
                       AttentionPlan *p) {
  std::vector<int64_t> mask = shapeOf(op.input_desc(3));
  if (mask.size() > scores.size())
    return opError(op, "mask has more dims than the scores");
  mask.insert(mask.begin(), scores.size() - mask.size(), 1);
  std::vector<int64_t> strides(mask.size(), 0);
  int64_t stride = 1;
  for (size_t d = mask.size(); d-- > 0;) {
    if (mask[d] != 1 && mask[d] != scores[d])
      return opError(op, "mask does not broadcast to the scores");
    strides[d] = mask[d] == 1 ? 0 : stride;
    stride *= mask[d];
  }
  p->hasMask = true;
  p->maskColStride = strides.back();
  p->maskRowStride = strides[strides.size() - 2];
  p->maskBatchStrides.assign(strides.begin(), strides.end() - 2);
  return rt::Status::ok();
}

/// Y's strides in the result, which holds transpose(Y, y_perm) (Y itself
/// without y_perm) row-major, in any shape of that element count (a reshape
/// that merges the heads costs nothing).
rt::Status analyzeOutput(const om::OpDef &op, AttentionPlan *p) {
  std::vector<int64_t> logical(p->batchDims);
  logical.push_back(p->sq);
  logical.push_back(p->dv);
  const size_t rank = logical.size();
  std::vector<int64_t> perm = attrInts(op, "y_perm");
  if (perm.empty())
    for (size_t d = 0; d < rank; ++d)
      perm.push_back(static_cast<int64_t>(d));
  if (perm.size() != rank || perm.back() != static_cast<int64_t>(rank) - 1)
    return opError(op, "y_perm must list every dim and keep the last one last");
  std::vector<int64_t> permuted(rank), strides(rank, -1);
  for (size_t j = 0; j < rank; ++j) {
    int64_t d = perm[j];
    if (d < 0 || d >= static_cast<int64_t>(rank) || strides[d] >= 0)
      return opError(op, "y_perm is not a permutation");
    permuted[j] = logical[d];
    strides[d] = 0;
  }
  if (numElements(op.output_desc(0)) != vec::product(permuted))
    return opError(op, "Y must hold [..., Sq, Dv] transposed by y_perm");
  std::vector<int64_t> permutedStrides = vec::stridesOf(permuted);
  for (size_t j = 0; j < rank; ++j)
    strides[perm[j]] = permutedStrides[j];
  p->yBatchStrides.assign(strides.begin(), strides.end() - 2);
  p->yRowStride = strides[rank - 2];
  return rt::Status::ok();
}

rt::Status analyzeAttention(const om::OpDef &op, AttentionPlan *p) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() < 3 || op.output_desc_size() != 1)
    return opError(op, "needs inputs Q, K, V (and a mask) and one output");
  std::vector<int64_t> q = shapeOf(op.input_desc(0)),
                       k = shapeOf(op.input_desc(1)),
                       v = shapeOf(op.input_desc(2));
  size_t rank = q.size();
  if (rank < 2 || k.size() != rank || v.size() != rank)
    return opError(op, "Q, K and V must have one rank >= 2");
  p->kTransposed = attrInt(op, "k_transposed", 0) != 0;
  p->scale = attrFloat(op, "scale", 1.0f);
  p->batchDims.assign(q.begin(), q.end() - 2);
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (k[d] != q[d] || v[d] != q[d])
      return opError(op, "Q, K and V must have the same batch dims");
    p->batch *= q[d];
  }
  p->sq = q[rank - 2];
  p->dh = q[rank - 1];
  p->sk = k[rank - (p->kTransposed ? 1 : 2)];
  p->dv = v[rank - 1];
  if (k[rank - (p->kTransposed ? 2 : 1)] != p->dh || v[rank - 2] != p->sk)
    return opError(op, "K and V do not match Q's depth and the key count");
  GEFLOW_RT_RETURN_IF_ERROR(analyzeOutput(op, p));
  p->rowsPerBlock =
      std::clamp<int64_t>(kScoreBlock / std::max<int64_t>(p->sk, 1), 1,
                          std::max<int64_t>(p->sq, 1));
  if (nn::hasInput(op, 3)) {
    std::vector<int64_t> scores(p->batchDims);
    scores.push_back(p->sq);
    scores.push_back(p->sk);
    GEFLOW_RT_RETURN_IF_ERROR(analyzeMask(op, scores, p));
  }
  return rt::Status::ok();
}

rt::Status planAttention(const om::OpDef &op, KernelPlan *out) {
  AttentionPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeAttention(op, &p));
  out->engine = rt::Engine::kMix;
  out->maxBlocks = nn::blocksForFlops(p.batch * p.rowBlocks(),
                                      p.flopsPerRow() * p.rowsPerBlock);
  out->cost.flops = p.flopsPerRow() * static_cast<double>(p.batch * p.sq);
  out->cost.bytes = vec::ioBytes(op);
  return rt::Status::ok();
}

class AttentionKernel final : public Kernel {
public:
  explicit AttentionKernel(AttentionPlan p) : p_(std::move(p)) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const auto *q = static_cast<const float *>(inputs[0].data);
    const auto *k = static_cast<const float *>(inputs[1].data);
    const auto *v = static_cast<const float *>(inputs[2].data);
    const auto *mask =
        p_.hasMask ? static_cast<const float *>(inputs[3].data) : nullptr;
    auto *y = static_cast<float *>(outputs[0].data);
    const int64_t sq = p_.sq, sk = p_.sk, dh = p_.dh, dv = p_.dv;
    float *scores = nn::scratch(p_.rowsPerBlock * sk);
    const bool packed = nn::packedGemmAvailable() && dh > 0 && sk > 0;
    thread_local AttentionScratch ws;
    ws.batch = -1; // another run: the buffers hold stale tensors
    BlockRange items =
        blockRange(p_.batch * p_.rowBlocks(), blockIdx, blockDim);
    for (int64_t item = items.begin; item < items.end; ++item) {
      int64_t b = item / p_.rowBlocks();
      int64_t row0 = (item % p_.rowBlocks()) * p_.rowsPerBlock;
      int64_t rows = std::min(p_.rowsPerBlock, sq - row0);
      const float *qRows = q + (b * sq + row0) * dh;
      float *yRows =
          y + batchOffset(b, p_.yBatchStrides) + row0 * p_.yRowStride;
      if (packed && ws.batch != b) {
        // K [sk x dh] is K^T's columns as they lie; K^T [dh x sk] is B.
        packColsInto(k + b * sk * dh, dh, sk, p_.kTransposed ? sk : dh,
                     !p_.kTransposed, &ws.kt);
        packColsInto(v + b * sk * dv, sk, dv, dv, false, &ws.v);
        ws.batch = b;
      }
      // scores = scale * Q[rows] K^T
      if (packed) {
        ws.qPanels.resize(nn::rowPanelFloats(rows, dh));
        nn::packRowsInto(qRows, rows, dh, dh, ws.qPanels.data());
        if (p_.scale != 1.0f)
          Eigen::Map<Eigen::ArrayXf>(ws.qPanels.data(), ws.qPanels.size()) *=
              p_.scale;
        nn::gemmPanels(ws.qPanels.data(), rows, ws.kt, 0, sk, scores, sk);
      } else {
        nn::gemm(false, !p_.kTransposed, rows, sk, dh, p_.scale, qRows, dh,
                 k + b * sk * dh, p_.kTransposed ? sk : dh, 0.0f, scores, sk);
      }
      for (int64_t r = 0; r < rows; ++r) {
        Eigen::Map<Eigen::ArrayXf> row(scores + r * sk, sk);
        if (mask)
          addMaskRow(mask + maskOffset(b, row0 + r), row);
        vmath::softmax(row.data(), row.data(), sk);
      }
      // Y[rows] = softmax(scores) V
      if (packed && dv > 0) {
        ws.pPanels.resize(nn::rowPanelFloats(rows, sk));
        nn::packRowsInto(scores, rows, sk, sk, ws.pPanels.data());
        nn::gemmPanels(ws.pPanels.data(), rows, ws.v, 0, dv, yRows,
                       p_.yRowStride);
      } else {
        nn::gemm(false, false, rows, dv, sk, 1.0f, scores, sk, v + b * sk * dv,
                 dv, 0.0f, yRows, p_.yRowStride);
      }
    }
    return rt::Status::ok();
  }

private:
  /// Offset of batch b (row-major over the batch dims) in a tensor whose
  /// batch dims have `strides`.
  int64_t batchOffset(int64_t b, const std::vector<int64_t> &strides) const {
    int64_t offset = 0;
    for (size_t d = p_.batchDims.size(); d-- > 0;) {
      offset += (b % p_.batchDims[d]) * strides[d];
      b /= p_.batchDims[d];
    }
    return offset;
  }

  /// Offset of mask element (batch b, query row `row`, key 0).
  int64_t maskOffset(int64_t b, int64_t row) const {
    return batchOffset(b, p_.maskBatchStrides) + row * p_.maskRowStride;
  }

  void addMaskRow(const float *mask, Eigen::Map<Eigen::ArrayXf> &row) const {
    if (p_.maskColStride == 0)
      row += *mask;
    else
      row += Eigen::Map<const Eigen::ArrayXf>(mask, row.size());
  }

  const AttentionPlan p_;
};

constexpr CreateFn createAttention =
    &nn::createFromPlan<AttentionKernel, AttentionPlan, analyzeAttention>;

} // namespace

void geflow::kernels::registerAttentionKernels(KernelRegistry &registry) {
  registry.add("fused_attention", {planAttention, createAttention});
}
