//===- Quantize.cpp - quantize_linear, dequantize_linear, dynamic_quantize ===//
//
// Vector work (AIV). quantize_linear and dequantize_linear: block split over
// the elements; the tensor is viewed as [outer, C, inner] around `axis` when
// the scale is per axis (C entries), so every run of `inner` elements has one
// scale and zero point and its loop vectorises. Rounding is half to even
// without std::nearbyint (which the SSE2 baseline does not vectorise): a
// value clamped to the output range plus a little is exact in the
// add-and-subtract-1.5*2^23 trick. Cost: 3 FLOPs per element.
//
// dynamic_quantize_linear needs the range of the whole tensor before it
// quantizes one element, so it is one block: a min/max pass (Eigen), then
// the quantization. Cost: 5 FLOPs per element.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/quant/IntGemm.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// y[i] = saturate(round(x[i] / scale) + zp) for n elements.
template <class TIn, class TOut>
void quantizeRun(const TIn *x, int64_t n, float scale, int32_t zp, TOut *y) {
  int32_t lo, hi;
  qnt::quantBounds(std::numeric_limits<TOut>::is_signed, &lo, &hi);
  // Beyond these the result saturates anyway; inside them the float trick
  // rounds exactly. max(vlo, NaN) is vlo, so NaN saturates low.
  const float vlo = lo - zp - 1.0f, vhi = hi - zp + 1.0f;
  const float flo = lo, fhi = hi;
  constexpr float kMagic = 12582912.0f; // 1.5 * 2^23
  for (int64_t i = 0; i < n; ++i) {
    float v = static_cast<float>(x[i]) / scale;
    v = std::min(vhi, std::max(vlo, v));
    v = (v + kMagic) - kMagic + static_cast<float>(zp);
    y[i] = static_cast<TOut>(
        static_cast<int32_t>(std::min(fhi, std::max(flo, v))));
  }
}

/// y[i] = (x[i] - zp) * scale for n elements.
template <class TIn>
void dequantizeRun(const TIn *x, int64_t n, float scale, int32_t zp, float *y) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = static_cast<float>(static_cast<int32_t>(x[i]) - zp) * scale;
}

using RunFn = void (*)(const void *x, int64_t n, float scale, int32_t zp,
                       void *y);

template <class TIn, class TOut>
void quantizeAny(const void *x, int64_t n, float scale, int32_t zp, void *y) {
  quantizeRun(static_cast<const TIn *>(x), n, scale, zp,
              static_cast<TOut *>(y));
}
template <class TIn>
void dequantizeAny(const void *x, int64_t n, float scale, int32_t zp, void *y) {
  dequantizeRun(static_cast<const TIn *>(x), n, scale, zp,
                static_cast<float *>(y));
}

RunFn quantizeFn(om::DataType in, om::DataType out) {
  bool fromFloat = in == om::DT_FLOAT;
  if (out == om::DT_INT8)
    return fromFloat ? &quantizeAny<float, int8_t>
                     : &quantizeAny<int32_t, int8_t>;
  return fromFloat ? &quantizeAny<float, uint8_t>
                   : &quantizeAny<int32_t, uint8_t>;
}

RunFn dequantizeFn(om::DataType in) {
  if (in == om::DT_INT8)
    return &dequantizeAny<int8_t>;
  if (in == om::DT_UINT8)
    return &dequantizeAny<uint8_t>;
  return &dequantizeAny<int32_t>;
}

bool isQuantType(om::DataType dt) {
  return dt == om::DT_INT8 || dt == om::DT_UINT8;
}

/// quantize_linear (x, y_scale, y_zero_point) and dequantize_linear (x,
/// x_scale, x_zero_point): one scale and zero point per run of `inner`
/// elements of the [outer, C, inner] view.
class LinearQuantKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<LinearQuantKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<LinearQuantKernel>(new LinearQuantKernel);
    const bool quantize = op.type() == "quantize_linear";
    const om::DataType in = op.input_desc(0).dtype();
    const om::DataType res = op.output_desc(0).dtype();
    if (quantize
            ? (in != om::DT_FLOAT && in != om::DT_INT32) || !isQuantType(res)
            : (!isQuantType(in) && in != om::DT_INT32) || res != om::DT_FLOAT)
      return opError(op, std::string("does not take ") + dtypeName(in) +
                             " to " + dtypeName(res));
    if (op.input_desc(1).dtype() != om::DT_FLOAT)
      return opError(op, "the scale must be float32");
    k->fn_ = quantize ? quantizeFn(in, res) : dequantizeFn(in);
    k->hasZero_ = nn::hasInput(op, 2);
    if (k->hasZero_) {
      k->zeroDtype_ = op.input_desc(2).dtype();
      if (k->zeroDtype_ != (quantize ? res : in))
        return opError(op, "the zero point must have the quantized type");
      if (numElements(op.input_desc(2)) != numElements(op.input_desc(1)))
        return opError(op, "the zero point must have the scale's shape");
    }
    const int64_t total = numElements(op.input_desc(0));
    const int64_t scales = numElements(op.input_desc(1));
    k->layout_ = AxisLayout{1, 1, total};
    if (scales != 1) {
      GEFLOW_RT_RETURN_IF_ERROR(axisLayout(
          op, op.input_desc(0), attrInt(op, "axis", 1), &k->layout_));
      if (k->layout_.n != scales)
        return opError(op, "the scale must have one entry per slice of axis");
    }
    k->inSize_ = dtypeSize(in);
    k->outSize_ = dtypeSize(res);
    k->setPlan(op, total, kGrain, 3.0 * static_cast<double>(total));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const char *x = static_cast<const char *>(inputs[0].data);
    const float *scale = static_cast<const float *>(inputs[1].data);
    const void *zero = hasZero_ ? inputs[2].data : nullptr;
    char *y = static_cast<char *>(outputs[0].data);
    const int64_t inner = layout_.inner;
    for (int64_t pos = r.begin; pos < r.end;) {
      const int64_t slice = pos / inner, c = slice % layout_.n;
      const int64_t len = std::min(r.end, (slice + 1) * inner) - pos;
      fn_(x + pos * inSize_, len, scale[c],
          qnt::zeroPointAt(zero, zeroDtype_, c), y + pos * outSize_);
      pos += len;
    }
    return rt::Status::ok();
  }

private:
  LinearQuantKernel() = default;
  RunFn fn_ = nullptr;
  bool hasZero_ = false;
  om::DataType zeroDtype_ = om::DT_UNDEFINED;
  AxisLayout layout_;
  size_t inSize_ = 1, outSize_ = 1;
};

/// dynamic_quantize_linear: x (f32) -> y (u8), y_scale, y_zero_point.
class DynamicQuantizeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<DynamicQuantizeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 3));
    if (op.input_desc(0).dtype() != om::DT_FLOAT ||
        op.output_desc(0).dtype() != om::DT_UINT8 ||
        op.output_desc(1).dtype() != om::DT_FLOAT ||
        op.output_desc(2).dtype() != om::DT_UINT8)
      return opError(op, "takes float32 to uint8, float32 scale, uint8 zero "
                         "point");
    auto k = std::unique_ptr<DynamicQuantizeKernel>(new DynamicQuantizeKernel);
    k->n_ = numElements(op.input_desc(0));
    // One work item: the range must be known before any element is done.
    k->setPlan(op, 1, 1, 5.0 * static_cast<double>(k->n_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    auto *y = static_cast<uint8_t *>(outputs[0].data);
    float *yScale = static_cast<float *>(outputs[1].data);
    auto *yZero = static_cast<uint8_t *>(outputs[2].data);
    // ONNX: the range always includes 0, so 0 is exactly representable.
    float lo = 0.0f, hi = 0.0f;
    if (n_ > 0) {
      CMap<float> xs(x, n_);
      lo = std::min(0.0f, xs.minCoeff());
      hi = std::max(0.0f, xs.maxCoeff());
    }
    const float scale = (hi - lo) / 255.0f;
    *yScale = scale;
    if (!(scale > 0.0f)) { // all zeros: any zero point maps them to 0
      *yZero = 0;
      std::fill(y, y + n_, uint8_t(0));
      return rt::Status::ok();
    }
    const float zeroFp = std::min(255.0f, std::max(0.0f, 0.0f - lo / scale));
    uint8_t zp;
    quantizeRun(&zeroFp, 1, 1.0f, 0, &zp);
    *yZero = zp;
    quantizeRun(x, n_, scale, zp, y);
    return rt::Status::ok();
  }

private:
  DynamicQuantizeKernel() = default;
  int64_t n_ = 0;
};

} // namespace

void geflow::kernels::registerQuantKernels(KernelRegistry &registry) {
  registry.add("quantize_linear", entryFor<LinearQuantKernel>());
  registry.add("dequantize_linear", entryFor<LinearQuantKernel>());
  registry.add("dynamic_quantize_linear", entryFor<DynamicQuantizeKernel>());
  qnt::registerIntMatMulKernels(registry);
  qnt::registerIntConvKernels(registry);
}
