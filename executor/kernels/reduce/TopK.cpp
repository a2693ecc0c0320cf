//===- TopK.cpp - top_k, arg_max, arg_min and hardmax ---------------------===//
//
// Picking along one axis: top_k's K largest (or smallest) values and their
// indices, arg_max / arg_min, the index of the largest / smallest, and
// hardmax, the one-hot of the first largest.
// Block split: rows along the axis (outer * inner of them), contiguous per
// block, each block worth >= 4096 input elements. Cost: arg_max/arg_min one
// FLOP per element, hardmax two, top_k N * log2(K) comparisons per row;
// bytes = inputs read + outputs written.
// Computation: the input is viewed as [outer, N, inner] around the axis;
// arg_max, arg_min and hardmax scan each row, top_k partial-sorts the row's
// indices.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- arg_max, arg_min, hardmax
// ------------------------------------------------------

/// The index of the largest (Min: smallest) of n values `stride` apart: the
/// first one, or the last with `last` (select_last_index).
template <class T, bool Min>
int64_t pickIndex(const T *x, int64_t n, int64_t stride, bool last) {
  int64_t best = 0;
  T bestV = x[0];
  for (int64_t i = 1; i < n; ++i) {
    T v = x[i * stride];
    bool better = Min ? v < bestV : v > bestV;
    if (better || (last && v == bestV)) {
      bestV = v;
      best = i;
    }
  }
  return best;
}

using ArgFn = void (*)(const AxisLayout &l, bool last, const void *in,
                       int64_t *out, int64_t begin, int64_t end);

template <class T, bool Min>
void argRun(const AxisLayout &l, bool last, const void *inV, int64_t *out,
            int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  for (int64_t row = begin; row < end; ++row)
    out[row] =
        pickIndex<T, Min>(in + (row / l.inner) * l.n * l.inner + row % l.inner,
                          l.n, l.inner, last);
}

using ArgTypes = TypeList<float, double, int32_t, int64_t, int8_t, uint8_t>;

template <bool Min> class ArgKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ArgKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<ArgKernel>(new ArgKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(ArgTypes{}, dt, [&](auto tag) {
          k->fn_ = &argRun<typename decltype(tag)::type, Min>;
        }))
      return unsupportedDtype(op, dt);
    if (op.output_desc(0).dtype() != om::DT_INT64)
      return opError(op, "output must be int64");
    k->last_ = attrInt(op, "select_last_index", 0) != 0;
    GEFLOW_RT_RETURN_IF_ERROR(
        axisLayout(op, op.input_desc(0), attrInt(op, "axis", 0), &k->layout_));
    k->planRows(op);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (layout_.n > 0)
      fn_(layout_, last_, inputs[0].data,
          static_cast<int64_t *>(outputs[0].data), r.begin, r.end);
    return rt::Status::ok();
  }

private:
  ArgKernel() = default;
  /// Rows along the axis, each block worth >= kGrain elements; a FLOP per
  /// element.
  void planRows(const om::OpDef &op) {
    setPlan(op, layout_.outer * layout_.inner,
            std::max<int64_t>(1, kGrain / std::max<int64_t>(1, layout_.n)),
            static_cast<double>(numElements(op.input_desc(0))));
  }
  ArgFn fn_ = nullptr;
  bool last_ = false;
  AxisLayout layout_;
};

using HardmaxFn = void (*)(const AxisLayout &l, const void *in, void *out,
                           int64_t begin, int64_t end);

/// One-hot of each row's first max; the row is zeroed with Eigen, then the
/// one set.
template <class T>
void hardmaxRun(const AxisLayout &l, const void *inV, void *outV, int64_t begin,
                int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  for (int64_t row = begin; row < end; ++row) {
    int64_t base = (row / l.inner) * l.n * l.inner + row % l.inner;
    Eigen::Map<Arr<T>, 0, Eigen::InnerStride<>>(out + base, l.n,
                                                Eigen::InnerStride<>(l.inner))
        .setZero();
    out[base + pickIndex<T, false>(in + base, l.n, l.inner, false) * l.inner] =
        T(1);
  }
}

class HardmaxKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<HardmaxKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<HardmaxKernel>(new HardmaxKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, dt,
                  [&](auto tag) {
                    k->fn_ = &hardmaxRun<typename decltype(tag)::type>;
                  }) ||
        op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    GEFLOW_RT_RETURN_IF_ERROR(
        axisLayout(op, op.input_desc(0), attrInt(op, "axis", -1), &k->layout_));
    // Rows along the axis; a comparison and a store per element.
    k->setPlan(
        op, k->layout_.outer * k->layout_.inner,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->layout_.n)),
        2.0 * static_cast<double>(numElements(op.input_desc(0))));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (layout_.n > 0)
      fn_(layout_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  HardmaxKernel() = default;
  HardmaxFn fn_ = nullptr;
  AxisLayout layout_;
};

// --- top_k
// -----------------------------------------------------------------------

using TopKFn = void (*)(const AxisLayout &l, int64_t k, bool largest,
                        const void *in, void *values, int64_t *indices,
                        int64_t begin, int64_t end);

/// Ties: the lower index first (ONNX).
template <class T>
void topKRun(const AxisLayout &l, int64_t k, bool largest, const void *inV,
             void *valuesV, int64_t *indices, int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *values = static_cast<T *>(valuesV);
  std::vector<int64_t> order(l.n);
  for (int64_t row = begin; row < end; ++row) {
    int64_t outer = row / l.inner, i = row % l.inner;
    const T *x = in + outer * l.n * l.inner + i;
    std::iota(order.begin(), order.end(), 0);
    auto at = [&](int64_t j) { return x[j * l.inner]; };
    if (largest)
      std::partial_sort(order.begin(), order.begin() + k, order.end(),
                        [&](int64_t a, int64_t b) {
                          return at(a) > at(b) || (at(a) == at(b) && a < b);
                        });
    else
      std::partial_sort(order.begin(), order.begin() + k, order.end(),
                        [&](int64_t a, int64_t b) {
                          return at(a) < at(b) || (at(a) == at(b) && a < b);
                        });
    const int64_t outBase = outer * k * l.inner + i;
    for (int64_t j = 0; j < k; ++j) {
      values[outBase + j * l.inner] = at(order[j]);
      indices[outBase + j * l.inner] = order[j];
    }
  }
}

class TopKKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<TopKKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 2));
    auto k = std::unique_ptr<TopKKernel>(new TopKKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(NumericTypes{}, dt, [&](auto tag) {
          k->fn_ = &topKRun<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    if (op.output_desc(1).dtype() != om::DT_INT64)
      return opError(op, "indices must be int64");
    int64_t axis = attrInt(op, "axis", -1);
    GEFLOW_RT_RETURN_IF_ERROR(
        axisLayout(op, op.input_desc(0), axis, &k->layout_));
    // K is the values output's extent along the axis (static shapes); a
    // constant K operand must agree.
    auto outShape = shapeOf(op.output_desc(0));
    int64_t a = normalizeAxis(axis, static_cast<int64_t>(outShape.size()));
    k->k_ = outShape.empty() ? 1 : outShape[a];
    if (const void *kc = constantInput(spec, 1))
      if (loadAsInt(kc, op.input_desc(1).dtype(), 0) != k->k_)
        return opError(op, "K does not match the output shape");
    if (k->k_ > k->layout_.n)
      return opError(op, "K is larger than the axis");
    k->largest_ = attrInt(op, "largest", 1) != 0;
    k->rows_ = k->layout_.outer * k->layout_.inner;
    double n = static_cast<double>(k->layout_.n);
    k->setPlan(
        op, k->rows_,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->layout_.n)),
        static_cast<double>(k->rows_) * n *
            std::max(1.0, std::log2(static_cast<double>(
                              std::max<int64_t>(2, k->k_)))));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (k_ > 0)
      fn_(layout_, k_, largest_, inputs[0].data, outputs[0].data,
          static_cast<int64_t *>(outputs[1].data), r.begin, r.end);
    return rt::Status::ok();
  }

private:
  TopKKernel() = default;
  TopKFn fn_ = nullptr;
  AxisLayout layout_;
  int64_t k_ = 1, rows_ = 0;
  bool largest_ = true;
};

} // namespace

void geflow::kernels::registerTopKKernels(KernelRegistry &registry) {
  registry.serve("ArgMaxKernel", entryFor<ArgKernel<false>>());
  registry.serve("ArgMinKernel", entryFor<ArgKernel<true>>());
  registry.serve("HardmaxKernel", entryFor<HardmaxKernel>());
  registry.serve("TopKKernel", entryFor<TopKKernel>());
}
