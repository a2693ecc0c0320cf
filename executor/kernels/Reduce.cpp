//===- Reduce.cpp - Reductions --------------------------------------------===//
//
// Block split: output elements, contiguous per block, each block worth >= 4096
// input elements. Cost: a FLOP per input element per step, bytes = inputs read
// + outputs written.
// Computation: the input is viewed as [outer, N, inner] around the reduced
// dims (after dropping unit dims and merging neighbours). With inner == 1 a
// reduction is an Eigen reduction of a contiguous segment; otherwise rows of
// `inner` outputs accumulate in the output with Eigen array ops. Reductions
// over non-adjacent axes walk the reduced dims per output element.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/VectorSupport.h"

#include <algorithm>
#include <cmath>

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
  // General case: kept dims (to find an output's base) and reduced dims.
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
  } else {
    auto strides = stridesOf(dims);
    for (size_t i = 0; i < dims.size(); ++i) {
      (roles[i] ? l.redDims : l.keptDims).push_back(dims[i]);
      (roles[i] ? l.redStrides : l.keptStrides).push_back(strides[i]);
    }
  }
  *out = std::move(l);
  return rt::Status::ok();
}

enum class Combine { kSum, kProd, kMax, kMin };
enum class Finalize { kNone, kSqrt, kMean };

template <class T, bool Square, Combine C> struct Reducer {
  static T mapOne(T v) { return Square ? v * v : v; }
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
    if constexpr (Square) {
      return x.square().sum();
    } else {
      if constexpr (C == Combine::kSum)
        return x.sum();
      else if constexpr (C == Combine::kProd)
        return x.prod();
      else if constexpr (C == Combine::kMax)
        return x.maxCoeff();
      else
        return x.minCoeff();
    }
  }
  /// acc = combine(acc, map(x)) over a run.
  template <class A, class X> static void accumulate(A &acc, const X &x) {
    if constexpr (Square)
      acc += x.square();
    else if constexpr (C == Combine::kSum)
      acc += x;
    else if constexpr (C == Combine::kProd)
      acc *= x;
    else if constexpr (C == Combine::kMax)
      acc = acc.max(x);
    else
      acc = acc.min(x);
  }
  template <class A, class X> static void init(A &acc, const X &x) {
    if constexpr (Square)
      acc = x.square();
    else
      acc = x;
  }
};

template <class T> T finalizeOne(T v, Finalize f, int64_t count) {
  if (f == Finalize::kSqrt)
    return static_cast<T>(std::sqrt(static_cast<double>(v)));
  if (f == Finalize::kMean)
    return static_cast<T>(v / static_cast<T>(count));
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
  const int kr = static_cast<int>(l.keptDims.size());
  const int rr = static_cast<int>(l.redDims.size());
  std::array<int64_t, 16> idx{};
  for (int64_t o = begin; o < end; ++o) {
    int64_t base = 0, rest = o;
    for (int d = kr - 1; d >= 0; --d) {
      base += (rest % l.keptDims[d]) * l.keptStrides[d];
      rest /= l.keptDims[d];
    }
    std::fill(idx.begin(), idx.begin() + rr, 0);
    T acc = R::mapOne(in[base]);
    int64_t off = base;
    for (int64_t r = 1; r < n; ++r) {
      for (int d = rr - 1; d >= 0; --d) {
        if (++idx[d] < l.redDims[d]) {
          off += l.redStrides[d];
          break;
        }
        off -= (l.redDims[d] - 1) * l.redStrides[d];
        idx[d] = 0;
      }
      acc = R::combineOne(acc, R::mapOne(in[off]));
    }
    out[o] = finalizeOne(acc, f, n);
  }
}

struct ReduceOpInfo {
  ReduceFn (*lookup)(om::DataType);
  Finalize finalize;
  double flopsPerElement;
};

template <bool Square, Combine C> ReduceFn lookupReduce(om::DataType dt) {
  ReduceFn fn = nullptr;
  dispatch(NumericTypes{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fn = &reduceRun<T, Reducer<T, Square, C>>;
  });
  return fn;
}

const ReduceOpInfo *findReduce(const std::string &type) {
  static const std::unordered_map<std::string, ReduceOpInfo> table = {
      {"reduce_l2", {&lookupReduce<true, Combine::kSum>, Finalize::kSqrt, 2}},
      {"reduce_max", {&lookupReduce<false, Combine::kMax>, Finalize::kNone, 1}},
      {"reduce_mean",
       {&lookupReduce<false, Combine::kSum>, Finalize::kMean, 1}},
      {"reduce_min", {&lookupReduce<false, Combine::kMin>, Finalize::kNone, 1}},
      {"reduce_prod",
       {&lookupReduce<false, Combine::kProd>, Finalize::kNone, 1}},
      {"reduce_sum", {&lookupReduce<false, Combine::kSum>, Finalize::kNone, 1}},
      {"reduce_sum_square",
       {&lookupReduce<true, Combine::kSum>, Finalize::kNone, 2}},
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

} // namespace

void geflow::kernels::registerReduceKernels(KernelRegistry &registry) {
  registry.serve("ReduceKernel", entryFor<ReduceKernel>());
}
