//===- VectorSupport.h - shared machinery of the vector kernels -*- C++ -*-===//
//
// What the elementwise, reduce, data-movement and resize families share:
// dtype dispatch over small type lists, numpy broadcasting with coalesced
// strides (precomputed at kernel creation), an index-table copy that serves
// every "output element reads one input element" op (transpose, slice, tile,
// expand, pad, gather, nearest resize), the [outer, N, inner] view around one
// axis (softmax, arg_max, top_k), reading shape operands, and the plan/create
// glue that derives a kernel's plan from the same object that runs.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORSUPPORT_H
#define GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORSUPPORT_H

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/KernelSupport.h"

#include <Eigen/Core>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

namespace geflow::kernels::vec {

/// Elements a block takes at the least before a vector kernel splits further.
constexpr int64_t kGrain = 4096;

/// Eigen views of a contiguous run of T.
template <class T> using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T> using CMap = Eigen::Map<const Arr<T>>;
template <class T> using MMap = Eigen::Map<Arr<T>>;

// --- dtypes ------------------------------------------------------------------

template <class T> struct TypeTag {
  using type = T;
};

template <class T> constexpr om::DataType dtypeOf();
template <> constexpr om::DataType dtypeOf<float>() { return om::DT_FLOAT; }
template <> constexpr om::DataType dtypeOf<double>() { return om::DT_DOUBLE; }
template <> constexpr om::DataType dtypeOf<Eigen::half>() {
  return om::DT_FLOAT16;
}
template <> constexpr om::DataType dtypeOf<Eigen::bfloat16>() {
  return om::DT_BF16;
}
template <> constexpr om::DataType dtypeOf<int8_t>() { return om::DT_INT8; }
template <> constexpr om::DataType dtypeOf<int16_t>() { return om::DT_INT16; }
template <> constexpr om::DataType dtypeOf<int32_t>() { return om::DT_INT32; }
template <> constexpr om::DataType dtypeOf<int64_t>() { return om::DT_INT64; }
template <> constexpr om::DataType dtypeOf<uint8_t>() { return om::DT_UINT8; }
template <> constexpr om::DataType dtypeOf<uint16_t>() { return om::DT_UINT16; }
template <> constexpr om::DataType dtypeOf<uint32_t>() { return om::DT_UINT32; }
template <> constexpr om::DataType dtypeOf<uint64_t>() { return om::DT_UINT64; }
template <> constexpr om::DataType dtypeOf<bool>() { return om::DT_BOOL; }

template <class... Ts> struct TypeList {};
using FloatTypes = TypeList<float, double>;
using NumericTypes = TypeList<float, double, int32_t, int64_t>;
using SignedTypes = TypeList<float, double, int32_t, int64_t, int8_t>;

/// Calls f(TypeTag<T>{}) for the T of `Ts` whose dtype is `dt`; false when
/// `dt` is not in the list.
template <class... Ts, class F>
bool dispatch(TypeList<Ts...>, [[maybe_unused]] om::DataType dt, F &&f) {
  return ((dt == dtypeOf<Ts>() ? (f(TypeTag<Ts>{}), true) : false) || ...);
}

/// A scalar of any numeric dtype as double / int64 (shape operands, clip
/// bounds, range operands). Unsupported dtypes give 0.
double loadAsDouble(const void *data, om::DataType dt, int64_t index);
int64_t loadAsInt(const void *data, om::DataType dt, int64_t index);
/// All elements of an integer (or float) operand as int64.
std::vector<int64_t> loadInts(const void *data,
                              const om::TensorDescriptor &desc);
std::vector<double> loadDoubles(const void *data,
                                const om::TensorDescriptor &desc);

// --- operands
// ------------------------------------------------------------------

/// True when input `i` of `op` is present (not an absent optional input).
bool hasInput(const om::OpDef &op, int i);
/// The constant bytes of input `i` when the compiler made it a weight, else
/// null.
const void *constantInput(const KernelSpec &spec, int i);
/// The bytes of input `i` for this run: the constant when there is one.
inline const void *operandData(const void *constant, const TensorView *inputs,
                               int i) {
  return constant ? constant : inputs[i].data;
}

int64_t normalizeAxis(int64_t axis, int64_t rank);
/// Row-major element strides of `shape`.
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape);
int64_t product(const std::vector<int64_t> &dims);
/// input bytes read + output bytes written by `op`.
double ioBytes(const om::OpDef &op);

// --- broadcasting
// --------------------------------------------------------------

/// numpy multidirectional broadcasting of up to kMaxOperands inputs onto an
/// output shape, with dims coalesced so the inner loop is as long as possible.
/// The innermost stride of every operand is 0 (broadcast) or 1 (contiguous).
class Broadcast {
public:
  static constexpr int kMaxOperands = 3;

  Broadcast() = default;
  Broadcast(const std::vector<int64_t> &outShape,
            const std::vector<std::vector<int64_t>> &inShapes);

  int64_t total() const { return total_; }
  /// 0 when operand k repeats one value along the inner loop, else 1.
  int64_t innerStride(int k) const { return strides_.back()[k]; }

  /// Calls f(outOffset, const int64_t *inOffsets, len) for each run of
  /// consecutive output elements in [begin, end) along the innermost dim.
  template <class F> void forEachRow(int64_t begin, int64_t end, F &&f) const {
    const int rank = static_cast<int>(dims_.size());
    const int64_t inner = dims_.back();
    std::array<int64_t, kMaxOperands> offs;
    for (int64_t pos = begin; pos < end;) {
      int64_t row = pos / inner, j = pos % inner;
      int64_t len = std::min(inner - j, end - pos);
      offs.fill(0);
      int64_t rest = row;
      for (int d = rank - 2; d >= 0 && rest; --d) {
        int64_t idx = rest % dims_[d];
        rest /= dims_[d];
        for (int k = 0; k < numOperands_; ++k)
          offs[k] += idx * strides_[d][k];
      }
      for (int k = 0; k < numOperands_; ++k)
        offs[k] += j * strides_.back()[k];
      f(pos, offs.data(), len);
      pos += len;
    }
  }

  /// Each operand's element offset of output element `pos`.
  void offsetsAt(int64_t pos, int64_t *offs) const;
  /// When operand k repeats one innermost row over the dim before it while
  /// every other operand runs on contiguously across both (a
  /// squeeze-and-excite scale in NC1HWC0: [N, C1, 1, 1, 16] against [N, C1,
  /// H, W, 16]), the elements those two dims span; else 0.
  int64_t periodicSpan(int k) const;
  int64_t innerDim() const { return dims_.empty() ? 1 : dims_.back(); }

private:
  int numOperands_ = 0;
  int64_t total_ = 0;
  std::vector<int64_t> dims_;
  std::vector<std::array<int64_t, kMaxOperands>> strides_;
};

// --- index-table copy
// ------------------------------------------------------------

/// Output element (i0, ..., in) reads input element base + sum_d
/// offsets[d][i_d], or the fill value when any offsets[d][i_d] is kFill.
/// Separable per dim, so it serves transpose, slice, tile, expand, pad, gather
/// and nearest resize.
struct IndexMap {
  static constexpr int64_t kFill = -(int64_t(1) << 56);
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> offsets;
  int64_t base = 0;

  int64_t total() const { return product(dims); }
  /// Drops unit dims (folding their offset into base); call once built.
  void simplify();
  /// Copies output elements [begin, end). `fill` is one element (or null when
  /// the map has no kFill entries).
  void copy(size_t elemSize, const void *in, void *out, const void *fill,
            int64_t begin, int64_t end) const;
};

// --- one axis ----------------------------------------------------------------

/// A tensor viewed as [outer, n, inner] around one axis: outer * inner rows of
/// n elements each, the elements of a row `inner` apart.
struct AxisLayout {
  int64_t outer = 1, n = 1, inner = 1;
};

/// The layout of `desc` around `axis` (negative counts from the back); a
/// scalar is one row of one element.
rt::Status axisLayout(const om::OpDef &op, const om::TensorDescriptor &desc,
                      int64_t axis, AxisLayout *out);

// --- plan/create glue
// ------------------------------------------------------------

/// A vector kernel carries its plan; the registry's plan function builds the
/// kernel without constants and returns that plan, so plan and run agree.
class VectorKernel : public Kernel {
public:
  const KernelPlan &plan() const { return plan_; }

  /// Runs runRange on block `blockIdx`'s contiguous share of the work items
  /// setPlan was given; a block left idle (blockDim above the work) returns
  /// before it touches an operand. A kernel that splits its work otherwise
  /// overrides run itself.
  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override;

protected:
  /// Sets the plan of `work` items split in blocks of at least `grain`.
  void setPlan(const om::OpDef &op, int64_t work, int64_t grain, double flops,
               double bytes = -1);

  /// One block's work: items [r.begin, r.end) of setPlan's, never empty.
  virtual rt::Status runRange(const TensorView *inputs,
                              const TensorView *outputs, BlockRange r) const;

  KernelPlan plan_;

private:
  int64_t work_ = 0;
};

/// K::make(const KernelSpec &, std::unique_ptr<K> *) -> rt::Status.
template <class K> rt::Status planVia(const om::OpDef &op, KernelPlan *out) {
  KernelSpec spec;
  spec.op = &op;
  std::unique_ptr<K> k;
  GEFLOW_RT_RETURN_IF_ERROR(K::make(spec, &k));
  *out = k->plan();
  return rt::Status::ok();
}

template <class K>
rt::Status createVia(const KernelSpec &spec, std::unique_ptr<Kernel> *out) {
  std::unique_ptr<K> k;
  GEFLOW_RT_RETURN_IF_ERROR(K::make(spec, &k));
  *out = std::move(k);
  return rt::Status::ok();
}

template <class K> KernelEntry entryFor() {
  return KernelEntry{&planVia<K>, &createVia<K>};
}

/// Parts of a family that live in a file of their own: cast (elementwise),
/// shape / constant_of_shape / range (data movement).
void registerCastKernel(KernelRegistry &registry);
void registerShapeKernels(KernelRegistry &registry);

/// "needs N inputs" / dtype errors in one place.
rt::Status checkArity(const om::OpDef &op, int minInputs, int minOutputs);
rt::Status unsupportedDtype(const om::OpDef &op, om::DataType dt);

} // namespace geflow::kernels::vec

#endif // GEFLOW_EXECUTOR_KERNELS_SUPPORT_VECTORSUPPORT_H
