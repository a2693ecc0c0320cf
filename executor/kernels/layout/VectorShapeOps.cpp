//===- VectorShapeOps.cpp - shape, constant_of_shape, range
//------------------===//
//
// Part of the data-movement family (registered by
// registerDataMovementKernels): ops whose output is made rather than moved.
// Block split: contiguous ranges of output elements (grain 4096; shape: one
// block writes it all). Cost: range one FLOP per element, the others none;
// bytes = outputs written (+ range's scalars).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- shape, constant_of_shape, range
// ----------------------------------------------

class ShapeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ShapeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<ShapeKernel>(new ShapeKernel);
    auto shape = shapeOf(op.input_desc(0));
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t start = attrInt(op, "start", 0);
    int64_t end = hasAttr(op, "end") ? attrInt(op, "end", rank) : rank;
    if (start < 0)
      start += rank;
    if (end < 0)
      end += rank;
    start = std::clamp<int64_t>(start, 0, rank);
    end = std::clamp<int64_t>(end, 0, rank);
    for (int64_t d = start; d < end; ++d)
      k->values_.push_back(shape[d]);
    if (op.output_desc(0).dtype() != om::DT_INT64 ||
        numElements(op.output_desc(0)) !=
            static_cast<int64_t>(k->values_.size()))
      return opError(op,
                     "output must be int64 with one element per reported dim");
    k->setPlan(op, 1, 1, 0, static_cast<double>(k->values_.size() * 8));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t) const override {
    if (blockIdx == 0 && !values_.empty())
      std::memcpy(outputs[0].data, values_.data(), values_.size() * 8);
    return rt::Status::ok();
  }

private:
  ShapeKernel() = default;
  std::vector<int64_t> values_;
};

template <class U>
void fillRange(void *out, int64_t begin, int64_t end, const void *v) {
  std::fill(static_cast<U *>(out) + begin, static_cast<U *>(out) + end,
            *static_cast<const U *>(v));
}

class ConstantOfShapeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ConstantOfShapeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 0, 1));
    auto k = std::unique_ptr<ConstantOfShapeKernel>(new ConstantOfShapeKernel);
    om::DataType dt = op.output_desc(0).dtype();
    k->elemSize_ = dtypeSize(dt);
    if (k->elemSize_ == 0 || k->elemSize_ > 8)
      return unsupportedDtype(op, dt);
    auto it = op.attr().find("value");
    if (it != op.attr().end() && it->second.value_case() == om::AttrDef::kT) {
      const om::TensorDef &t = it->second.t();
      if (t.desc().dtype() != dt || t.data().size() < k->elemSize_)
        return opError(op, "value must be one element of the output dtype");
      std::memcpy(k->value_, t.data().data(), k->elemSize_);
    } else if (dt != om::DT_FLOAT) {
      return opError(op, "without a value the output must be float32");
    }
    k->n_ = numElements(op.output_desc(0));
    k->setPlan(op, k->n_, kGrain, 0, static_cast<double>(k->n_ * k->elemSize_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *, const TensorView *outputs,
                      BlockRange r) const override {
    switch (elemSize_) {
    case 1:
      fillRange<uint8_t>(outputs[0].data, r.begin, r.end, value_);
      break;
    case 2:
      fillRange<uint16_t>(outputs[0].data, r.begin, r.end, value_);
      break;
    case 4:
      fillRange<uint32_t>(outputs[0].data, r.begin, r.end, value_);
      break;
    default:
      fillRange<uint64_t>(outputs[0].data, r.begin, r.end, value_);
      break;
    }
    return rt::Status::ok();
  }

private:
  ConstantOfShapeKernel() = default;
  alignas(8) unsigned char value_[8] = {0};
  size_t elemSize_ = 4;
  int64_t n_ = 0;
};

class RangeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<RangeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    auto k = std::unique_ptr<RangeKernel>(new RangeKernel);
    k->dt_ = op.output_desc(0).dtype();
    if (!dispatch(TypeList<float, double, int16_t, int32_t, int64_t>{}, k->dt_,
                  [](auto) {}))
      return unsupportedDtype(op, k->dt_);
    for (int i = 0; i < 3; ++i)
      k->const_[i] = constantInput(spec, i);
    k->n_ = numElements(op.output_desc(0));
    k->setPlan(op, k->n_, kGrain, static_cast<double>(k->n_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const void *startP = operandData(const_[0], inputs, 0);
    const void *deltaP = operandData(const_[2], inputs, 2);
    dispatch(TypeList<float, double, int16_t, int32_t, int64_t>{}, dt_,
             [&](auto tag) {
               using T = typename decltype(tag)::type;
               // ONNX: output[i] = start + i * delta, in the operands' type.
               T start = *static_cast<const T *>(startP),
                 delta = *static_cast<const T *>(deltaP);
               T *o = static_cast<T *>(outputs[0].data);
               for (int64_t i = r.begin; i < r.end; ++i)
                 o[i] = static_cast<T>(start + static_cast<T>(i) * delta);
             });
    return rt::Status::ok();
  }

private:
  RangeKernel() = default;
  om::DataType dt_ = om::DT_FLOAT;
  const void *const_[3] = {nullptr, nullptr, nullptr};
  int64_t n_ = 0;
};

} // namespace

void geflow::kernels::vec::registerShapeKernels(KernelRegistry &registry) {
  registry.serve("ShapeKernel", entryFor<ShapeKernel>());
  registry.serve("ConstantOfShapeKernel", entryFor<ConstantOfShapeKernel>());
  registry.serve("RangeKernel", entryFor<RangeKernel>());
}
