//===- VectorCast.cpp - Cast between dtypes
//----------------------------------===//
//
// Part of the elementwise family (registered by registerElementwiseKernels).
// Block split: contiguous ranges of elements (grain 4096). Cost: one FLOP per
// element; bytes = input read + output written. Computation: one conversion
// per element; float16 and bfloat16 go through float.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/support/VectorSupport.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- cast
// ------------------------------------------------------------------------

using CastTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16, int8_t,
                           uint8_t, int32_t, int64_t, bool>;
using CastFn = void (*)(const void *in, void *out, int64_t n);

template <class T>
constexpr bool kIsHalf =
    std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

// ONNX: to bool is "!= 0"; float16 and bfloat16 go through float.
template <class From, class To> To castOne(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    if constexpr (kIsHalf<From>)
      return static_cast<float>(v) != 0.0f;
    else
      return v != From(0);
  } else if constexpr (kIsHalf<From>) {
    return static_cast<To>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<To, Eigen::bfloat16>) {
    // bfloat16 keeps float's upper 16 bits (truncation, as ONNX's Cast test
    // data for opset 13 has it).
    float f = static_cast<float>(v);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    uint16_t hi =
        std::isnan(f) ? uint16_t(0x7FC0) : static_cast<uint16_t>(bits >> 16);
    return Eigen::numext::bit_cast<Eigen::bfloat16>(hi);
  } else if constexpr (kIsHalf<To>) {
    return To(static_cast<float>(v));
  } else {
    return static_cast<To>(v);
  }
}

template <class From, class To>
void castRun(const void *in, void *out, int64_t n) {
  auto *src = static_cast<const From *>(in);
  auto *dst = static_cast<To *>(out);
  for (int64_t i = 0; i < n; ++i)
    dst[i] = castOne<From, To>(src[i]);
}

class CastKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<CastKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<CastKernel>(new CastKernel);
    om::DataType from = op.input_desc(0).dtype(),
                 to = op.output_desc(0).dtype();
    k->inSize_ = dtypeSize(from);
    k->outSize_ = dtypeSize(to);
    k->n_ = numElements(op.output_desc(0));
    if (from == to) {
      if (k->inSize_ == 0)
        return unsupportedDtype(op, from);
    } else {
      bool ok = dispatch(CastTypes{}, from, [&](auto f) {
        dispatch(CastTypes{}, to, [&](auto t) {
          k->fn_ =
              &castRun<typename decltype(f)::type, typename decltype(t)::type>;
        });
      });
      if (!ok || !k->fn_)
        return opError(op, std::string("no cast from ") + dtypeName(from) +
                               " to " + dtypeName(to));
    }
    k->setPlan(op, k->n_, kGrain, static_cast<double>(k->n_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *in = static_cast<const char *>(inputs[0].data) + r.begin * inSize_;
    auto *o = static_cast<char *>(outputs[0].data) + r.begin * outSize_;
    if (fn_)
      fn_(in, o, r.end - r.begin);
    else if (in != o)
      std::memcpy(o, in, (r.end - r.begin) * inSize_);
    return rt::Status::ok();
  }

private:
  CastKernel() = default;
  CastFn fn_ = nullptr;
  size_t inSize_ = 0, outSize_ = 0;
  int64_t n_ = 0;
};

} // namespace

void geflow::kernels::vec::registerCastKernel(KernelRegistry &registry) {
  registry.serve("CastKernel", entryFor<CastKernel>());
}
