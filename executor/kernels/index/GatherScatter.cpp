//===- GatherScatter.cpp - gather_elements, scatter_elements --------------===//
//
// The element-wise gather and scatter along one axis, and what the indexing
// family shares (IndexSupport.h). Elements move by their size, so every
// dtype of 1 to 8 bytes is served; a reducing scatter computes in the dtype.
//
// Block split: gather_elements: contiguous ranges of output elements (grain
// 4096). scatter_elements: ranges of the data's columns along the axis (all
// elements that differ only in the axis coordinate); a block copies its
// columns and applies the updates that land in them, in index order, so no
// two blocks write one element and duplicates resolve as ONNX's reference
// does. Cost: no FLOPs (a reducing scatter: one per update); bytes = inputs
// read + output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;
using namespace geflow::kernels::idx;

// --- IndexSupport.h ----------------------------------------------------------

rt::Status idx::checkIndexDtype(const om::OpDef &op, int input) {
  om::DataType dt = op.input_desc(input).dtype();
  if (dt != om::DT_INT32 && dt != om::DT_INT64)
    return opError(op, "input " + std::to_string(input) +
                           " (indices) must be int32 or int64, not " +
                           dtypeName(dt));
  return rt::Status::ok();
}

om::OpDef idx::errorLabel(const om::OpDef &op) {
  om::OpDef label;
  label.set_name(op.name());
  label.set_type(op.type());
  return label;
}

rt::Status idx::indexOutOfRange(const om::OpDef &label, int64_t index,
                                int64_t dim) {
  return opError(label, "index " + std::to_string(index) +
                            " is out of range for a dim of size " +
                            std::to_string(dim));
}

rt::Status idx::movableElemSize(const om::OpDef &op, int input, size_t *out) {
  om::DataType dt = op.input_desc(input).dtype();
  *out = dtypeSize(dt);
  if (!dispatchBySize(*out, [](auto) {}))
    return unsupportedDtype(op, dt);
  return rt::Status::ok();
}

rt::Status idx::parseReduction(const om::OpDef &op, Reduction *out) {
  std::string r = attrString(op, "reduction", "none");
  static const std::pair<const char *, Reduction> kNames[] = {
      {"none", Reduction::kNone}, {"add", Reduction::kAdd},
      {"mul", Reduction::kMul},   {"max", Reduction::kMax},
      {"min", Reduction::kMin},
  };
  for (const auto &[name, value] : kNames)
    if (r == name) {
      *out = value;
      return rt::Status::ok();
    }
  return opError(op, "reduction '" + r +
                         "' is not one of none, add, mul, max, min");
}

Odometer::Odometer(std::vector<int64_t> dims,
                   std::vector<std::array<int64_t, kStreams>> strides,
                   int64_t start)
    : dims_(std::move(dims)), coord_(dims_.size(), 0),
      strides_(std::move(strides)) {
  for (size_t d = dims_.size(); d-- > 0;) {
    coord_[d] = dims_[d] ? start % dims_[d] : 0;
    start = dims_[d] ? start / dims_[d] : 0;
    for (int s = 0; s < kStreams; ++s)
      offset_[s] += coord_[d] * strides_[d][s];
  }
}

void Odometer::next() {
  for (size_t d = dims_.size(); d-- > 0;) {
    for (int s = 0; s < kStreams; ++s)
      offset_[s] += strides_[d][s];
    if (++coord_[d] < dims_[d])
      return;
    for (int s = 0; s < kStreams; ++s)
      offset_[s] -= coord_[d] * strides_[d][s];
    coord_[d] = 0;
  }
}

namespace {

/// Shapes of data and indices with a normalized axis; indices has data's rank.
struct AxisOperands {
  std::vector<int64_t> data, indices;
  int64_t axis = 0;
};

rt::Status axisOperands(const om::OpDef &op, AxisOperands *out) {
  out->data = shapeOf(op.input_desc(0));
  out->indices = shapeOf(op.input_desc(1));
  const int64_t rank = static_cast<int64_t>(out->data.size());
  out->axis = normalizeAxis(attrInt(op, "axis", 0), rank);
  if (rank == 0 || out->axis < 0 || out->axis >= rank)
    return opError(op, "axis is out of range for data of rank " +
                           std::to_string(rank));
  if (out->indices.size() != out->data.size())
    return opError(op, "indices must have the data's rank");
  return rt::Status::ok();
}

// --- gather_elements ---------------------------------------------------------

/// out[p] = data[p with its axis coordinate replaced by indices[p]].
class GatherElementsKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<GatherElementsKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 1));
    auto k = std::unique_ptr<GatherElementsKernel>(new GatherElementsKernel);
    GEFLOW_RT_RETURN_IF_ERROR(axisOperands(op, &k->shapes_));
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 0, &k->elemSize_));
    k->label_ = errorLabel(op);
    k->idxType_ = op.input_desc(1).dtype();
    k->indices_ = constantInput(spec, 1);
    auto strides = stridesOf(k->shapes_.data);
    for (size_t d = 0; d < strides.size(); ++d)
      k->strides_.push_back(
          {static_cast<int64_t>(d) == k->shapes_.axis ? 0 : strides[d], 0, 0});
    k->axisStride_ = strides[k->shapes_.axis];
    k->setPlan(op, product(k->shapes_.indices), kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const void *indices = operandData(indices_, inputs, 1);
    const int64_t axisDim = shapes_.data[shapes_.axis];
    rt::Status st = rt::Status::ok();
    dispatchBySize(elemSize_, [&](auto tag) {
      using U = typename decltype(tag)::type;
      auto *in = static_cast<const U *>(inputs[0].data);
      auto *o = static_cast<U *>(outputs[0].data);
      Odometer pos(shapes_.indices, strides_, r.begin);
      for (int64_t p = r.begin; p < r.end; ++p, pos.next()) {
        int64_t i = loadIndex(indices, idxType_, p);
        int64_t j = wrapIndex(i, axisDim);
        if (j < 0) {
          st = indexOutOfRange(label_, i, axisDim);
          return;
        }
        o[p] = in[pos.offset(0) + j * axisStride_];
      }
    });
    return st;
  }

private:
  GatherElementsKernel() = default;
  AxisOperands shapes_;
  std::vector<std::array<int64_t, Odometer::kStreams>> strides_;
  int64_t axisStride_ = 0;
  size_t elemSize_ = 0;
  om::DataType idxType_ = om::DT_INT64;
  const void *indices_ = nullptr;
  om::OpDef label_;
};

// --- scatter_elements --------------------------------------------------------

/// out = data; out[p with axis coordinate indices[p]] (op)= updates[p].
class ScatterElementsKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ScatterElementsKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 1));
    auto k = std::unique_ptr<ScatterElementsKernel>(new ScatterElementsKernel);
    GEFLOW_RT_RETURN_IF_ERROR(axisOperands(op, &k->shapes_));
    GEFLOW_RT_RETURN_IF_ERROR(parseReduction(op, &k->reduction_));
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 0, &k->elemSize_));
    k->dtype_ = op.input_desc(0).dtype();
    if (k->reduction_ != Reduction::kNone &&
        !dispatch(ReduceTypes{}, k->dtype_, [](auto) {}))
      return unsupportedDtype(op, k->dtype_);
    if (shapeOf(op.input_desc(2)) != k->shapes_.indices)
      return opError(op, "updates must have the shape of indices");
    const AxisOperands &s = k->shapes_;
    for (size_t d = 0; d < s.data.size(); ++d)
      if (static_cast<int64_t>(d) != s.axis && s.indices[d] > s.data[d])
        return opError(op, "indices dim " + std::to_string(d) +
                               " exceeds the data's");
    k->label_ = errorLabel(op);
    k->idxType_ = op.input_desc(1).dtype();
    k->indices_ = constantInput(spec, 1);
    auto dataStrides = stridesOf(s.data), idxStrides = stridesOf(s.indices);
    for (size_t d = 0; d < s.data.size(); ++d) {
      if (static_cast<int64_t>(d) == s.axis)
        continue;
      k->columnDims_.push_back(s.data[d]);
      k->indexDims_.push_back(s.indices[d]);
      k->strides_.push_back({dataStrides[d], idxStrides[d], 0});
    }
    k->dataAxisStride_ = dataStrides[s.axis];
    k->idxAxisStride_ = idxStrides[s.axis];
    int64_t columns = product(k->columnDims_);
    int64_t perColumn = std::max<int64_t>(1, s.data[s.axis]);
    k->setPlan(op, columns, std::max<int64_t>(1, kGrain / perColumn),
               k->reduction_ == Reduction::kNone ? 0 : product(s.indices));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (reduction_ == Reduction::kNone) {
      rt::Status st = rt::Status::ok();
      dispatchBySize(elemSize_, [&](auto tag) {
        using U = typename decltype(tag)::type;
        withCombine<U>(Reduction::kNone, [&](auto combine) {
          st = scatter<U>(inputs, outputs, r, combine);
        });
      });
      return st;
    }
    rt::Status st = rt::Status::ok();
    dispatch(ReduceTypes{}, dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      withCombine<T>(reduction_, [&](auto combine) {
        st = scatter<T>(inputs, outputs, r, combine);
      });
    });
    return st;
  }

private:
  ScatterElementsKernel() = default;

  template <class T, class Combine>
  rt::Status scatter(const TensorView *inputs, const TensorView *outputs,
                     BlockRange r, Combine combine) const {
    auto *data = static_cast<const T *>(inputs[0].data);
    auto *updates = static_cast<const T *>(inputs[2].data);
    const void *indices = operandData(indices_, inputs, 1);
    auto *o = static_cast<T *>(outputs[0].data);
    const int64_t axisDim = shapes_.data[shapes_.axis];
    const int64_t numUpdates = shapes_.indices[shapes_.axis];
    Odometer col(columnDims_, strides_, r.begin);
    for (int64_t c = r.begin; c < r.end; ++c, col.next()) {
      const int64_t base = col.offset(0);
      for (int64_t t = 0; t < axisDim; ++t)
        o[base + t * dataAxisStride_] = data[base + t * dataAxisStride_];
      bool updated = true;
      for (size_t d = 0; d < indexDims_.size(); ++d)
        updated &= col.coord()[d] < indexDims_[d];
      if (!updated)
        continue;
      for (int64_t t = 0; t < numUpdates; ++t) {
        int64_t at = col.offset(1) + t * idxAxisStride_;
        int64_t i = loadIndex(indices, idxType_, at);
        int64_t j = wrapIndex(i, axisDim);
        if (j < 0)
          return indexOutOfRange(label_, i, axisDim);
        combine(o[base + j * dataAxisStride_], updates[at]);
      }
    }
    return rt::Status::ok();
  }

  AxisOperands shapes_;
  Reduction reduction_ = Reduction::kNone;
  om::DataType dtype_ = om::DT_FLOAT;
  std::vector<int64_t> columnDims_, indexDims_;
  std::vector<std::array<int64_t, Odometer::kStreams>> strides_;
  int64_t dataAxisStride_ = 0, idxAxisStride_ = 0;
  size_t elemSize_ = 0;
  om::DataType idxType_ = om::DT_INT64;
  const void *indices_ = nullptr;
  om::OpDef label_;
};

} // namespace

void geflow::kernels::registerIndexKernels(KernelRegistry &registry) {
  registry.serve("GatherElementsKernel", entryFor<GatherElementsKernel>());
  registry.serve("ScatterElementsKernel", entryFor<ScatterElementsKernel>());
  registerGatherScatterNdKernels(registry);
  registerLayoutKernels(registry);
  registerTriangularKernels(registry);
  registerGridSampleKernels(registry);
  registerRoiAlignKernels(registry);
}
