//===- DataDependentUnique.cpp - unique -----------------------------------===//
//
// ONNX's Unique as numpy.unique computes it: without an axis the elements of
// the flattened input, with one the slices along it, compared
// lexicographically (a slice's elements in row-major order of the other
// dims). The slice indices are sorted stably, so each run of equal slices
// starts at its first occurrence; `sorted` = 0 then orders the runs by that
// first occurrence instead of by value. NaN sorts after every number and
// equals NaN (numpy's equal_nan).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/data_dependent/DataDependentOps.h"
#include "executor/kernels/support/KernelSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::dd;
using namespace geflow::kernels::vec;

namespace {

template <class T> bool lessValue(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a < b;
  } else {
    double x, y;
    if constexpr (std::is_same_v<T, double>) {
      x = a;
      y = b;
    } else {
      x = static_cast<float>(a);
      y = static_cast<float>(b);
    }
    return std::isnan(y) ? !std::isnan(x) : x < y;
  }
}

rt::Status uniqueLayout(const om::OpDef &op, Shape *x, SliceLayout *out) {
  if (op.input_desc_size() != 1)
    return opError(op, "takes 1 input");
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, 0, x));
  om::DataType dt = op.input_desc(0).dtype();
  if (!dispatch(AllTypes{}, dt, [](auto) {}))
    return unsupportedDtype(op, dt);
  int64_t sorted = attrInt(op, "sorted", 1);
  if (sorted != 0 && sorted != 1)
    return opError(op, "sorted must be 0 or 1, got " + std::to_string(sorted));
  return sliceLayout(op, *x, out);
}

/// Runs of equal slices: each run's first occurrence, its size, and the run
/// of every slice.
struct Runs {
  std::vector<int64_t> first, counts, inverse;
};

template <class T> Runs findRuns(const AxisLayout &l, const void *data) {
  const T *x = static_cast<const T *>(data);
  // -1, 0, 1 as slice a is below, equal to or above slice b.
  auto compare = [&](int64_t a, int64_t b) {
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t in = 0; in < l.inner; ++in) {
        T va = x[(o * l.n + a) * l.inner + in];
        T vb = x[(o * l.n + b) * l.inner + in];
        if (lessValue(va, vb))
          return -1;
        if (lessValue(vb, va))
          return 1;
      }
    return 0;
  };
  std::vector<int64_t> ids(l.n);
  std::iota(ids.begin(), ids.end(), 0);
  std::stable_sort(ids.begin(), ids.end(),
                   [&](int64_t a, int64_t b) { return compare(a, b) < 0; });
  Runs r;
  r.inverse.resize(l.n);
  for (int64_t j = 0; j < l.n; ++j) {
    if (j == 0 || compare(ids[j - 1], ids[j]) != 0) {
      r.first.push_back(ids[j]);
      r.counts.push_back(0);
    }
    r.inverse[ids[j]] = static_cast<int64_t>(r.first.size()) - 1;
    ++r.counts.back();
  }
  return r;
}

/// Renumbers the runs by first occurrence (sorted = 0).
void orderByFirstOccurrence(Runs *r) {
  size_t k = r->first.size();
  std::vector<int64_t> order(k), rank(k);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return r->first[a] < r->first[b]; });
  Runs out;
  for (size_t j = 0; j < k; ++j) {
    rank[order[j]] = static_cast<int64_t>(j);
    out.first.push_back(r->first[order[j]]);
    out.counts.push_back(r->counts[order[j]]);
  }
  for (int64_t &g : r->inverse)
    g = rank[g];
  out.inverse = std::move(r->inverse);
  *r = std::move(out);
}

void writeInts(const TensorView &out, const std::vector<int64_t> &v) {
  if (!v.empty())
    std::memcpy(out.data, v.data(), v.size() * sizeof(int64_t));
}

} // namespace

rt::Status dd::uniqueBounds(om::OpDef *op) {
  Shape x;
  SliceLayout u;
  GEFLOW_RT_RETURN_IF_ERROR(uniqueLayout(*op, &x, &u));
  op->clear_output_desc();
  GEFLOW_RT_RETURN_IF_ERROR(
      setOutput(op, 0, op->input_desc(0).dtype(), u.keep(x, u.l.n)));
  for (int k = 1; k < 4; ++k)
    GEFLOW_RT_RETURN_IF_ERROR(setOutput(op, k, om::DT_INT64, {u.l.n}));
  return rt::Status::ok();
}

rt::Status dd::runUnique(const om::OpDef &op, const TensorView *inputs,
                         const TensorView *outputs, Shapes *realShapes) {
  Shape x;
  SliceLayout u;
  GEFLOW_RT_RETURN_IF_ERROR(uniqueLayout(op, &x, &u));
  Runs runs;
  dispatch(AllTypes{}, op.input_desc(0).dtype(), [&](auto tag) {
    runs = findRuns<typename decltype(tag)::type>(u.l, inputs[0].data);
  });
  if (attrInt(op, "sorted", 1) == 0)
    orderByFirstOccurrence(&runs);
  int64_t k = static_cast<int64_t>(runs.first.size());
  *realShapes = {u.keep(x, k), {k}, {u.l.n}, {k}};
  auto wanted = [&](int i) {
    return i < op.output_desc_size() && outputs[i].data;
  };
  for (int i = 0; i < 4; ++i)
    if (wanted(i))
      GEFLOW_RT_RETURN_IF_ERROR(checkFits(op, outputs, i, (*realShapes)[i]));
  if (wanted(0))
    copySlices(u.l, dtypeSize(op.input_desc(0).dtype()), runs.first,
               inputs[0].data, outputs[0].data);
  if (wanted(1))
    writeInts(outputs[1], runs.first);
  if (wanted(2))
    writeInts(outputs[2], runs.inverse);
  if (wanted(3))
    writeInts(outputs[3], runs.counts);
  return rt::Status::ok();
}
