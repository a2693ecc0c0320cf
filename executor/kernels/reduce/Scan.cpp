//===- Scan.cpp - cum_sum -------------------------------------------------===//
//
// Block split: the input's elements, contiguous per block, each block worth
// >= 4096 of them; a block scans the rows along the axis ([outer, N, inner],
// outer * inner rows) that its elements' range covers, [begin / N, end / N).
// The plan cannot know the axis (an operand; plans are made without
// constants), the element count it knows. Cost: a FLOP per element; bytes =
// inputs read + outputs written.
// Computation: rows next to each other along `inner` are scanned together, a
// running Eigen array of them added to step by step; with inner = 1 a row is
// a scalar running sum.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

struct ScanFlags {
  bool exclusive = false, reverse = false;
};

using ScanFn = void (*)(const AxisLayout &l, ScanFlags f, const void *in,
                        void *out, int64_t rowBegin, int64_t rowEnd);

/// Rows [rowBegin, rowEnd) of the [outer, n, inner] view.
template <class T>
void cumSumRun(const AxisLayout &l, ScanFlags f, const void *inV, void *outV,
               int64_t rowBegin, int64_t rowEnd) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const int64_t n = l.n, inner = l.inner;
  // Step j of a scan visits axis index at(j).
  auto at = [&](int64_t j) { return f.reverse ? n - 1 - j : j; };
  if (inner == 1) {
    for (int64_t row = rowBegin; row < rowEnd; ++row) {
      const T *x = in + row * n;
      T *y = out + row * n;
      T acc = 0;
      for (int64_t j = 0; j < n; ++j) {
        int64_t i = at(j);
        if (f.exclusive) {
          y[i] = acc;
          acc += x[i];
        } else {
          acc += x[i];
          y[i] = acc;
        }
      }
    }
    return;
  }
  // One buffer for every run (a run is at most `inner` rows).
  Arr<T> sums(inner);
  for (int64_t pos = rowBegin; pos < rowEnd;) {
    int64_t outer = pos / inner, i = pos % inner;
    int64_t len = std::min(inner - i, rowEnd - pos);
    const int64_t base = outer * n * inner + i;
    auto acc = sums.head(len);
    acc.setZero();
    for (int64_t j = 0; j < n; ++j) {
      const int64_t off = base + at(j) * inner;
      MMap<T> y(out + off, len);
      if (f.exclusive) {
        y = acc;
        acc += CMap<T>(in + off, len);
      } else {
        acc += CMap<T>(in + off, len);
        y = acc;
      }
    }
    pos += len;
  }
}

class CumSumKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<CumSumKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<CumSumKernel>(new CumSumKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(NumericTypes{}, dt,
                  [&](auto tag) {
                    k->fn_ = &cumSumRun<typename decltype(tag)::type>;
                  }) ||
        op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    if (numElements(op.input_desc(1)) != 1)
      return opError(op, "axis must hold one element");
    k->flags_.exclusive = attrInt(op, "exclusive", 0) != 0;
    k->flags_.reverse = attrInt(op, "reverse", 0) != 0;
    k->op_.set_name(op.name());
    k->op_.set_type(op.type());
    *k->op_.mutable_input_desc() = op.input_desc();
    if (const void *axis = constantInput(spec, 1)) {
      GEFLOW_RT_RETURN_IF_ERROR(k->layoutFor(axis, &k->layout_));
      k->prebuilt_ = true;
    }
    const int64_t elems = numElements(op.input_desc(0));
    k->setPlan(op, elems, kGrain, static_cast<double>(elems));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    AxisLayout local;
    if (!prebuilt_)
      GEFLOW_RT_RETURN_IF_ERROR(layoutFor(inputs[1].data, &local));
    const AxisLayout &l = prebuilt_ ? layout_ : local;
    if (l.n > 0)
      fn_(l, flags_, inputs[0].data, outputs[0].data, r.begin / l.n,
          r.end / l.n);
    return rt::Status::ok();
  }

private:
  CumSumKernel() = default;
  rt::Status layoutFor(const void *axis, AxisLayout *out) const {
    return axisLayout(op_, op_.input_desc(0),
                      loadAsInt(axis, op_.input_desc(1).dtype(), 0), out);
  }
  om::OpDef op_;
  ScanFn fn_ = nullptr;
  ScanFlags flags_;
  AxisLayout layout_;
  bool prebuilt_ = false;
};

} // namespace

void geflow::kernels::registerScanKernels(KernelRegistry &registry) {
  registry.serve("CumSumKernel", entryFor<CumSumKernel>());
}
