//===- Triangular.cpp - trilu, eye_like, one_hot --------------------------===//
//
// Ops whose output element depends on its position against a diagonal or an
// index: Trilu keeps one side of the k-th diagonal, EyeLike writes ones on
// it, OneHot writes the on value where the index equals the position.
//
// Block split: rows of the output's last dim (one_hot: [outer, depth] rows
// of `inner` elements), grain 4096 elements. Cost: no FLOPs (one_hot: one
// comparison per element); bytes = inputs read + output written.
// Computation: trilu and eye_like move bytes (a zero of every dtype is all
// zero bits); one_hot compares typed indices and moves the values' bytes.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;
using namespace geflow::kernels::idx;

namespace {

/// A kernel over the rows of the output's last dim: rows_ rows of cols_.
class RowKernel : public VectorKernel {
protected:
  rt::Status setRows(const om::OpDef &op) {
    auto shape = shapeOf(op.output_desc(0));
    if (shape.size() < 2)
      return opError(op, "needs an output of rank >= 2");
    elemSize_ = dtypeSize(op.output_desc(0).dtype());
    if (elemSize_ == 0)
      return unsupportedDtype(op, op.output_desc(0).dtype());
    cols_ = shape.back();
    matrixRows_ = shape[shape.size() - 2];
    int64_t rows = product(shape) / std::max<int64_t>(1, cols_);
    setPlan(op, cols_ ? rows : 0,
            std::max<int64_t>(1, kGrain / std::max<int64_t>(1, cols_)), 0);
    return rt::Status::ok();
  }
  int64_t cols_ = 0, matrixRows_ = 0;
  size_t elemSize_ = 0;
};

// --- trilu -------------------------------------------------------------------

class TriluKernel final : public RowKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<TriluKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<TriluKernel>(new TriluKernel);
    GEFLOW_RT_RETURN_IF_ERROR(k->setRows(op));
    k->upper_ = attrInt(op, "upper", 1) != 0;
    k->hasK_ = hasInput(op, 1);
    if (k->hasK_ && numElements(op.input_desc(1)) != 1)
      return opError(op, "k must hold one value");
    k->kType_ = k->hasK_ ? op.input_desc(1).dtype() : om::DT_INT64;
    k->kConst_ = constantInput(spec, 1);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const int64_t diag =
        hasK_ ? loadAsInt(operandData(kConst_, inputs, 1), kType_, 0) : 0;
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    const int64_t rowBytes = cols_ * static_cast<int64_t>(elemSize_);
    for (int64_t p = r.begin; p < r.end; ++p) {
      // Row i keeps columns j >= i + k (upper) or j <= i + k (lower): one
      // kept run and one zero run.
      int64_t i = p % matrixRows_;
      int64_t split =
          std::clamp<int64_t>(i + diag + (upper_ ? 0 : 1), 0, cols_);
      int64_t keepBegin = upper_ ? split : 0, keepEnd = upper_ ? cols_ : split;
      char *dst = o + p * rowBytes;
      const char *src = in + p * rowBytes;
      std::memset(dst, 0, rowBytes);
      std::memcpy(dst + keepBegin * elemSize_, src + keepBegin * elemSize_,
                  (keepEnd - keepBegin) * elemSize_);
    }
    return rt::Status::ok();
  }

private:
  TriluKernel() = default;
  bool upper_ = true, hasK_ = false;
  om::DataType kType_ = om::DT_INT64;
  const void *kConst_ = nullptr;
};

// --- eye_like ----------------------------------------------------------------

using ScalarTypes =
    TypeList<float, double, Eigen::half, Eigen::bfloat16, int8_t, int16_t,
             int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, bool>;

class EyeLikeKernel final : public RowKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<EyeLikeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<EyeLikeKernel>(new EyeLikeKernel);
    GEFLOW_RT_RETURN_IF_ERROR(k->setRows(op));
    om::DataType dt = op.output_desc(0).dtype();
    if (!dispatch(ScalarTypes{}, dt, [&](auto tag) {
          using T = typename decltype(tag)::type;
          T one = static_cast<T>(1);
          std::memcpy(k->one_, &one, sizeof(T));
        }))
      return unsupportedDtype(op, dt);
    k->diag_ = attrInt(op, "k", 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *, const TensorView *outputs,
                      BlockRange r) const override {
    auto *o = static_cast<char *>(outputs[0].data);
    const int64_t rowBytes = cols_ * static_cast<int64_t>(elemSize_);
    std::memset(o + r.begin * rowBytes, 0, (r.end - r.begin) * rowBytes);
    for (int64_t i = r.begin; i < r.end; ++i)
      if (int64_t j = i + diag_; j >= 0 && j < cols_)
        std::memcpy(o + i * rowBytes + j * elemSize_, one_, elemSize_);
    return rt::Status::ok();
  }

private:
  EyeLikeKernel() = default;
  int64_t diag_ = 0;
  alignas(8) unsigned char one_[8] = {};
};

// --- one_hot -----------------------------------------------------------------

using OneHotIndexTypes =
    TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t,
             uint16_t, uint32_t, uint64_t>;

/// out[o, d, i] = indices[o, i] (negative: + depth) == d ? on : off, with
/// values = [off, on].
class OneHotKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<OneHotKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    auto k = std::unique_ptr<OneHotKernel>(new OneHotKernel);
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 2, &k->elemSize_));
    k->idxType_ = op.input_desc(0).dtype();
    if (!dispatch(OneHotIndexTypes{}, k->idxType_, [](auto) {}))
      return unsupportedDtype(op, k->idxType_);
    if (numElements(op.input_desc(2)) != 2)
      return opError(op, "values must hold [off_value, on_value]");
    auto outShape = shapeOf(op.output_desc(0));
    const int64_t rank = static_cast<int64_t>(outShape.size());
    const int64_t axis = normalizeAxis(attrInt(op, "axis", -1), rank);
    if (axis < 0 || axis >= rank || op.input_desc(0).shape_size() + 1 != rank)
      return opError(op, "axis is out of range for the output's rank");
    k->depth_ = outShape[axis];
    k->inner_ = product({outShape.begin() + axis + 1, outShape.end()});
    int64_t rows = product({outShape.begin(), outShape.begin() + axis + 1});
    k->setPlan(op, rows,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->inner_)),
               static_cast<double>(product(outShape)));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    dispatch(OneHotIndexTypes{}, idxType_, [&](auto itag) {
      using I = typename decltype(itag)::type;
      dispatchBySize(elemSize_, [&](auto vtag) {
        using U = typename decltype(vtag)::type;
        fill(static_cast<const I *>(inputs[0].data),
             static_cast<const U *>(inputs[2].data),
             static_cast<U *>(outputs[0].data), r);
      });
    });
    return rt::Status::ok();
  }

private:
  OneHotKernel() = default;

  template <class I, class U>
  void fill(const I *indices, const U *values, U *o, BlockRange r) const {
    const U off = values[0], on = values[1];
    for (int64_t row = r.begin; row < r.end; ++row) {
      const int64_t outer = row / depth_, d = row % depth_;
      const I *idx = indices + outer * inner_;
      U *dst = o + row * inner_;
      for (int64_t i = 0; i < inner_; ++i) {
        // ONNX casts indices to int64; a negative one counts from depth.
        int64_t v = static_cast<int64_t>(idx[i]);
        dst[i] = (v < 0 ? v + depth_ : v) == d ? on : off;
      }
    }
  }

  int64_t depth_ = 1, inner_ = 1;
  size_t elemSize_ = 0;
  om::DataType idxType_ = om::DT_INT64;
};

} // namespace

void geflow::kernels::registerTriangularKernels(KernelRegistry &registry) {
  registry.serve("TriluKernel", entryFor<TriluKernel>());
  registry.serve("EyeLikeKernel", entryFor<EyeLikeKernel>());
  registry.serve("OneHotKernel", entryFor<OneHotKernel>());
}
