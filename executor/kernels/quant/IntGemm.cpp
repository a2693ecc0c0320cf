//===- IntGemm.cpp - integer GEMM, matmul_integer and qlinear_matmul ------===//
//
// Both ops are cube work (AIC) with numpy matmul semantics (batch dims
// broadcast). Block split: (batch entry x tile of kRowTile rows of A); a
// block converts its rows of A, less a_zero_point, to int16, and B less
// b_zero_point once per batch entry (once at load when B and its zero point
// are constants, a quantized model's weights), then runs qnt::intGemm.
// matmul_integer writes the int32 product; qlinear_matmul requantizes each
// row: round(acc * a_scale * b_scale / y_scale) + y_zero_point, saturated.
// Cost: 2*M*N*K per batch entry; bytes: the operands plus the output.
//
// intGemm has a portable body (IntGemmBody.inc), an AVX2 one on vpmaddwd
// (IntGemmAvx2.cpp) and AVX-512 ones on vpmaddwd or VNNI's vpdpwssd
// (IntGemmAvx512Body.inc), picked from cpu::activeIsa() as nn::gemm's are.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/quant/IntGemm.h"
#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::qnt;

namespace geflow::kernels::qnt::baseline {
#include "executor/kernels/isa/IntGemmBody.inc"
} // namespace geflow::kernels::qnt::baseline

#if GEFLOW_HAVE_X86_KERNELS
namespace geflow::kernels::qnt::avx2 {
void intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a, int64_t lda,
             const int16_t *b, int64_t ldb, int32_t *c, int64_t ldc);
} // namespace geflow::kernels::qnt::avx2
namespace geflow::kernels::qnt::avx512 {
void intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a, int64_t lda,
             const int16_t *b, int64_t ldb, int32_t *c, int64_t ldc);
} // namespace geflow::kernels::qnt::avx512
namespace geflow::kernels::qnt::avx512vnni {
void intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a, int64_t lda,
             const int16_t *b, int64_t ldb, int32_t *c, int64_t ldc);
} // namespace geflow::kernels::qnt::avx512vnni
#endif

namespace {
std::atomic<bool> vnniAllowed{true};
} // namespace

void qnt::allowVnni(bool allow) { vnniAllowed.store(allow); }

void qnt::intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a,
                  int64_t lda, const int16_t *b, int64_t ldb, int32_t *c,
                  int64_t ldc) {
  const auto body = vnniAllowed.load(std::memory_order_relaxed)
                        ? GEFLOW_PICK_BODY_VNNI(qnt, intGemm)
                        : GEFLOW_PICK_BODY(qnt, intGemm);
  body(m, n, k, a, lda, b, ldb, c, ldc);
}

int32_t qnt::zeroPointAt(const void *data, om::DataType dt, int64_t i) {
  if (!data)
    return 0;
  switch (dt) {
  case om::DT_INT8:
    return static_cast<const int8_t *>(data)[i];
  case om::DT_UINT8:
    return static_cast<const uint8_t *>(data)[i];
  case om::DT_INT32:
    return static_cast<const int32_t *>(data)[i];
  default:
    return 0;
  }
}

namespace {
template <class T>
void widenRows(const T *src, int64_t rows, int64_t n, const int32_t *rowZero,
               const int32_t *colZero, int16_t *dst) {
  for (int64_t i = 0; i < rows; ++i, src += n, dst += n) {
    const int32_t rz = rowZero ? rowZero[i] : 0;
    if (colZero)
      for (int64_t j = 0; j < n; ++j)
        dst[j] = static_cast<int16_t>(src[j] - rz - colZero[j]);
    else
      for (int64_t j = 0; j < n; ++j)
        dst[j] = static_cast<int16_t>(src[j] - rz);
  }
}
} // namespace

void qnt::widen(const void *src, om::DataType dt, int64_t rows, int64_t n,
                const int32_t *rowZero, const int32_t *colZero, int16_t *dst) {
  if (dt == om::DT_INT8)
    widenRows(static_cast<const int8_t *>(src), rows, n, rowZero, colZero, dst);
  else
    widenRows(static_cast<const uint8_t *>(src), rows, n, rowZero, colZero,
              dst);
}

std::vector<double> qnt::requantScales(const void *inScale, const void *wScale,
                                       int64_t count, const void *outScale) {
  const float in = *static_cast<const float *>(inScale);
  const float out = *static_cast<const float *>(outScale);
  const float *w = static_cast<const float *>(wScale);
  std::vector<double> scale(count);
  for (int64_t j = 0; j < count; ++j)
    scale[j] = static_cast<float>(in * w[j]) / out;
  return scale;
}

template <class T>
void qnt::requantizeRow(const int32_t *acc, int64_t n, const double *scale,
                        bool perColumn, int32_t zp, T *out) {
  constexpr int64_t kChunk = 256;
  double v[kChunk];
  for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
    const int64_t len = std::min(kChunk, n - j0);
    if (perColumn)
      for (int64_t j = 0; j < len; ++j)
        v[j] = acc[j0 + j] * scale[j0 + j];
    else
      for (int64_t j = 0; j < len; ++j)
        v[j] = acc[j0 + j] * scale[0];
    saturateRow(v, len, zp, out + j0);
  }
}
template void qnt::requantizeRow<int8_t>(const int32_t *, int64_t,
                                         const double *, bool, int32_t,
                                         int8_t *);
template void qnt::requantizeRow<uint8_t>(const int32_t *, int64_t,
                                          const double *, bool, int32_t,
                                          uint8_t *);

namespace {

constexpr int64_t kRowTile = 16;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Operand positions of the two ops: matmul_integer (A, B, a_zero_point,
/// b_zero_point) and qlinear_matmul (a, a_scale, a_zero_point, b, b_scale,
/// b_zero_point, y_scale, y_zero_point).
struct Operands {
  int a, b, aZero, bZero, aScale = -1, bScale = -1, yScale = -1, yZero = -1;
};
constexpr Operands kMatMulInteger{0, 1, 2, 3};
constexpr Operands kQLinearMatMul{0, 3, 2, 5, 1, 4, 6, 7};

/// The bytes of int8/uint8 element `offset` of `data` (one byte each).
const void *at(const void *data, int64_t offset) {
  return static_cast<const char *>(data) + offset;
}

class IntMatMulKernel final : public vec::VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<IntMatMulKernel> *out) {
    const om::OpDef &op = *spec.op;
    auto k = std::unique_ptr<IntMatMulKernel>(new IntMatMulKernel);
    k->ops_ = op.type() == "qlinear_matmul" ? kQLinearMatMul : kMatMulInteger;
    GEFLOW_RT_RETURN_IF_ERROR(k->analyze(op));
    const int64_t rowTiles = ceilDiv(k->m_, kRowTile);
    // A block takes enough row tiles to be worth a launch.
    const double flopsPerTile = 2.0 * kRowTile * k->n_ * k->k_;
    k->setPlan(
        op, k->batch_ * rowTiles,
        std::max<int64_t>(1, static_cast<int64_t>(nn::kMinBlockFlops /
                                                  std::max(1.0, flopsPerTile))),
        2.0 * k->batch_ * k->m_ * k->n_ * k->k_);
    k->plan_.engine = rt::Engine::kAic;
    k->rowTiles_ = rowTiles;
    k->prepareConstantB(spec);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const void *a = inputs[ops_.a].data;
    const void *aZero = hasAZero_ ? inputs[ops_.aZero].data : nullptr;
    const void *bZero = hasBZero_ ? inputs[ops_.bZero].data : nullptr;
    std::vector<double> scale;
    if (ops_.yScale >= 0)
      scale = requantScales(inputs[ops_.aScale].data, inputs[ops_.bScale].data,
                            perColumn_ ? n_ : 1, inputs[ops_.yScale].data);
    int32_t yZero =
        ops_.yZero >= 0 ? zeroPointAt(inputs[ops_.yZero].data, yDtype_, 0) : 0;
    thread_local std::vector<int16_t> aRows, bMat;
    thread_local std::vector<int32_t> acc, rowZero;
    aRows.resize(kRowTile * k_);
    acc.resize(kRowTile * n_);
    rowZero.resize(m_);
    for (int64_t i = 0; i < m_; ++i)
      rowZero[i] = zeroPointAt(aZero, aZeroDtype_, aZeroPerRow_ ? i : 0);
    int64_t builtB = -1;
    for (int64_t item = r.begin; item < r.end; ++item) {
      const int64_t batch = item / rowTiles_, tile = item % rowTiles_;
      const int64_t r0 = tile * kRowTile, r1 = std::min(m_, r0 + kRowTile);
      widen(at(a, aOffset_[batch] + r0 * k_), aDtype_, r1 - r0, k_,
            rowZero.data() + r0, nullptr, aRows.data());
      const int16_t *b =
          constB_.empty() ? nullptr : constB_.data() + bOffset_[batch];
      if (!b) {
        if (builtB != bOffset_[batch]) {
          bMat.resize(k_ * n_);
          widenB(inputs[ops_.b].data, bZero, bOffset_[batch], bMat.data());
          builtB = bOffset_[batch];
        }
        b = bMat.data();
      }
      const int64_t rows = r1 - r0;
      if (ops_.yScale < 0) {
        int32_t *y =
            static_cast<int32_t *>(outputs[0].data) + (batch * m_ + r0) * n_;
        intGemm(rows, n_, k_, aRows.data(), k_, b, n_, y, n_);
        continue;
      }
      intGemm(rows, n_, k_, aRows.data(), k_, b, n_, acc.data(), n_);
      for (int64_t i = 0; i < rows; ++i) {
        const int64_t at = (batch * m_ + r0 + i) * n_;
        if (yDtype_ == om::DT_INT8)
          requantizeRow(acc.data() + i * n_, n_, scale.data(), perColumn_,
                        yZero, static_cast<int8_t *>(outputs[0].data) + at);
        else
          requantizeRow(acc.data() + i * n_, n_, scale.data(), perColumn_,
                        yZero, static_cast<uint8_t *>(outputs[0].data) + at);
      }
    }
    return rt::Status::ok();
  }

private:
  IntMatMulKernel() = default;

  rt::Status analyze(const om::OpDef &op) {
    hasAZero_ = nn::hasInput(op, ops_.aZero);
    hasBZero_ = nn::hasInput(op, ops_.bZero);
    int needed = ops_.yZero >= 0 ? 8 : 2;
    if (op.input_desc_size() < needed || op.output_desc_size() < 1)
      return opError(op, "needs " + std::to_string(needed) + " inputs");
    aDtype_ = op.input_desc(ops_.a).dtype();
    bDtype_ = op.input_desc(ops_.b).dtype();
    for (om::DataType dt : {aDtype_, bDtype_})
      if (dt != om::DT_INT8 && dt != om::DT_UINT8)
        return opError(op, std::string("operands must be int8 or uint8, not ") +
                               dtypeName(dt));
    yDtype_ = op.output_desc(0).dtype();
    if (ops_.yZero >= 0 && yDtype_ != om::DT_INT8 && yDtype_ != om::DT_UINT8)
      return opError(op, "y must be int8 or uint8");
    if (ops_.yZero < 0 && yDtype_ != om::DT_INT32)
      return opError(op, "Y must be int32");
    std::vector<int64_t> a = shapeOf(op.input_desc(ops_.a));
    std::vector<int64_t> b = shapeOf(op.input_desc(ops_.b));
    if (a.empty() || b.empty())
      return opError(op, "operands must have rank >= 1");
    if (a.size() == 1)
      a.insert(a.begin(), 1);
    if (b.size() == 1)
      b.push_back(1);
    nn::MatMulBatch mb;
    GEFLOW_RT_RETURN_IF_ERROR(nn::analyzeMatMulBatch(op, a, b, &mb));
    m_ = mb.m;
    k_ = mb.k;
    n_ = mb.n;
    batch_ = mb.batch;
    // Per batch entry: where its A and B start (broadcast dims repeat).
    aOffset_ = std::move(mb.aOffset);
    bOffset_ = std::move(mb.bOffset);
    bBatches_ = mb.bBatch;
    GEFLOW_RT_RETURN_IF_ERROR(analyzeParams(op));
    return rt::Status::ok();
  }

  /// Zero points and scales: per tensor, or per row of A / column of B.
  rt::Status analyzeParams(const om::OpDef &op) {
    auto count = [&](int i) { return numElements(op.input_desc(i)); };
    if (hasAZero_) {
      aZeroDtype_ = op.input_desc(ops_.aZero).dtype();
      if (aZeroDtype_ != aDtype_)
        return opError(op, "a_zero_point must have A's type");
      aZeroPerRow_ = count(ops_.aZero) != 1;
      if (aZeroPerRow_ && count(ops_.aZero) != m_)
        return opError(op, "a_zero_point must have 1 or M elements");
    }
    if (hasBZero_) {
      bZeroDtype_ = op.input_desc(ops_.bZero).dtype();
      if (bZeroDtype_ != bDtype_)
        return opError(op, "b_zero_point must have B's type");
      bZeroPerColumn_ = count(ops_.bZero) != 1;
      if (bZeroPerColumn_ && count(ops_.bZero) != n_)
        return opError(op, "b_zero_point must have 1 or N elements");
    }
    if (ops_.bScale >= 0) {
      for (int i : {ops_.aScale, ops_.bScale, ops_.yScale})
        if (op.input_desc(i).dtype() != om::DT_FLOAT)
          return opError(op, "scales must be float32");
      perColumn_ = count(ops_.bScale) != 1;
      if (perColumn_ && count(ops_.bScale) != n_)
        return opError(op, "b_scale must have 1 or N elements");
      if (count(ops_.aScale) != 1 || count(ops_.yScale) != 1 ||
          count(ops_.yZero) != 1)
        return opError(op, "a_scale, y_scale and y_zero_point must be scalars");
      if (op.input_desc(ops_.yZero).dtype() != yDtype_)
        return opError(op, "y_zero_point must have y's type");
    }
    return rt::Status::ok();
  }

  /// B of batch entry at element `offset`, less b_zero_point, as int16.
  void widenB(const void *b, const void *bZero, int64_t offset,
              int16_t *out) const {
    std::vector<int32_t> zp(n_);
    for (int64_t j = 0; j < n_; ++j)
      zp[j] = zeroPointAt(bZero, bZeroDtype_, bZeroPerColumn_ ? j : 0);
    widen(at(b, offset), bDtype_, k_, n_, nullptr, zp.data(), out);
  }

  void prepareConstantB(const KernelSpec &spec) {
    const void *b = vec::constantInput(spec, ops_.b);
    const void *bZero =
        hasBZero_ ? vec::constantInput(spec, ops_.bZero) : nullptr;
    if (!b || (hasBZero_ && !bZero))
      return;
    constB_.resize(bBatches_ * k_ * n_);
    for (int64_t i = 0; i < bBatches_; ++i)
      widenB(b, bZero, i * k_ * n_, constB_.data() + i * k_ * n_);
  }

  Operands ops_{};
  bool hasAZero_ = false, hasBZero_ = false, bZeroPerColumn_ = false;
  om::DataType aDtype_ = om::DT_UNDEFINED, bDtype_ = om::DT_UNDEFINED,
               yDtype_ = om::DT_UNDEFINED;
  om::DataType aZeroDtype_ = om::DT_UNDEFINED, bZeroDtype_ = om::DT_UNDEFINED;
  int64_t m_ = 0, n_ = 0, k_ = 0, batch_ = 1, bBatches_ = 1;
  int64_t rowTiles_ = 1;
  bool aZeroPerRow_ = false, perColumn_ = false;
  std::vector<int64_t> aOffset_, bOffset_;
  std::vector<int16_t> constB_; // B less its zero point, when both constant
};

} // namespace

void qnt::registerIntMatMulKernels(KernelRegistry &registry) {
  registry.add("matmul_integer", vec::entryFor<IntMatMulKernel>());
  registry.add("qlinear_matmul", vec::entryFor<IntMatMulKernel>());
}
