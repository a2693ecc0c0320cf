//===- GatherScatterNd.cpp - gather_nd, scatter_nd, max_unpool ------------===//
//
// Ops that address whole slices of a tensor by an index tuple: GatherND and
// ScatterND (the tuple is the last dim of `indices`), and MaxUnpool, which
// scatters X at MaxPool's flat indices: a ScatterND of one-element slices
// into zeros.
//
// Block split: gather_nd: ranges of index tuples (each copies one contiguous
// slice; grain 4096 elements). scatter_nd and max_unpool: ranges of output
// slices; a block copies (or zeroes) its slices, then applies, in tuple
// order, the updates that land in them, so no two blocks write one element.
// Every block reads all index tuples, which are few next to the data.
// Cost: no FLOPs (a reducing scatter: one per updated element); bytes =
// inputs read + output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;
using namespace geflow::kernels::idx;

namespace {

// --- gather_nd ---------------------------------------------------------------

/// out[b, t, ...] = data[b, indices[b, t, :], ...]: tuple t of batch b picks
/// one slice of data's trailing dims.
class GatherNDKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<GatherNDKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 1));
    auto k = std::unique_ptr<GatherNDKernel>(new GatherNDKernel);
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 0, &k->elemSize_));
    auto data = shapeOf(op.input_desc(0)), indices = shapeOf(op.input_desc(1));
    const int64_t b = attrInt(op, "batch_dims", 0);
    const int64_t r = data.size(), q = indices.size();
    if (q < 1 || b < 0 || b >= std::min(r, q))
      return opError(op, "batch_dims is out of range");
    const int64_t m = indices.back();
    if (m < 1 || b + m > r)
      return opError(op, "the last dim of indices exceeds the data's rank");
    auto strides = stridesOf(data);
    k->depth_ = m;
    k->dims_.assign(data.begin() + b, data.begin() + b + m);
    k->strides_.assign(strides.begin() + b, strides.begin() + b + m);
    k->batchStride_ = b ? strides[b - 1] : 0;
    k->slice_ = product({data.begin() + b + m, data.end()});
    k->tuplesPerBatch_ = product({indices.begin() + b, indices.end() - 1});
    k->label_ = errorLabel(op);
    k->idxType_ = op.input_desc(1).dtype();
    k->indices_ = constantInput(spec, 1);
    int64_t tuples = product({indices.begin(), indices.end() - 1});
    if (tuples * k->slice_ != numElements(op.output_desc(0)))
      return opError(op, "output has the wrong element count");
    k->setPlan(op, tuples,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->slice_)),
               0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    const void *indices = operandData(indices_, inputs, 1);
    const int64_t sliceBytes = slice_ * static_cast<int64_t>(elemSize_);
    for (int64_t t = r.begin; t < r.end; ++t) {
      int64_t offset = (t / tuplesPerBatch_) * batchStride_;
      for (int64_t d = 0; d < depth_; ++d) {
        int64_t i = loadIndex(indices, idxType_, t * depth_ + d);
        int64_t j = wrapIndex(i, dims_[d]);
        if (j < 0)
          return indexOutOfRange(label_, i, dims_[d]);
        offset += j * strides_[d];
      }
      std::memcpy(o + t * sliceBytes, in + offset * elemSize_, sliceBytes);
    }
    return rt::Status::ok();
  }

private:
  GatherNDKernel() = default;
  int64_t depth_ = 1, slice_ = 1, batchStride_ = 0, tuplesPerBatch_ = 1;
  std::vector<int64_t> dims_, strides_;
  size_t elemSize_ = 0;
  om::DataType idxType_ = om::DT_INT64;
  const void *indices_ = nullptr;
  om::OpDef label_;
};

// --- scatter_nd and max_unpool -----------------------------------------------

/// Where the index tuples point. ScatterND: tuple k is indices[k, :] over
/// the leading dims of data. MaxUnpool: indices[k] is a flat position in the
/// unpooled shape `dims`, placed at the same coordinates of the output
/// (which output_shape may make larger).
struct SliceTargets {
  bool flat = false;
  int64_t depth = 1;                  // index values per tuple
  std::vector<int64_t> dims;          // the dims the index addresses
  std::vector<int64_t> targetStrides; // of those dims, in output slices
  int64_t flatSize = 0;               // flat: product(dims)
};

class SliceScatterKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<SliceScatterKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 1));
    auto k = std::unique_ptr<SliceScatterKernel>(new SliceScatterKernel);
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 0, &k->elemSize_));
    k->unpool_ = op.type() == "max_unpool";
    GEFLOW_RT_RETURN_IF_ERROR(k->unpool_ ? k->makeUnpool(op)
                                         : k->makeScatterNd(op));
    k->dtype_ = op.input_desc(0).dtype();
    if (k->reduction_ != Reduction::kNone &&
        !dispatch(ReduceTypes{}, k->dtype_, [](auto) {}))
      return unsupportedDtype(op, k->dtype_);
    k->label_ = errorLabel(op);
    k->idxType_ = op.input_desc(1).dtype();
    k->indices_ = constantInput(spec, 1);
    k->numTuples_ = numElements(op.input_desc(1)) / k->targets_.depth;
    // A zero-size slice leaves nothing to write.
    int64_t outSlices =
        k->slice_ ? numElements(op.output_desc(0)) / k->slice_ : 0;
    k->setPlan(op, outSlices,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->slice_)),
               k->reduction_ == Reduction::kNone
                   ? 0
                   : static_cast<double>(k->numTuples_ * k->slice_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    // Own the slices first: copy data (ScatterND) or zero (MaxUnpool).
    const int64_t bytes = slice_ * static_cast<int64_t>(elemSize_);
    auto *o = static_cast<char *>(outputs[0].data);
    if (unpool_)
      std::memset(o + r.begin * bytes, 0, (r.end - r.begin) * bytes);
    else
      std::memcpy(o + r.begin * bytes,
                  static_cast<const char *>(inputs[0].data) + r.begin * bytes,
                  (r.end - r.begin) * bytes);
    rt::Status st = rt::Status::ok();
    if (reduction_ == Reduction::kNone) {
      dispatchBySize(elemSize_, [&](auto tag) {
        using U = typename decltype(tag)::type;
        withCombine<U>(Reduction::kNone, [&](auto combine) {
          st = apply<U>(inputs, outputs, r, combine);
        });
      });
      return st;
    }
    dispatch(ReduceTypes{}, dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      withCombine<T>(reduction_, [&](auto combine) {
        st = apply<T>(inputs, outputs, r, combine);
      });
    });
    return st;
  }

private:
  SliceScatterKernel() = default;

  rt::Status makeScatterNd(const om::OpDef &op) {
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    GEFLOW_RT_RETURN_IF_ERROR(parseReduction(op, &reduction_));
    auto data = shapeOf(op.input_desc(0)), indices = shapeOf(op.input_desc(1));
    if (indices.empty() || indices.back() < 1 ||
        indices.back() > static_cast<int64_t>(data.size()))
      return opError(op, "the last dim of indices must be in [1, rank(data)]");
    const int64_t m = indices.back();
    targets_.depth = m;
    targets_.dims.assign(data.begin(), data.begin() + m);
    targets_.targetStrides = stridesOf(targets_.dims);
    slice_ = product({data.begin() + m, data.end()});
    updatesInput_ = 2;
    if (numElements(op.input_desc(2)) !=
        numElements(op.input_desc(1)) / m * slice_)
      return opError(op, "updates must have shape indices.shape[:-1] + "
                         "data.shape[m:]");
    return rt::Status::ok();
  }

  rt::Status makeUnpool(const om::OpDef &op) {
    auto x = shapeOf(op.input_desc(0)), out = shapeOf(op.output_desc(0));
    const size_t spatial = x.size() < 2 ? 0 : x.size() - 2;
    std::vector<int64_t> kernel = attrInts(op, "kernel_shape"),
                         pads = attrInts(op, "pads"),
                         strides = attrInts(op, "strides");
    if (pads.empty())
      pads.assign(2 * spatial, 0);
    if (strides.empty())
      strides.assign(spatial, 1);
    if (spatial == 0 || kernel.size() != spatial ||
        pads.size() != 2 * spatial || strides.size() != spatial ||
        out.size() != x.size())
      return opError(op, "kernel_shape, pads and strides do not fit X");
    if (shapeOf(op.input_desc(1)) != x)
      return opError(op, "indices must have the shape of X");
    // The unpooled shape the indices address: pooling's input shape.
    std::vector<int64_t> dims(x.begin(), x.begin() + 2);
    for (size_t i = 0; i < spatial; ++i)
      dims.push_back((x[i + 2] - 1) * strides[i] + kernel[i] - pads[i] -
                     pads[i + spatial]);
    for (size_t d = 0; d < dims.size(); ++d)
      if (dims[d] > out[d])
        return opError(op, "output_shape is smaller than the unpooled shape");
    targets_.flat = true;
    targets_.depth = 1;
    targets_.dims = dims;
    targets_.targetStrides = stridesOf(out);
    targets_.flatSize = product(dims);
    slice_ = 1;
    updatesInput_ = 0;
    return rt::Status::ok();
  }

  /// The output slice tuple k writes, or an error for an index outside.
  rt::Status target(const void *indices, int64_t k, int64_t *slice) const {
    const SliceTargets &t = targets_;
    int64_t offset = 0;
    if (t.flat) {
      int64_t i = loadIndex(indices, idxType_, k);
      if (i < 0 || i >= t.flatSize)
        return indexOutOfRange(label_, i, t.flatSize);
      for (size_t d = t.dims.size(); d-- > 0;) {
        offset += (i % t.dims[d]) * t.targetStrides[d];
        i /= t.dims[d];
      }
    } else {
      for (int64_t d = 0; d < t.depth; ++d) {
        int64_t i = loadIndex(indices, idxType_, k * t.depth + d);
        int64_t j = wrapIndex(i, t.dims[d]);
        if (j < 0)
          return indexOutOfRange(label_, i, t.dims[d]);
        offset += j * t.targetStrides[d];
      }
    }
    *slice = offset;
    return rt::Status::ok();
  }

  template <class T, class Combine>
  rt::Status apply(const TensorView *inputs, const TensorView *outputs,
                   BlockRange r, Combine combine) const {
    const void *indices = operandData(indices_, inputs, 1);
    auto *updates = static_cast<const T *>(inputs[updatesInput_].data);
    auto *o = static_cast<T *>(outputs[0].data);
    for (int64_t k = 0; k < numTuples_; ++k) {
      int64_t s = 0;
      GEFLOW_RT_RETURN_IF_ERROR(target(indices, k, &s));
      if (s < r.begin || s >= r.end)
        continue;
      T *dst = o + s * slice_;
      const T *src = updates + k * slice_;
      for (int64_t e = 0; e < slice_; ++e)
        combine(dst[e], src[e]);
    }
    return rt::Status::ok();
  }

  bool unpool_ = false;
  SliceTargets targets_;
  Reduction reduction_ = Reduction::kNone;
  int64_t slice_ = 1, numTuples_ = 0;
  int updatesInput_ = 2;
  size_t elemSize_ = 0;
  om::DataType dtype_ = om::DT_FLOAT;
  om::DataType idxType_ = om::DT_INT64;
  const void *indices_ = nullptr;
  om::OpDef label_;
};

} // namespace

void geflow::kernels::registerGatherScatterNdKernels(KernelRegistry &registry) {
  registry.serve("GatherNDKernel", entryFor<GatherNDKernel>());
  registry.serve("ScatterNDKernel", entryFor<SliceScatterKernel>());
  registry.serve("MaxUnpoolKernel", entryFor<SliceScatterKernel>());
}
