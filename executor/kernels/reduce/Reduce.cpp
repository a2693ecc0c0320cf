//===- Reduce.cpp - Reductions and mean_variance_normalization ------------===//
//
// Block split: output elements, contiguous per block, each block worth >= 4096
// input elements. Cost: a FLOP per input element per step, bytes = inputs read
// + outputs written.
// Computation: the input is viewed as [outer, N, inner] around the reduced
// dims (after dropping unit dims and merging neighbours). With inner == 1 a
// reduction is an Eigen reduction of a contiguous segment; otherwise rows of
// `inner` outputs accumulate in the output with Eigen array ops. Reductions
// over non-adjacent axes walk the reduced dims per output element.
// mean_variance_normalization splits over the kept indices (groups) and walks
// each group's reduced elements three times: mean, deviation, output.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- reductions
// ------------------------------------------------------------------

/// The reduced dims of an input, coalesced. Kept and reduced dims alternate
/// in `dims` (unit dims dropped); when the reduced dims form one block, the
/// input is [outer, reduce, inner].
struct ReduceLayout {
  int64_t outputs = 1; // output elements
  int64_t count = 1;   // input elements per output
  bool simple = true;  // [outer, count, inner]
  int64_t inner = 1;
  // Kept dims (to find an output's base) and reduced dims, for the walk.
  std::vector<int64_t> keptDims, keptStrides, redDims, redStrides;
};

rt::Status makeLayout(const om::OpDef &op, const std::vector<int64_t> &shape,
                      std::vector<int64_t> axes, bool noopWithEmpty,
                      ReduceLayout *out) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<bool> reduced(rank, false);
  if (axes.empty() && !noopWithEmpty)
    reduced.assign(rank, true);
  for (int64_t a : axes) {
    int64_t n = normalizeAxis(a, rank);
    if (n < 0 || n >= rank)
      return opError(op, "axis " + std::to_string(a) + " is out of range");
    reduced[n] = true;
  }
  // Coalesce: drop unit dims, merge neighbours with the same role.
  std::vector<int64_t> dims;
  std::vector<bool> roles;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] == 1)
      continue;
    if (!roles.empty() && roles.back() == reduced[d]) {
      dims.back() *= shape[d];
      continue;
    }
    dims.push_back(shape[d]);
    roles.push_back(reduced[d]);
  }
  ReduceLayout l;
  int redGroups = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (roles[i]) {
      l.count *= dims[i];
      ++redGroups;
    } else {
      l.outputs *= dims[i];
    }
  }
  l.simple = redGroups <= 1;
  if (l.simple) {
    bool afterReduce = false;
    for (size_t i = 0; i < dims.size(); ++i) {
      if (roles[i])
        afterReduce = true;
      else if (afterReduce)
        l.inner *= dims[i];
    }
  }
  auto strides = stridesOf(dims);
  for (size_t i = 0; i < dims.size(); ++i) {
    (roles[i] ? l.redDims : l.keptDims).push_back(dims[i]);
    (roles[i] ? l.redStrides : l.keptStrides).push_back(strides[i]);
  }
  *out = std::move(l);
  return rt::Status::ok();
}

/// Calls f(offset) for the input offset of each of output `o`'s reduced
/// elements, in order.
template <class F>
void forEachReduced(const ReduceLayout &l, int64_t o, F &&f) {
  const int kr = static_cast<int>(l.keptDims.size());
  const int rr = static_cast<int>(l.redDims.size());
  int64_t base = 0, rest = o;
  for (int d = kr - 1; d >= 0; --d) {
    base += (rest % l.keptDims[d]) * l.keptStrides[d];
    rest /= l.keptDims[d];
  }
  std::array<int64_t, 16> idx{};
  int64_t off = base;
  for (int64_t r = 0; r < l.count; ++r) {
    f(off);
    for (int d = rr - 1; d >= 0; --d) {
      if (++idx[d] < l.redDims[d]) {
        off += l.redStrides[d];
        break;
      }
      off -= (l.redDims[d] - 1) * l.redStrides[d];
      idx[d] = 0;
    }
  }
}

/// What each element becomes before it is combined.
enum class Map { kIdentity, kSquare, kAbs };
enum class Combine { kSum, kProd, kMax, kMin };
enum class Finalize { kNone, kSqrt, kMean, kLog };

template <class T, Map M, Combine C> struct Reducer {
  static T mapOne(T v) {
    if constexpr (M == Map::kSquare)
      return v * v;
    else if constexpr (M == Map::kAbs)
      return v < T(0) ? T(-v) : v;
    else
      return v;
  }
  /// map(x) as an Eigen expression.
  template <class X> static auto mapped(const X &x) {
    if constexpr (M == Map::kSquare)
      return x.square();
    else if constexpr (M == Map::kAbs)
      return x.abs();
    else
      return x;
  }
  static T combineOne(T a, T b) {
    if constexpr (C == Combine::kSum)
      return a + b;
    else if constexpr (C == Combine::kProd)
      return a * b;
    else if constexpr (C == Combine::kMax)
      return std::max(a, b);
    else
      return std::min(a, b);
  }
  /// Whole contiguous segment.
  template <class X> static T reduce(const X &x) {
    if constexpr (C == Combine::kSum)
      return mapped(x).sum();
    else if constexpr (C == Combine::kProd)
      return mapped(x).prod();
    else if constexpr (C == Combine::kMax)
      return mapped(x).maxCoeff();
    else
      return mapped(x).minCoeff();
  }
  /// acc = combine(acc, map(x)) over a run.
  template <class A, class X> static void accumulate(A &acc, const X &x) {
    if constexpr (C == Combine::kSum)
      acc += mapped(x);
    else if constexpr (C == Combine::kProd)
      acc *= mapped(x);
    else if constexpr (C == Combine::kMax)
      acc = acc.max(mapped(x));
    else
      acc = acc.min(mapped(x));
  }
  template <class A, class X> static void init(A &acc, const X &x) {
    acc = mapped(x);
  }
};

template <class T> T finalizeOne(T v, Finalize f, int64_t count) {
  if (f == Finalize::kSqrt)
    return static_cast<T>(std::sqrt(static_cast<double>(v)));
  if (f == Finalize::kMean)
    return static_cast<T>(v / static_cast<T>(count));
  if (f == Finalize::kLog)
    return static_cast<T>(std::log(static_cast<double>(v)));
  return v;
}

using ReduceFn = void (*)(const ReduceLayout &l, Finalize f, const void *in,
                          void *out, int64_t begin, int64_t end);

template <class T, class R>
void reduceRun(const ReduceLayout &l, Finalize f, const void *inV, void *outV,
               int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const int64_t n = l.count;
  if (l.simple && l.inner == 1) {
    for (int64_t o = begin; o < end; ++o)
      out[o] = finalizeOne(R::reduce(CMap<T>(in + o * n, n)), f, n);
    return;
  }
  if (l.simple) {
    const int64_t inner = l.inner;
    for (int64_t pos = begin; pos < end;) {
      int64_t outer = pos / inner, i = pos % inner;
      int64_t len = std::min(inner - i, end - pos);
      MMap<T> acc(out + pos, len);
      const T *base = in + outer * n * inner + i;
      R::init(acc, CMap<T>(base, len));
      for (int64_t r = 1; r < n; ++r)
        R::accumulate(acc, CMap<T>(base + r * inner, len));
      if (f != Finalize::kNone)
        for (int64_t j = 0; j < len; ++j)
          acc[j] = finalizeOne(acc[j], f, n);
      pos += len;
    }
    return;
  }
  // Non-adjacent reduced dims: walk them per output element.
  for (int64_t o = begin; o < end; ++o) {
    T acc{};
    bool first = true;
    forEachReduced(l, o, [&](int64_t off) {
      acc = first ? R::mapOne(in[off]) : R::combineOne(acc, R::mapOne(in[off]));
      first = false;
    });
    out[o] = finalizeOne(acc, f, n);
  }
}

struct ReduceOpInfo {
  ReduceFn (*lookup)(om::DataType);
  Finalize finalize;
  double flopsPerElement;
};

template <Map M, Combine C> ReduceFn lookupReduce(om::DataType dt) {
  ReduceFn fn = nullptr;
  dispatch(NumericTypes{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fn = &reduceRun<T, Reducer<T, M, C>>;
  });
  return fn;
}

/// log(sum(exp(x))) as max + log(sum(exp(x - max))), so exp cannot overflow:
/// a contiguous segment with Eigen, other layouts by walking each output's
/// elements twice. An infinite or NaN max is the result itself.
template <class T>
void logSumExpRun(const ReduceLayout &l, Finalize, const void *inV, void *outV,
                  int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const int64_t n = l.count;
  for (int64_t o = begin; o < end; ++o) {
    T m = -std::numeric_limits<T>::infinity(), sum = 0;
    if (l.simple && l.inner == 1) {
      CMap<T> x(in + o * n, n);
      m = n ? x.maxCoeff() : m;
      sum = std::isfinite(m) ? (x - m).exp().sum() : T(1);
    } else {
      forEachReduced(l, o, [&](int64_t off) { m = std::max(m, in[off]); });
      if (std::isfinite(m))
        forEachReduced(l, o,
                       [&](int64_t off) { sum += std::exp(in[off] - m); });
      else
        sum = 1;
    }
    out[o] = m + std::log(sum);
  }
}

ReduceFn lookupLogSumExp(om::DataType dt) {
  ReduceFn fn = nullptr;
  dispatch(FloatTypes{}, dt,
           [&](auto tag) { fn = &logSumExpRun<typename decltype(tag)::type>; });
  return fn;
}

const ReduceOpInfo *findReduce(const std::string &type) {
  static const std::unordered_map<std::string, ReduceOpInfo> table = {
      {"reduce_l1",
       {&lookupReduce<Map::kAbs, Combine::kSum>, Finalize::kNone, 2}},
      {"reduce_l2",
       {&lookupReduce<Map::kSquare, Combine::kSum>, Finalize::kSqrt, 2}},
      {"reduce_log_sum",
       {&lookupReduce<Map::kIdentity, Combine::kSum>, Finalize::kLog, 1}},
      {"reduce_log_sum_exp", {&lookupLogSumExp, Finalize::kNone, 10}},
      {"reduce_max",
       {&lookupReduce<Map::kIdentity, Combine::kMax>, Finalize::kNone, 1}},
      {"reduce_mean",
       {&lookupReduce<Map::kIdentity, Combine::kSum>, Finalize::kMean, 1}},
      {"reduce_min",
       {&lookupReduce<Map::kIdentity, Combine::kMin>, Finalize::kNone, 1}},
      {"reduce_prod",
       {&lookupReduce<Map::kIdentity, Combine::kProd>, Finalize::kNone, 1}},
      {"reduce_sum",
       {&lookupReduce<Map::kIdentity, Combine::kSum>, Finalize::kNone, 1}},
      {"reduce_sum_square",
       {&lookupReduce<Map::kSquare, Combine::kSum>, Finalize::kNone, 2}},
  };
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

class ReduceKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ReduceKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    const ReduceOpInfo *info = findReduce(op.type());
    if (!info)
      return opError(op, "not a reduction");
    auto k = std::unique_ptr<ReduceKernel>(new ReduceKernel);
    om::DataType dt = op.input_desc(0).dtype();
    k->fn_ = info->lookup(dt);
    if (!k->fn_ || op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    k->finalize_ = info->finalize;
    k->op_.set_name(op.name());
    k->op_.set_type(op.type());
    *k->op_.mutable_input_desc() = op.input_desc();
    k->noop_ = attrInt(op, "noop_with_empty_axes", 0) != 0;
    k->axesFromOperand_ = op.type() == "reduce_sum" && hasInput(op, 1);
    std::vector<int64_t> axes =
        k->axesFromOperand_ ? std::vector<int64_t>{} : attrInts(op, "axes");
    const void *axesConst =
        k->axesFromOperand_ ? constantInput(spec, 1) : nullptr;
    if (axesConst)
      axes = loadInts(axesConst, op.input_desc(1));
    // Without the operand's values the layout waits for the run.
    k->prebuilt_ = !k->axesFromOperand_ || axesConst;
    if (k->prebuilt_)
      GEFLOW_RT_RETURN_IF_ERROR(makeLayout(op, shapeOf(op.input_desc(0)), axes,
                                           k->noop_, &k->layout_));
    k->outputs_ = numElements(op.output_desc(0));
    int64_t in = numElements(op.input_desc(0));
    int64_t perOutput =
        std::max<int64_t>(1, in / std::max<int64_t>(1, k->outputs_));
    k->setPlan(op, k->outputs_, std::max<int64_t>(1, kGrain / perOutput),
               info->flopsPerElement * static_cast<double>(in));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const ReduceLayout *l = &layout_;
    ReduceLayout local;
    if (!prebuilt_) {
      std::vector<int64_t> axes = loadInts(inputs[1].data, op_.input_desc(1));
      GEFLOW_RT_RETURN_IF_ERROR(
          makeLayout(op_, shapeOf(op_.input_desc(0)), axes, noop_, &local));
      l = &local;
    }
    if (l->outputs != outputs_)
      return opError(op_, "the axes do not give the output's element count");
    fn_(*l, finalize_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  ReduceKernel() = default;
  om::OpDef op_;
  ReduceFn fn_ = nullptr;
  Finalize finalize_ = Finalize::kNone;
  ReduceLayout layout_;
  bool prebuilt_ = true, noop_ = false, axesFromOperand_ = false;
  int64_t outputs_ = 0;
};

// --- mean_variance_normalization
// --------------------------------------------------

/// ONNX's fixed epsilon, added to the standard deviation (not the variance)
/// as its function body does.
constexpr double kMvnEpsilon = 1e-9;

using MvnFn = void (*)(const ReduceLayout &l, const void *in, void *out,
                       int64_t begin, int64_t end);

/// Groups [begin, end) (one per kept index): the mean, the mean squared
/// deviation (two passes, so large offsets do not cancel), then the output.
template <class T>
void mvnRun(const ReduceLayout &l, const void *inV, void *outV, int64_t begin,
            int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const double count = static_cast<double>(std::max<int64_t>(1, l.count));
  for (int64_t o = begin; o < end; ++o) {
    double sum = 0, dev = 0;
    forEachReduced(l, o, [&](int64_t off) { sum += in[off]; });
    const double mean = sum / count;
    forEachReduced(l, o, [&](int64_t off) {
      double d = in[off] - mean;
      dev += d * d;
    });
    const double scale = 1.0 / (std::sqrt(dev / count) + kMvnEpsilon);
    forEachReduced(l, o, [&](int64_t off) {
      out[off] = static_cast<T>((in[off] - mean) * scale);
    });
  }
}

class MvnKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<MvnKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<MvnKernel>(new MvnKernel);
    om::DataType dt = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, dt,
                  [&](auto tag) {
                    k->fn_ = &mvnRun<typename decltype(tag)::type>;
                  }) ||
        op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    std::vector<int64_t> axes = hasAttr(op, "axes")
                                    ? attrInts(op, "axes")
                                    : std::vector<int64_t>{0, 2, 3};
    GEFLOW_RT_RETURN_IF_ERROR(
        makeLayout(op, shapeOf(op.input_desc(0)), axes, false, &k->layout_));
    // Groups, each worth its element count; ~8 FLOPs an element over the
    // three passes.
    const int64_t in = numElements(op.input_desc(0));
    k->setPlan(
        op, k->layout_.outputs,
        std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->layout_.count)),
        8.0 * static_cast<double>(in));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    fn_(layout_, inputs[0].data, outputs[0].data, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  MvnKernel() = default;
  MvnFn fn_ = nullptr;
  ReduceLayout layout_;
};

} // namespace

void geflow::kernels::registerReduceKernels(KernelRegistry &registry) {
  registry.serve("ReduceKernel", entryFor<ReduceKernel>());
  registry.serve("MvnKernel", entryFor<MvnKernel>());
}
