//===- IndexMapOps.cpp - transpose, slice, tile, expand, pad --------------===//
//
// Ops whose output element reads one input element (or pad's constant) at an
// offset that is a sum of one term per output dim. Byte-wise: every dtype of
// up to 8 bytes moves, none is interpreted (except shape operands).
//
// Block split: contiguous ranges of output elements with grain 4096 elements.
// Cost: no FLOPs; bytes = inputs read + outputs written.
// Computation: an IndexMap (per output dim, the input offset of each index)
// built at creation, or per run when a shape operand is not constant.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/layout/TransposeTiles.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

/// The bytes of each input for one build: constants at creation, tensors at
/// run.
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

/// The transpose's permutation: `perm`, or the dims reversed without it;
/// each entry an input dim, each dim once.
rt::Status transposePerm(const om::OpDef &op, int64_t rank,
                         std::vector<int64_t> *perm) {
  *perm = attrInts(op, "perm");
  if (perm->empty())
    for (int64_t d = rank - 1; d >= 0; --d)
      perm->push_back(d);
  if (static_cast<int64_t>(perm->size()) != rank)
    return opError(op, "perm must list every dim");
  std::vector<bool> seen(rank, false);
  for (int64_t &p : *perm) {
    p = normalizeAxis(p, rank);
    if (p < 0 || p >= rank || seen[p])
      return opError(op, "perm is not a permutation");
    seen[p] = true;
  }
  return rt::Status::ok();
}

rt::Status buildTranspose(const om::OpDef &op, const Operands &,
                          IndexMap *map) {
  auto in = shapeOf(op.input_desc(0));
  std::vector<int64_t> perm;
  GEFLOW_RT_RETURN_IF_ERROR(
      transposePerm(op, static_cast<int64_t>(in.size()), &perm));
  auto strides = stridesOf(in);
  IndexMap m;
  for (int64_t p : perm) {
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
      return opError(op,
                     "axis " + std::to_string(axes[i]) + " is out of range");
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
    int64_t len = step > 0
                      ? std::max<int64_t>(0, (e - s + step - 1) / step)
                      : std::max<int64_t>(0, (s - e + (-step) - 1) / (-step));
    if (len != out[a])
      return opError(op, "slice of axis " + std::to_string(a) + " has " +
                             std::to_string(len) +
                             " elements but the output has " +
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
  return mode == "constant"  ? 0
         : mode == "edge"    ? 1
         : mode == "reflect" ? 2
                             : -1;
}

rt::Status buildPad(const om::OpDef &op, const Operands &in, IndexMap *map) {
  auto shape = shapeOf(op.input_desc(0));
  auto out = shapeOf(op.output_desc(0));
  const int64_t rank = static_cast<int64_t>(shape.size());
  int mode = padMode(op);
  if (mode < 0)
    return opError(op, "mode '" + attrString(op, "mode", "") +
                           "' is not supported");
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
      return opError(op,
                     "axis " + std::to_string(axes[i]) + " is out of range");
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
rt::Status buildAsStrided(const om::OpDef &op, const Operands &,
                          IndexMap *map) {
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
  if (product(out) > 0 &&
      (map->base < 0 || negative || last >= numElements(op.input_desc(0))))
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
      return opError(op, "mode '" + attrString(op, "mode", "") +
                             "' is not supported");
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
    // 4-byte elements permuted as 2-D transposes (NCHW <-> NHWC) go in
    // tiles, not one gather per element.
    if (op.type() == "transpose" && k->elemSize_ == sizeof(float)) {
      auto shape = shapeOf(op.input_desc(0));
      std::vector<int64_t> perm;
      GEFLOW_RT_RETURN_IF_ERROR(
          transposePerm(op, static_cast<int64_t>(shape.size()), &perm));
      k->tiled_ = nn::asPlaneTranspose(shape, perm, &k->planes_);
    }
    if (k->tiled_) // blocks of whole bands: kGrain elements or more
      k->setPlan(
          op, nn::transposeBands(k->planes_),
          std::max<int64_t>(1, kGrain / (nn::kTransposeBand * k->planes_.rows)),
          0);
    else
      k->setPlan(op, numElements(op.output_desc(0)), kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    if (tiled_) {
      nn::transposePlanes(planes_, static_cast<const float *>(inputs[0].data),
                          static_cast<float *>(outputs[0].data), r.begin,
                          r.end);
      return rt::Status::ok();
    }
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
  bool tiled_ = false; // a transpose of planes_ (TransposeTiles.h)
  nn::PlaneTranspose planes_;
  size_t elemSize_ = 0;
};

} // namespace

void geflow::kernels::registerIndexMapKernels(KernelRegistry &registry) {
  registry.serve("IndexMapKernel", entryFor<IndexMapKernel>());
}
