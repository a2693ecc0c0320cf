//===- DataMovement.cpp - Data movement kernels -----------------------------===//
//
// Byte-wise kernels: every dtype moves, none is interpreted (except shape
// operands). shape, constant_of_shape and range are in VectorShapeOps.cpp.
//
// Block split: contiguous ranges of output elements (gather: of output rows;
// split: of input elements) with grain 4096 elements. Cost: no FLOPs (range: one
// per element); bytes = inputs read + outputs written.
// Computation: reshape-likes are one memcpy per block; transpose, slice, tile,
// expand and pad are an IndexMap (per output dim, the input offset of each
// index) built at creation, or per run when a shape operand is not constant;
// concat and split copy contiguous segments; gather copies inner rows.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/VectorSupport.h"

#include <algorithm>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- reshape, flatten, squeeze, unsqueeze, dropout -------------------------------

/// Output 0 is input 0's bytes; dropout's optional mask output is all true.
class CopyKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec, std::unique_ptr<CopyKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<CopyKernel>(new CopyKernel);
    k->bytes_ = numElements(op.output_desc(0)) * dtypeSize(op.output_desc(0).dtype());
    if (op.output_desc(0).dtype() != op.input_desc(0).dtype() ||
        numElements(op.output_desc(0)) != numElements(op.input_desc(0)))
      return opError(op, "output must have the input's dtype and element count");
    if (op.output_desc_size() > 1)
      k->maskBytes_ = numElements(op.output_desc(1)) * dtypeSize(op.output_desc(1).dtype());
    // Dropout runs in inference form only: training_mode must be false, or
    // the ratio 0 (then training is the identity too).
    if (op.type() == "dropout" && hasInput(op, 2)) {
      k->trainingMode_ = true;
      k->trainingConst_ = constantInput(spec, 2);
      k->ratioConst_ = constantInput(spec, 1);
      k->ratioDtype_ = hasInput(op, 1) ? op.input_desc(1).dtype() : om::DT_UNDEFINED;
      k->op_.set_name(op.name());
      k->op_.set_type(op.type());
      if (k->trainingConst_ && (!hasInput(op, 1) || k->ratioConst_))
        GEFLOW_RT_RETURN_IF_ERROR(k->checkInference(k->trainingConst_, k->ratioConst_));
    }
    // Split over bytes in chunks worth kGrain float elements.
    k->setPlan(op, k->bytes_ + k->maskBytes_, kGrain * 4, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    if (trainingMode_)
      GEFLOW_RT_RETURN_IF_ERROR(checkInference(
          operandData(trainingConst_, inputs, 2),
          ratioDtype_ != om::DT_UNDEFINED ? operandData(ratioConst_, inputs, 1) : nullptr));
    BlockRange r = blockRange(bytes_, blockIdx, blockDim);
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    if (r.end > r.begin && in != o)
      std::memcpy(o + r.begin, in + r.begin, r.end - r.begin);
    if (maskBytes_ && outputs[1].data) {
      BlockRange m = blockRange(maskBytes_, blockIdx, blockDim);
      std::memset(static_cast<char *>(outputs[1].data) + m.begin, 1, m.end - m.begin);
    }
    return rt::Status::ok();
  }

private:
  CopyKernel() = default;
  int64_t bytes_ = 0, maskBytes_ = 0;
  rt::Status checkInference(const void *training, const void *ratio) const {
    // ONNX: the ratio defaults to 0.5.
    double r = ratio ? loadAsDouble(ratio, ratioDtype_, 0) : 0.5;
    if (training && *static_cast<const uint8_t *>(training) && r != 0)
      return opError(op_, "training_mode=true is not supported (inference only)");
    return rt::Status::ok();
  }
  bool trainingMode_ = false;
  const void *trainingConst_ = nullptr, *ratioConst_ = nullptr;
  om::DataType ratioDtype_ = om::DT_UNDEFINED;
  om::OpDef op_;
};

// --- index-map ops ---------------------------------------------------------------

/// The bytes of each input for one build: constants at creation, tensors at run.
struct Operands {
  std::vector<const void *> data;
  const void *at(int i) const {
    return i < static_cast<int>(data.size()) ? data[i] : nullptr;
  }
};

using MapBuilder = rt::Status (*)(const om::OpDef &op, const Operands &in,
                                  IndexMap *map);

/// Identity tables for every dim of `shape` (row-major strides).
IndexMap identityMap(const std::vector<int64_t> &shape) {
  IndexMap m;
  m.dims = shape;
  auto strides = stridesOf(shape);
  for (size_t d = 0; d < shape.size(); ++d) {
    std::vector<int64_t> t(shape[d]);
    for (int64_t j = 0; j < shape[d]; ++j)
      t[j] = j * strides[d];
    m.offsets.push_back(std::move(t));
  }
  return m;
}

rt::Status buildTranspose(const om::OpDef &op, const Operands &, IndexMap *map) {
  auto in = shapeOf(op.input_desc(0));
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> perm = attrInts(op, "perm");
  if (perm.empty())
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != rank)
    return opError(op, "perm must list every dim");
  auto strides = stridesOf(in);
  IndexMap m;
  std::vector<bool> seen(rank, false);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t p = normalizeAxis(perm[d], rank);
    if (p < 0 || p >= rank || seen[p])
      return opError(op, "perm is not a permutation");
    seen[p] = true;
    m.dims.push_back(in[p]);
    std::vector<int64_t> t(in[p]);
    for (int64_t j = 0; j < in[p]; ++j)
      t[j] = j * strides[p];
    m.offsets.push_back(std::move(t));
  }
  *map = std::move(m);
  return rt::Status::ok();
}

/// Output dim d reads input dim d (aligned to the right) modulo its size:
/// expand (input dim 1 or equal) and tile (output = input * repeats).
rt::Status buildRepeat(const om::OpDef &op, const Operands &, IndexMap *map) {
  auto in = shapeOf(op.input_desc(0));
  auto out = shapeOf(op.output_desc(0));
  if (in.size() > out.size())
    return opError(op, "output rank is below the input rank");
  auto strides = stridesOf(in);
  const size_t lead = out.size() - in.size();
  IndexMap m;
  m.dims = out;
  for (size_t d = 0; d < out.size(); ++d) {
    std::vector<int64_t> t(out[d], 0);
    if (d >= lead) {
      int64_t n = in[d - lead], s = strides[d - lead];
      if (n == 0 || out[d] % n != 0)
        return opError(op, "output dim " + std::to_string(d) +
                               " is not a multiple of the input dim");
      for (int64_t j = 0; j < out[d]; ++j)
        t[j] = (j % n) * s;
    }
    m.offsets.push_back(std::move(t));
  }
  *map = std::move(m);
  return rt::Status::ok();
}

rt::Status buildSlice(const om::OpDef &op, const Operands &in, IndexMap *map) {
  auto shape = shapeOf(op.input_desc(0));
  auto out = shapeOf(op.output_desc(0));
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (!in.at(1) || !in.at(2))
    return opError(op, "starts and ends are required");
  auto starts = loadInts(in.at(1), op.input_desc(1));
  auto ends = loadInts(in.at(2), op.input_desc(2));
  std::vector<int64_t> axes, steps;
  if (hasInput(op, 3) && in.at(3))
    axes = loadInts(in.at(3), op.input_desc(3));
  else
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  if (hasInput(op, 4) && in.at(4))
    steps = loadInts(in.at(4), op.input_desc(4));
  else
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return opError(op, "starts, ends, axes and steps differ in length");
  IndexMap m = identityMap(shape);
  m.dims = out;
  auto strides = stridesOf(shape);
  for (size_t i = 0; i < starts.size(); ++i) {
    int64_t a = normalizeAxis(axes[i], rank);
    if (a < 0 || a >= rank)
      return opError(op, "axis " + std::to_string(axes[i]) + " is out of range");
    int64_t dim = shape[a], step = steps[i];
    if (step == 0)
      return opError(op, "a step is 0");
    int64_t s = starts[i], e = ends[i];
    if (s < 0)
      s += dim;
    if (e < 0)
      e += dim;
    // ONNX clamping: [0, dim] for positive steps, [0, dim-1] / [-1, dim-1] for
    // negative ones.
    if (step > 0) {
      s = std::clamp<int64_t>(s, 0, dim);
      e = std::clamp<int64_t>(e, 0, dim);
    } else {
      s = std::clamp<int64_t>(s, 0, dim - 1);
      e = std::clamp<int64_t>(e, -1, dim - 1);
    }
    int64_t len = step > 0 ? std::max<int64_t>(0, (e - s + step - 1) / step)
                           : std::max<int64_t>(0, (s - e + (-step) - 1) / (-step));
    if (len != out[a])
      return opError(op, "slice of axis " + std::to_string(a) + " has " +
                             std::to_string(len) + " elements but the output has " +
                             std::to_string(out[a]));
    std::vector<int64_t> t(len);
    for (int64_t j = 0; j < len; ++j)
      t[j] = (s + j * step) * strides[a];
    m.offsets[a] = std::move(t);
  }
  *map = std::move(m);
  return rt::Status::ok();
}

/// Where output index j of a padded dim reads, or -1 for the constant.
int64_t padSource(int64_t j, int64_t before, int64_t n, int mode) {
  int64_t s = j - before;
  if (s >= 0 && s < n)
    return s;
  if (mode == 0 || n == 0)
    return -1;
  if (mode == 1) // edge
    return std::clamp<int64_t>(s, 0, n - 1);
  if (n == 1) // reflect
    return 0;
  const int64_t period = 2 * (n - 1);
  s %= period;
  if (s < 0)
    s += period;
  return s < n ? s : period - s;
}

int padMode(const om::OpDef &op) {
  std::string mode = attrString(op, "mode", "constant");
  return mode == "constant" ? 0 : mode == "edge" ? 1 : mode == "reflect" ? 2 : -1;
}

rt::Status buildPad(const om::OpDef &op, const Operands &in, IndexMap *map) {
  auto shape = shapeOf(op.input_desc(0));
  auto out = shapeOf(op.output_desc(0));
  const int64_t rank = static_cast<int64_t>(shape.size());
  int mode = padMode(op);
  if (mode < 0)
    return opError(op, "mode '" + attrString(op, "mode", "") + "' is not supported");
  if (!in.at(1))
    return opError(op, "pads is required");
  auto pads = loadInts(in.at(1), op.input_desc(1));
  std::vector<int64_t> axes;
  if (hasInput(op, 3) && in.at(3))
    axes = loadInts(in.at(3), op.input_desc(3));
  else
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  if (pads.size() != 2 * axes.size())
    return opError(op, "pads must hold 2 values per padded axis");
  std::vector<int64_t> before(shape.size(), 0), after(shape.size(), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = normalizeAxis(axes[i], rank);
    if (a < 0 || a >= rank)
      return opError(op, "axis " + std::to_string(axes[i]) + " is out of range");
    before[a] = pads[i];
    after[a] = pads[i + axes.size()];
  }
  auto strides = stridesOf(shape);
  IndexMap m;
  m.dims = out;
  for (int64_t d = 0; d < rank; ++d) {
    if (shape[d] + before[d] + after[d] != out[d])
      return opError(op, "pads do not give the output shape");
    std::vector<int64_t> t(out[d]);
    for (int64_t j = 0; j < out[d]; ++j) {
      int64_t s = padSource(j, before[d], shape[d], mode);
      t[j] = s < 0 ? IndexMap::kFill : s * strides[d];
    }
    m.offsets.push_back(std::move(t));
  }
  *map = std::move(m);
  return rt::Status::ok();
}

/// as_strided (made by ge-fuse-layout): output element (i_0, ...) reads
/// input element offset + sum_d i_d * strides[d].
rt::Status buildAsStrided(const om::OpDef &op, const Operands &, IndexMap *map) {
  std::vector<int64_t> out = shapeOf(op.output_desc(0));
  std::vector<int64_t> strides = attrInts(op, "strides");
  if (strides.size() != out.size())
    return opError(op, "needs one stride per output dim");
  map->dims = out;
  map->base = attrInt(op, "offset", 0);
  int64_t last = map->base;
  for (size_t d = 0; d < out.size(); ++d) {
    std::vector<int64_t> t(out[d]);
    for (int64_t j = 0; j < out[d]; ++j)
      t[j] = j * strides[d];
    map->offsets.push_back(std::move(t));
    last += (out[d] - 1) * strides[d];
  }
  bool negative = std::any_of(strides.begin(), strides.end(),
                              [](int64_t s) { return s < 0; });
  if (product(out) > 0 && (map->base < 0 || negative ||
                           last >= numElements(op.input_desc(0))))
    return opError(op, "reads outside its input");
  return rt::Status::ok();
}

struct MapOpInfo {
  MapBuilder build;
  std::vector<int> operands; // inputs whose values the map depends on
  int fillInput;             // input holding the fill value, or -1
};

const MapOpInfo *findMapOp(const std::string &type) {
  static const std::unordered_map<std::string, MapOpInfo> table = {
      {"transpose", {&buildTranspose, {}, -1}},
      {"expand", {&buildRepeat, {}, -1}},
      {"tile", {&buildRepeat, {}, -1}},
      {"slice", {&buildSlice, {1, 2, 3, 4}, -1}},
      {"pad", {&buildPad, {1, 3}, 2}},
      {"as_strided", {&buildAsStrided, {}, -1}},
  };
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

class IndexMapKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<IndexMapKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    const MapOpInfo *info = findMapOp(op.type());
    if (!info)
      return opError(op, "not an index-map op");
    auto k = std::unique_ptr<IndexMapKernel>(new IndexMapKernel);
    k->op_ = op;
    k->info_ = info;
    k->elemSize_ = dtypeSize(op.input_desc(0).dtype());
    if (k->elemSize_ == 0 || k->elemSize_ > 8 ||
        op.output_desc(0).dtype() != op.input_desc(0).dtype())
      return unsupportedDtype(op, op.input_desc(0).dtype());
    if (op.type() == "pad" && padMode(op) < 0)
      return opError(op, "mode '" + attrString(op, "mode", "") + "' is not supported");
    Operands constants;
    bool allConstant = true;
    for (int i = 0; i < op.input_desc_size(); ++i)
      constants.data.push_back(constantInput(spec, i));
    for (int i : info->operands)
      if (hasInput(op, i) && !constants.at(i))
        allConstant = false;
    if (allConstant) {
      GEFLOW_RT_RETURN_IF_ERROR(info->build(op, constants, &k->map_));
      k->map_.simplify();
      k->prebuilt_ = true;
    }
    int64_t n = numElements(op.output_desc(0));
    k->n_ = n;
    k->setPlan(op, n, kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    BlockRange r = blockRange(n_, blockIdx, blockDim);
    if (r.begin >= r.end)
      return rt::Status::ok();
    const IndexMap *map = &map_;
    IndexMap local;
    if (!prebuilt_) {
      // A shape operand computed at run time: every block builds the (small)
      // per-dim tables itself.
      Operands in;
      for (int i = 0; i < op_.input_desc_size(); ++i)
        in.data.push_back(hasInput(op_, i) ? inputs[i].data : nullptr);
      GEFLOW_RT_RETURN_IF_ERROR(info_->build(op_, in, &local));
      local.simplify();
      map = &local;
    }
    alignas(8) unsigned char fill[8] = {0};
    if (info_->fillInput >= 0 && hasInput(op_, info_->fillInput) &&
        inputs[info_->fillInput].data)
      std::memcpy(fill, inputs[info_->fillInput].data, elemSize_);
    map->copy(elemSize_, inputs[0].data, outputs[0].data, fill, r.begin, r.end);
    return rt::Status::ok();
  }

private:
  IndexMapKernel() = default;
  om::OpDef op_;
  const MapOpInfo *info_ = nullptr;
  IndexMap map_;
  bool prebuilt_ = false;
  size_t elemSize_ = 0;
  int64_t n_ = 0;
};

// --- concat / split --------------------------------------------------------------

/// A tensor viewed as [outer, rowLen] whose rows are the concatenation of one
/// chunk per part (part k: prefix[k+1] - prefix[k] elements of each row).
struct Segments {
  int64_t rowLen = 0;
  std::vector<int64_t> prefix; // size parts + 1

  /// Calls f(part, row, colInPart, len) for each piece of [begin, end).
  template <class F> void forEach(int64_t begin, int64_t end, F &&f) const {
    for (int64_t pos = begin; pos < end;) {
      int64_t row = pos / rowLen, col = pos % rowLen;
      size_t k = std::upper_bound(prefix.begin(), prefix.end(), col) - prefix.begin() - 1;
      int64_t len = std::min(prefix[k + 1] - col, end - pos);
      f(k, row, col - prefix[k], len);
      pos += len;
    }
  }
  int64_t chunk(size_t k) const { return prefix[k + 1] - prefix[k]; }
};

rt::Status makeSegments(const om::OpDef &op,
                        const google::protobuf::RepeatedPtrField<om::TensorDescriptor> &parts,
                        const om::TensorDescriptor &whole, Segments *seg) {
  auto shape = shapeOf(whole);
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = normalizeAxis(attrInt(op, "axis", op.type() == "split" ? 0 : 1), rank);
  if (axis < 0 || axis >= rank)
    return opError(op, "axis is out of range");
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= shape[d];
  seg->prefix = {0};
  int64_t sum = 0;
  for (const auto &p : parts) {
    if (p.shape_size() != rank)
      return opError(op, "parts differ in rank");
    sum += p.shape(axis);
    seg->prefix.push_back(sum * inner);
  }
  if (sum != shape[axis])
    return opError(op, "parts do not add up along the axis");
  seg->rowLen = sum * inner;
  return rt::Status::ok();
}

class ConcatKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec, std::unique_ptr<ConcatKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<ConcatKernel>(new ConcatKernel);
    k->split_ = op.type() == "split";
    k->elemSize_ = dtypeSize(op.input_desc(0).dtype());
    if (k->elemSize_ == 0)
      return unsupportedDtype(op, op.input_desc(0).dtype());
    if (k->split_)
      GEFLOW_RT_RETURN_IF_ERROR(makeSegments(op, op.output_desc(), op.input_desc(0), &k->seg_));
    else
      GEFLOW_RT_RETURN_IF_ERROR(makeSegments(op, op.input_desc(), op.output_desc(0), &k->seg_));
    k->n_ = numElements(k->split_ ? op.input_desc(0) : op.output_desc(0));
    k->setPlan(op, k->n_, kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    BlockRange r = blockRange(n_, blockIdx, blockDim);
    const size_t es = elemSize_;
    if (split_) {
      auto *in = static_cast<const char *>(inputs[0].data);
      seg_.forEach(r.begin, r.end, [&](size_t k, int64_t row, int64_t col, int64_t len) {
        auto *o = static_cast<char *>(outputs[k].data);
        std::memcpy(o + (row * seg_.chunk(k) + col) * es,
                    in + (row * seg_.rowLen + seg_.prefix[k] + col) * es, len * es);
      });
    } else {
      auto *o = static_cast<char *>(outputs[0].data);
      seg_.forEach(r.begin, r.end, [&](size_t k, int64_t row, int64_t col, int64_t len) {
        auto *in = static_cast<const char *>(inputs[k].data);
        std::memcpy(o + (row * seg_.rowLen + seg_.prefix[k] + col) * es,
                    in + (row * seg_.chunk(k) + col) * es, len * es);
      });
    }
    return rt::Status::ok();
  }

private:
  ConcatKernel() = default;
  bool split_ = false;
  Segments seg_;
  size_t elemSize_ = 0;
  int64_t n_ = 0;
};

// --- gather ----------------------------------------------------------------------

/// data [outer, axisDim, inner], indices [q] -> out [outer, q, inner]: one
/// inner-row copy per (outer, index).
class GatherKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec, std::unique_ptr<GatherKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<GatherKernel>(new GatherKernel);
    auto shape = shapeOf(op.input_desc(0));
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t axis = normalizeAxis(attrInt(op, "axis", 0), rank);
    if (axis < 0 || axis >= rank)
      return opError(op, "axis is out of range");
    k->idxType_ = op.input_desc(1).dtype();
    if (k->idxType_ != om::DT_INT32 && k->idxType_ != om::DT_INT64)
      return opError(op, "indices must be int32 or int64");
    k->elemSize_ = dtypeSize(op.input_desc(0).dtype());
    if (k->elemSize_ == 0)
      return unsupportedDtype(op, op.input_desc(0).dtype());
    k->outer_ = 1;
    for (int64_t d = 0; d < axis; ++d)
      k->outer_ *= shape[d];
    k->axisDim_ = shape[axis];
    k->inner_ = 1;
    for (int64_t d = axis + 1; d < rank; ++d)
      k->inner_ *= shape[d];
    k->q_ = numElements(op.input_desc(1));
    k->indices_ = constantInput(spec, 1);
    k->opName_.set_name(op.name());
    k->opName_.set_type(op.type());
    int64_t rows = k->outer_ * k->q_;
    k->setPlan(op, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(1, k->inner_)), 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    BlockRange r = blockRange(outer_ * q_, blockIdx, blockDim);
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    const void *idx = operandData(indices_, inputs, 1);
    const int64_t rowBytes = inner_ * elemSize_;
    for (int64_t row = r.begin; row < r.end; ++row) {
      int64_t outer = row / q_, i = row % q_;
      int64_t j = idxType_ == om::DT_INT64 ? static_cast<const int64_t *>(idx)[i]
                                           : static_cast<const int32_t *>(idx)[i];
      if (j < 0)
        j += axisDim_;
      if (j < 0 || j >= axisDim_)
        return opError(op(), "index " + std::to_string(j) + " is out of range");
      std::memcpy(o + row * rowBytes, in + (outer * axisDim_ + j) * rowBytes, rowBytes);
    }
    return rt::Status::ok();
  }

private:
  GatherKernel() = default;
  const om::OpDef &op() const { return opName_; }
  om::OpDef opName_;
  om::DataType idxType_ = om::DT_INT64;
  size_t elemSize_ = 0;
  int64_t outer_ = 1, axisDim_ = 1, inner_ = 1, q_ = 0;
  const void *indices_ = nullptr;
};

} // namespace

void geflow::kernels::registerDataMovementKernels(KernelRegistry &registry) {
  for (const char *type : {"reshape", "flatten", "squeeze", "unsqueeze", "dropout"})
    registry.add(type, entryFor<CopyKernel>());
  for (const char *type :
       {"transpose", "expand", "tile", "slice", "pad", "as_strided"})
    registry.add(type, entryFor<IndexMapKernel>());
  registry.add("concat", entryFor<ConcatKernel>());
  registry.add("split", entryFor<ConcatKernel>());
  registry.add("gather", entryFor<GatherKernel>());
  registerShapeKernels(registry);
}
