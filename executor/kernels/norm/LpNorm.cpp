//===- LpNorm.cpp - lp_normalization and global_lp_pool -------------------===//
//
// Block split: lp_normalization over the rows along its axis ([outer, N,
// inner], outer * inner rows), global_lp_pool over the N * C planes; both
// contiguous per block, each block worth >= 4096 input elements. Cost: 3
// FLOPs per element (|x|^p, the sum, the scaling; a pow counts as several
// for p > 2); bytes = inputs read + outputs written.
// Computation: each row or plane is one Eigen expression (a row strided by
// `inner`).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// (sum |x|^p)^(1/p) of an Eigen array; 1 and 2 without pow.
template <class T, class X> T lpNorm(const X &x, int64_t p) {
  if (p == 1)
    return x.abs().sum();
  if (p == 2)
    return std::sqrt(x.square().sum());
  const T pt = static_cast<T>(p);
  return std::pow(x.abs().pow(pt).sum(), T(1) / pt);
}

using LpFn = void (*)(const AxisLayout &l, int64_t p, const void *in, void *out,
                      int64_t begin, int64_t end);

/// Rows [begin, end): x / ||x||_p (a zero row gives NaN, as ONNX's
/// reference does).
template <class T>
void lpNormalizeRun(const AxisLayout &l, int64_t p, const void *inV, void *outV,
                    int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const Eigen::InnerStride<> stride(l.inner);
  for (int64_t row = begin; row < end; ++row) {
    const int64_t base = (row / l.inner) * l.n * l.inner + row % l.inner;
    Eigen::Map<const Arr<T>, 0, Eigen::InnerStride<>> x(in + base, l.n, stride);
    Eigen::Map<Arr<T>, 0, Eigen::InnerStride<>> y(out + base, l.n, stride);
    y = x / lpNorm<T>(x, p);
  }
}

/// Planes [begin, end) of `l.n` contiguous elements each.
template <class T>
void globalLpPoolRun(const AxisLayout &l, int64_t p, const void *inV,
                     void *outV, int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  for (int64_t plane = begin; plane < end; ++plane)
    out[plane] = lpNorm<T>(CMap<T>(in + plane * l.n, l.n), p);
}

/// Both ops: a row function over a layout, p, and the plan.
class LpKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<LpKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    const bool pool = op.type() == "global_lp_pool";
    auto k = std::unique_ptr<LpKernel>(new LpKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, dt,
                  [&](auto tag) {
                    using T = typename decltype(tag)::type;
                    k->fn_ = pool ? &globalLpPoolRun<T> : &lpNormalizeRun<T>;
                  }) ||
        op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    k->p_ = attrInt(op, "p", 2);
    if (k->p_ < 1 || (!pool && k->p_ > 2))
      return opError(op, "p = " + std::to_string(k->p_) + " is not supported");
    if (pool) {
      std::vector<int64_t> x = shapeOf(op.input_desc(0));
      if (x.size() < 2)
        return opError(op, "X must be [N, C, ...]");
      // The spatial dims as one axis: [N * C, spatial, 1].
      k->layout_.outer = x[0] * x[1];
      k->layout_.n = product(std::vector<int64_t>(x.begin() + 2, x.end()));
    } else {
      GEFLOW_RT_RETURN_IF_ERROR(axisLayout(
          op, op.input_desc(0), attrInt(op, "axis", -1), &k->layout_));
    }
    const double elems = static_cast<double>(numElements(op.input_desc(0)));
    k->setPlan(
        op, k->layout_.outer * k->layout_.inner,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->layout_.n)),
        (k->p_ > 2 ? 12.0 : 3.0) * elems);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    fn_(layout_, p_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  LpKernel() = default;
  LpFn fn_ = nullptr;
  AxisLayout layout_;
  int64_t p_ = 2;
};

} // namespace

void geflow::kernels::registerLpNormKernels(KernelRegistry &registry) {
  registry.serve("LpNormKernel", entryFor<LpKernel>());
  registry.serve("GlobalLpPoolKernel", entryFor<LpKernel>());
}
