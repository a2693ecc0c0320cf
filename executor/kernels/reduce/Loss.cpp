//===- Loss.cpp - negative_log_likelihood_loss, softmax_cross_entropy_loss ===//
//
// Block split: the N * d1..dk positions, contiguous per block, each block
// worth >= 4096 score elements, for reduction "none"; a "sum" or "mean" loss
// is one sum over every position, one work item (blocks cannot combine
// partial sums). Cost: nll 2 FLOPs per position; the cross entropy's
// log_softmax 14 per score element (exp and log count as several); bytes =
// inputs read + outputs written.
// Computation: the scores [N, C, d1..dk] are viewed as [N, C, D]: a
// position's C classes are D apart. The cross entropy takes each position's
// log_softmax as one Eigen expression (contiguous when D = 1, strided else),
// writing it out when log_prob is a result. Sums are accumulated in double.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

enum class Reduction { kNone, kSum, kMean };

/// Shapes and attributes, fixed when the kernel is made.
struct LossShape {
  int64_t n = 0, classes = 0, inner = 1; // scores [n, classes, inner]
  bool softmax = false;                  // softmax_cross_entropy_loss
  bool hasWeight = false, hasIgnore = false, writeLogProb = false;
  int64_t ignoreIndex = 0;
  Reduction reduction = Reduction::kMean;

  int64_t positions() const { return n * inner; }
};

/// One run's buffers.
struct LossBuffers {
  const void *scores, *classes, *weight;
  void *loss, *logProb;
};

/// What a range of positions adds to a reduced loss.
struct LossSums {
  double loss = 0, weight = 0;
  int64_t badPosition = -1, badClass = 0; // a class outside [0, C)
};

template <class T> using Strided = Eigen::Map<Arr<T>, 0, Eigen::InnerStride<>>;
template <class T>
using CStrided = Eigen::Map<const Arr<T>, 0, Eigen::InnerStride<>>;

/// log_softmax of position `p`'s classes, written to `out` when it is not
/// null; returns the log-probability of class `c` (-1: none wanted).
template <class T>
T logSoftmaxAt(const LossShape &s, const T *x, T *out, int64_t c) {
  const Eigen::InnerStride<> stride(s.inner);
  CStrided<T> row(x, s.classes, stride);
  const T m = row.maxCoeff();
  const T lse = m + std::log((row - m).exp().sum());
  if (out) {
    Strided<T> y(out, s.classes, stride);
    y = row - lse;
  }
  return c < 0 ? T(0) : x[c * s.inner] - lse;
}

template <class T, class I>
LossSums lossRun(const LossShape &s, const LossBuffers &b, int64_t begin,
                 int64_t end) {
  auto *x = static_cast<const T *>(b.scores);
  auto *target = static_cast<const I *>(b.classes);
  auto *weight = static_cast<const T *>(b.weight);
  auto *loss = static_cast<T *>(b.loss);
  auto *logProb = static_cast<T *>(b.logProb);
  LossSums sums;
  for (int64_t p = begin; p < end; ++p) {
    const int64_t offset = (p / s.inner) * s.classes * s.inner + p % s.inner;
    const int64_t c = static_cast<int64_t>(target[p]);
    const bool ignored = s.hasIgnore && c == s.ignoreIndex;
    if (!ignored && (c < 0 || c >= s.classes) && sums.badPosition < 0) {
      sums.badPosition = p;
      sums.badClass = c;
    }
    const bool valid = !ignored && c >= 0 && c < s.classes;
    T logp = 0;
    if (s.softmax)
      logp = logSoftmaxAt<T>(s, x + offset,
                             s.writeLogProb ? logProb + offset : nullptr,
                             valid ? c : -1);
    else if (valid)
      logp = x[offset + c * s.inner];
    const T w = !valid ? T(0) : s.hasWeight ? weight[c] : T(1);
    const T l = -logp * w;
    if (s.reduction == Reduction::kNone)
      loss[p] = l;
    sums.loss += static_cast<double>(l);
    sums.weight += static_cast<double>(w);
  }
  return sums;
}

using LossFn = LossSums (*)(const LossShape &, const LossBuffers &, int64_t,
                            int64_t);

class LossKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<LossKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<LossKernel>(new LossKernel);
    LossShape &s = k->shape_;
    s.softmax = op.type() == "softmax_cross_entropy_loss";
    std::vector<int64_t> x = shapeOf(op.input_desc(0));
    if (x.size() < 2)
      return opError(op, "scores must be [N, C, d1..dk]");
    s.n = x[0];
    s.classes = x[1];
    s.inner = product(std::vector<int64_t>(x.begin() + 2, x.end()));
    if (numElements(op.input_desc(1)) != s.positions())
      return opError(op, "the classes must be [N, d1..dk]");
    s.hasWeight = hasInput(op, 2);
    if (s.hasWeight && numElements(op.input_desc(2)) != s.classes)
      return opError(op, "the weight must have one element per class");
    s.hasIgnore = hasAttr(op, "ignore_index");
    s.ignoreIndex = attrInt(op, "ignore_index", 0);
    std::string reduction = attrString(op, "reduction", "mean");
    if (reduction == "none")
      s.reduction = Reduction::kNone;
    else if (reduction == "sum")
      s.reduction = Reduction::kSum;
    else if (reduction != "mean")
      return opError(op, "reduction \"" + reduction + "\" is not supported");
    int64_t lossElems = s.reduction == Reduction::kNone ? s.positions() : 1;
    if (numElements(op.output_desc(0)) != lossElems)
      return opError(op, "the loss has the wrong element count");
    s.writeLogProb = s.softmax && op.output_desc_size() > 1;
    if (s.writeLogProb &&
        numElements(op.output_desc(1)) != numElements(op.input_desc(0)))
      return opError(op, "log_prob must have the scores' shape");

    om::DataType dt = op.input_desc(0).dtype(), it = op.input_desc(1).dtype();
    dispatch(FloatTypes{}, dt, [&](auto t) {
      dispatch(TypeList<int32_t, int64_t>{}, it, [&](auto i) {
        k->fn_ =
            &lossRun<typename decltype(t)::type, typename decltype(i)::type>;
      });
    });
    if (!k->fn_ || op.output_desc(0).dtype() != dt ||
        (s.hasWeight && op.input_desc(2).dtype() != dt))
      return unsupportedDtype(op, k->fn_ ? op.output_desc(0).dtype() : dt);
    k->op_.set_name(op.name());
    k->op_.set_type(op.type());
    k->lossIsDouble_ = dt == om::DT_DOUBLE;

    const double scores = static_cast<double>(numElements(op.input_desc(0)));
    const double flops =
        s.softmax ? 14.0 * scores : 2.0 * static_cast<double>(s.positions());
    // A reduced loss is one work item: the whole sum.
    if (s.reduction == Reduction::kNone)
      k->setPlan(op, s.positions(),
                 std::max<int64_t>(1, kGrain / std::max<int64_t>(1, s.classes)),
                 flops);
    else
      k->setPlan(op, 1, 1, flops);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const LossShape &s = shape_;
    LossBuffers b{inputs[0].data, inputs[1].data,
                  s.hasWeight ? inputs[2].data : nullptr, outputs[0].data,
                  s.writeLogProb ? outputs[1].data : nullptr};
    const bool reduced = s.reduction != Reduction::kNone;
    LossSums sums =
        reduced ? fn_(s, b, 0, s.positions()) : fn_(s, b, r.begin, r.end);
    if (sums.badPosition >= 0)
      return opError(
          op_, "class " + std::to_string(sums.badClass) + " at position " +
                   std::to_string(sums.badPosition) + " is outside [0, " +
                   std::to_string(s.classes) + ") and is not ignore_index");
    if (!reduced)
      return rt::Status::ok();
    // "mean" divides by the summed weights: 0 / 0 (every position ignored)
    // is NaN, as in ONNX's reference.
    double total =
        s.reduction == Reduction::kSum ? sums.loss : sums.loss / sums.weight;
    if (lossIsDouble_)
      *static_cast<double *>(outputs[0].data) = total;
    else
      *static_cast<float *>(outputs[0].data) = static_cast<float>(total);
    return rt::Status::ok();
  }

private:
  LossKernel() = default;
  om::OpDef op_;
  LossShape shape_;
  LossFn fn_ = nullptr;
  bool lossIsDouble_ = false;
};

} // namespace

void geflow::kernels::registerLossKernels(KernelRegistry &registry) {
  registry.serve("LossKernel", entryFor<LossKernel>());
}
