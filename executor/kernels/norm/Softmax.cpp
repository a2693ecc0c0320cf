//===- Softmax.cpp - softmax and log_softmax ------------------------------===//
//
// Block split: rows along the axis (outer * inner of them), contiguous per
// block, each block worth >= 4096 input elements. Cost: 14 FLOPs per input
// element (exp and log count as several); bytes = input read + output written.
// Computation: the input is viewed as [outer, N, inner] around the axis; each
// row of N elements (stride inner) is one Eigen expression, max-subtracted so
// exp cannot overflow. Contiguous float32 rows take vmath::softmax (the
// CPU's widest vector exp).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

template <class T>
using CStrided = Eigen::Map<const Arr<T>, 0, Eigen::InnerStride<>>;

using SoftmaxFn = void (*)(const AxisLayout &l, bool log, const void *in,
                           void *out, int64_t begin, int64_t end);

/// One row x -> y, both Eigen arrays (contiguous or strided).
template <class T, class X, class Y>
void softmaxRow(const X &x, Y &y, bool log) {
  const T m = x.maxCoeff();
  if (log) {
    T lse = std::log((x - m).exp().sum());
    y = x - m - lse;
  } else {
    y = (x - m).exp();
    y /= y.sum();
  }
}

/// Rows [begin, end) of outer * inner rows of N elements (stride inner).
template <class T>
void softmaxRun(const AxisLayout &l, bool log, const void *inV, void *outV,
                int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const int64_t n = l.n, inner = l.inner;
  for (int64_t row = begin; row < end; ++row) {
    int64_t base = (row / inner) * n * inner + row % inner;
    if constexpr (std::is_same_v<T, float>)
      if (inner == 1 && !log) {
        vmath::softmax(in + base, out + base, n);
        continue;
      }
    if (inner == 1) {
      MMap<T> y(out + base, n);
      softmaxRow<T>(CMap<T>(in + base, n), y, log);
    } else {
      Eigen::Map<Arr<T>, 0, Eigen::InnerStride<>> y(
          out + base, n, Eigen::InnerStride<>(inner));
      softmaxRow<T>(CStrided<T>(in + base, n, Eigen::InnerStride<>(inner)), y,
                    log);
    }
  }
}

class SoftmaxKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<SoftmaxKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<SoftmaxKernel>(new SoftmaxKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, dt, [&](auto tag) {
          k->fn_ = &softmaxRun<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    k->log_ = op.type() == "log_softmax";
    GEFLOW_RT_RETURN_IF_ERROR(
        axisLayout(op, op.input_desc(0), attrInt(op, "axis", -1), &k->layout_));
    k->rows_ = k->layout_.outer * k->layout_.inner;
    int64_t n = numElements(op.input_desc(0));
    k->setPlan(
        op, k->rows_,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->layout_.n)),
        14.0 * static_cast<double>(n));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (layout_.n > 0)
      fn_(layout_, log_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  SoftmaxKernel() = default;
  SoftmaxFn fn_ = nullptr;
  bool log_ = false;
  AxisLayout layout_;
  int64_t rows_ = 0;
};

} // namespace

void geflow::kernels::registerSoftmaxKernels(KernelRegistry &registry) {
  registry.serve("SoftmaxKernel", entryFor<SoftmaxKernel>());
}
