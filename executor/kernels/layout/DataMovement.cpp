//===- DataMovement.cpp - Data movement kernels ---------------------------===//
//
// Byte-wise kernels that copy contiguous runs: every dtype moves, none is
// interpreted. transpose, slice, tile, expand, pad and as_strided are in
// IndexMapOps.cpp; shape, constant_of_shape and range in VectorShapeOps.cpp.
//
// Block split: contiguous ranges of output elements (gather: of output rows;
// split: of input elements) with grain 4096 elements. Cost: no FLOPs; bytes =
// inputs read + outputs written.
// Computation: reshape-likes are one memcpy per block; concat and split copy
// contiguous segments; gather copies inner rows.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- reshape, flatten, squeeze, unsqueeze, dropout
// -------------------------------

/// Output 0 is input 0's bytes; dropout's optional mask output is all true.
class CopyKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<CopyKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<CopyKernel>(new CopyKernel);
    k->bytes_ =
        numElements(op.output_desc(0)) * dtypeSize(op.output_desc(0).dtype());
    if (op.output_desc(0).dtype() != op.input_desc(0).dtype() ||
        numElements(op.output_desc(0)) != numElements(op.input_desc(0)))
      return opError(op,
                     "output must have the input's dtype and element count");
    if (op.output_desc_size() > 1)
      k->maskBytes_ =
          numElements(op.output_desc(1)) * dtypeSize(op.output_desc(1).dtype());
    // Dropout runs in inference form only: training_mode must be false, or
    // the ratio 0 (then training is the identity too).
    if (op.type() == "dropout" && hasInput(op, 2)) {
      k->trainingMode_ = true;
      k->trainingConst_ = constantInput(spec, 2);
      k->ratioConst_ = constantInput(spec, 1);
      k->ratioDtype_ =
          hasInput(op, 1) ? op.input_desc(1).dtype() : om::DT_UNDEFINED;
      k->op_.set_name(op.name());
      k->op_.set_type(op.type());
      if (k->trainingConst_ && (!hasInput(op, 1) || k->ratioConst_))
        GEFLOW_RT_RETURN_IF_ERROR(
            k->checkInference(k->trainingConst_, k->ratioConst_));
    }
    // Split over bytes in chunks worth kGrain float elements.
    k->setPlan(op, k->bytes_ + k->maskBytes_, kGrain * 4, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    if (trainingMode_)
      GEFLOW_RT_RETURN_IF_ERROR(checkInference(
          operandData(trainingConst_, inputs, 2),
          ratioDtype_ != om::DT_UNDEFINED ? operandData(ratioConst_, inputs, 1)
                                          : nullptr));
    BlockRange r = blockRange(bytes_, blockIdx, blockDim);
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    if (r.end > r.begin && in != o)
      std::memcpy(o + r.begin, in + r.begin, r.end - r.begin);
    if (maskBytes_ && outputs[1].data) {
      BlockRange m = blockRange(maskBytes_, blockIdx, blockDim);
      std::memset(static_cast<char *>(outputs[1].data) + m.begin, 1,
                  m.end - m.begin);
    }
    return rt::Status::ok();
  }

private:
  CopyKernel() = default;
  int64_t bytes_ = 0, maskBytes_ = 0;
  rt::Status checkInference(const void *training, const void *ratio) const {
    // ONNX: the ratio defaults to 0.5.
    double r = ratio ? loadAsDouble(ratio, ratioDtype_, 0) : 0.5;
    if (training && *static_cast<const uint8_t *>(training) && r != 0)
      return opError(op_,
                     "training_mode=true is not supported (inference only)");
    return rt::Status::ok();
  }
  bool trainingMode_ = false;
  const void *trainingConst_ = nullptr, *ratioConst_ = nullptr;
  om::DataType ratioDtype_ = om::DT_UNDEFINED;
  om::OpDef op_;
};

// --- concat / split
// --------------------------------------------------------------

/// A tensor viewed as [outer, rowLen] whose rows are the concatenation of one
/// chunk per part (part k: prefix[k+1] - prefix[k] elements of each row).
struct Segments {
  int64_t rowLen = 0;
  std::vector<int64_t> prefix; // size parts + 1

  /// Calls f(part, row, colInPart, len) for each piece of [begin, end).
  template <class F> void forEach(int64_t begin, int64_t end, F &&f) const {
    for (int64_t pos = begin; pos < end;) {
      int64_t row = pos / rowLen, col = pos % rowLen;
      size_t k = std::upper_bound(prefix.begin(), prefix.end(), col) -
                 prefix.begin() - 1;
      int64_t len = std::min(prefix[k + 1] - col, end - pos);
      f(k, row, col - prefix[k], len);
      pos += len;
    }
  }
  int64_t chunk(size_t k) const { return prefix[k + 1] - prefix[k]; }
};

rt::Status makeSegments(
    const om::OpDef &op,
    const google::protobuf::RepeatedPtrField<om::TensorDescriptor> &parts,
    const om::TensorDescriptor &whole, Segments *seg) {
  auto shape = shapeOf(whole);
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis =
      normalizeAxis(attrInt(op, "axis", op.type() == "split" ? 0 : 1), rank);
  if (axis < 0 || axis >= rank)
    return opError(op, "axis is out of range");
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= shape[d];
  seg->prefix = {0};
  int64_t sum = 0;
  for (const auto &p : parts) {
    if (p.shape_size() != rank)
      return opError(op, "parts differ in rank");
    sum += p.shape(axis);
    seg->prefix.push_back(sum * inner);
  }
  if (sum != shape[axis])
    return opError(op, "parts do not add up along the axis");
  seg->rowLen = sum * inner;
  return rt::Status::ok();
}

class ConcatKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ConcatKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<ConcatKernel>(new ConcatKernel);
    k->split_ = op.type() == "split";
    k->elemSize_ = dtypeSize(op.input_desc(0).dtype());
    if (k->elemSize_ == 0)
      return unsupportedDtype(op, op.input_desc(0).dtype());
    if (k->split_)
      GEFLOW_RT_RETURN_IF_ERROR(
          makeSegments(op, op.output_desc(), op.input_desc(0), &k->seg_));
    else
      GEFLOW_RT_RETURN_IF_ERROR(
          makeSegments(op, op.input_desc(), op.output_desc(0), &k->seg_));
    k->n_ = numElements(k->split_ ? op.input_desc(0) : op.output_desc(0));
    k->setPlan(op, k->n_, kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const size_t es = elemSize_;
    if (split_) {
      auto *in = static_cast<const char *>(inputs[0].data);
      seg_.forEach(
          r.begin, r.end, [&](size_t k, int64_t row, int64_t col, int64_t len) {
            auto *o = static_cast<char *>(outputs[k].data);
            std::memcpy(o + (row * seg_.chunk(k) + col) * es,
                        in + (row * seg_.rowLen + seg_.prefix[k] + col) * es,
                        len * es);
          });
    } else {
      auto *o = static_cast<char *>(outputs[0].data);
      seg_.forEach(
          r.begin, r.end, [&](size_t k, int64_t row, int64_t col, int64_t len) {
            auto *in = static_cast<const char *>(inputs[k].data);
            std::memcpy(o + (row * seg_.rowLen + seg_.prefix[k] + col) * es,
                        in + (row * seg_.chunk(k) + col) * es, len * es);
          });
    }
    return rt::Status::ok();
  }

private:
  ConcatKernel() = default;
  bool split_ = false;
  Segments seg_;
  size_t elemSize_ = 0;
  int64_t n_ = 0;
};

// --- gather
// ----------------------------------------------------------------------

/// data [outer, axisDim, inner], indices [q] -> out [outer, q, inner]: one
/// inner-row copy per (outer, index).
class GatherKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<GatherKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<GatherKernel>(new GatherKernel);
    auto shape = shapeOf(op.input_desc(0));
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = normalizeAxis(attrInt(op, "axis", 0), rank);
    if (axis < 0 || axis >= rank)
      return opError(op, "axis is out of range");
    k->idxType_ = op.input_desc(1).dtype();
    if (k->idxType_ != om::DT_INT32 && k->idxType_ != om::DT_INT64)
      return opError(op, "indices must be int32 or int64");
    k->elemSize_ = dtypeSize(op.input_desc(0).dtype());
    if (k->elemSize_ == 0)
      return unsupportedDtype(op, op.input_desc(0).dtype());
    k->outer_ = 1;
    for (int64_t d = 0; d < axis; ++d)
      k->outer_ *= shape[d];
    k->axisDim_ = shape[axis];
    k->inner_ = 1;
    for (int64_t d = axis + 1; d < rank; ++d)
      k->inner_ *= shape[d];
    k->q_ = numElements(op.input_desc(1));
    k->indices_ = constantInput(spec, 1);
    k->opName_.set_name(op.name());
    k->opName_.set_type(op.type());
    int64_t rows = k->outer_ * k->q_;
    k->setPlan(op, rows,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->inner_)),
               0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    const void *idx = operandData(indices_, inputs, 1);
    const int64_t rowBytes = inner_ * elemSize_;
    for (int64_t row = r.begin; row < r.end; ++row) {
      int64_t outer = row / q_, i = row % q_;
      int64_t j = idxType_ == om::DT_INT64
                      ? static_cast<const int64_t *>(idx)[i]
                      : static_cast<const int32_t *>(idx)[i];
      if (j < 0)
        j += axisDim_;
      if (j < 0 || j >= axisDim_)
        return opError(op(), "index " + std::to_string(j) + " is out of range");
      std::memcpy(o + row * rowBytes, in + (outer * axisDim_ + j) * rowBytes,
                  rowBytes);
    }
    return rt::Status::ok();
  }

private:
  GatherKernel() = default;
  const om::OpDef &op() const { return opName_; }
  om::OpDef opName_;
  om::DataType idxType_ = om::DT_INT64;
  size_t elemSize_ = 0;
  int64_t outer_ = 1, axisDim_ = 1, inner_ = 1, q_ = 0;
  const void *indices_ = nullptr;
};

} // namespace

void geflow::kernels::registerDataMovementKernels(KernelRegistry &registry) {
  registry.serve("CopyKernel", entryFor<CopyKernel>());
  registry.serve("ConcatKernel", entryFor<ConcatKernel>());
  registry.serve("GatherKernel", entryFor<GatherKernel>());
  registerShapeKernels(registry);
}
