//===- LayoutOps.cpp - depth_to_space, space_to_depth, reverse_sequence ---===//
//
// Permutations of a tensor's elements. DepthToSpace and SpaceToDepth are a
// reshape-transpose-reshape whose input offset is a sum of one term per
// output dim, so they are IndexMaps (VectorSupport.h), built once at
// creation, as transpose is; they stay ops of their own rather than three
// ge ops so that the IR keeps ONNX's one node and the copy is one pass.
// ReverseSequence depends on the sequence_lens values, so it copies rows.
//
// Block split: contiguous ranges of output elements (reverse_sequence: of
// [time, batch] rows), grain 4096 elements. Cost: no FLOPs; bytes = inputs
// read + output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;
using namespace geflow::kernels::idx;

namespace {

/// One IndexMap table: the input offset f(j) of each index j of an output
/// dim of `size`.
template <class F> std::vector<int64_t> table(int64_t size, F &&f) {
  std::vector<int64_t> t(size);
  for (int64_t j = 0; j < size; ++j)
    t[j] = f(j);
  return t;
}

/// DepthToSpace ([N, C, H, W] -> [N, C/b^2, H*b, W*b]); mode DCR reads
/// channel (i*b + j)*C' + c, mode CRD channel c*b*b + i*b + j for output
/// pixel (h*b + i, w*b + j) of channel c.
rt::Status buildDepthToSpace(const om::OpDef &op, int64_t b, IndexMap *map) {
  auto in = shapeOf(op.input_desc(0)), out = shapeOf(op.output_desc(0));
  std::string mode = attrString(op, "mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    return opError(op, "mode '" + mode + "' is not DCR or CRD");
  if (out != std::vector<int64_t>{in[0], in[1] / (b * b), in[2] * b, in[3] * b})
    return opError(op, "output shape does not match blocksize");
  auto s = stridesOf(in);
  const bool dcr = mode == "DCR";
  const int64_t c2 = out[1];
  // Channel steps of the block row i and block column j.
  const int64_t rowStep = dcr ? b * c2 * s[1] : b * s[1];
  const int64_t colStep = dcr ? c2 * s[1] : s[1];
  map->dims = out;
  map->offsets = {
      table(out[0], [&](int64_t n) { return n * s[0]; }),
      table(out[1], [&](int64_t c) { return c * (dcr ? 1 : b * b) * s[1]; }),
      table(out[2], [&](int64_t y) { return y / b * s[2] + y % b * rowStep; }),
      table(out[3], [&](int64_t x) { return x / b * s[3] + x % b * colStep; }),
  };
  return rt::Status::ok();
}

/// SpaceToDepth ([N, C, H, W] -> [N, C*b^2, H/b, W/b]): output channel
/// (i*b + j)*C + c reads pixel (h*b + i, w*b + j) of channel c.
rt::Status buildSpaceToDepth(const om::OpDef &op, int64_t b, IndexMap *map) {
  auto in = shapeOf(op.input_desc(0)), out = shapeOf(op.output_desc(0));
  if (out != std::vector<int64_t>{in[0], in[1] * b * b, in[2] / b, in[3] / b})
    return opError(op, "output shape does not match blocksize");
  auto s = stridesOf(in);
  const int64_t c = in[1];
  map->dims = out;
  map->offsets = {
      table(out[0], [&](int64_t n) { return n * s[0]; }),
      table(out[1],
            [&](int64_t k) {
              int64_t block = k / c;
              return k % c * s[1] + block / b * s[2] + block % b * s[3];
            }),
      table(out[2], [&](int64_t h) { return h * b * s[2]; }),
      table(out[3], [&](int64_t w) { return w * b * s[3]; }),
  };
  return rt::Status::ok();
}

class SpaceDepthKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<SpaceDepthKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<SpaceDepthKernel>(new SpaceDepthKernel);
    GEFLOW_RT_RETURN_IF_ERROR(movableElemSize(op, 0, &k->elemSize_));
    const int64_t b = attrInt(op, "blocksize", 0);
    if (b < 1 || op.input_desc(0).shape_size() != 4 ||
        op.output_desc(0).shape_size() != 4)
      return opError(op, "needs a 4-D input and blocksize >= 1");
    GEFLOW_RT_RETURN_IF_ERROR(op.type() == "depth_to_space"
                                  ? buildDepthToSpace(op, b, &k->map_)
                                  : buildSpaceToDepth(op, b, &k->map_));
    k->map_.simplify();
    k->setPlan(op, numElements(op.output_desc(0)), kGrain, 0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    map_.copy(elemSize_, inputs[0].data, outputs[0].data, nullptr, r.begin,
              r.end);
    return rt::Status::ok();
  }

private:
  SpaceDepthKernel() = default;
  IndexMap map_;
  size_t elemSize_ = 0;
};

// --- reverse_sequence --------------------------------------------------------

/// The first two dims are time and batch in either order; row (t, b) of the
/// output reads row (len[b] - 1 - t, b) when t < len[b], else itself.
class ReverseSequenceKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<ReverseSequenceKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 1));
    auto k = std::unique_ptr<ReverseSequenceKernel>(new ReverseSequenceKernel);
    auto shape = shapeOf(op.input_desc(0));
    k->batchAxis_ = attrInt(op, "batch_axis", 1);
    int64_t timeAxis = attrInt(op, "time_axis", 0);
    if (shape.size() < 2 || k->batchAxis_ + timeAxis != 1 ||
        k->batchAxis_ * timeAxis != 0)
      return opError(op, "batch_axis and time_axis must be 0 and 1");
    k->batch_ = shape[k->batchAxis_];
    k->time_ = shape[timeAxis];
    if (numElements(op.input_desc(1)) != k->batch_)
      return opError(op, "sequence_lens needs one length per batch entry");
    k->rowBytes_ = product({shape.begin() + 2, shape.end()}) *
                   dtypeSize(op.input_desc(0).dtype());
    k->lensType_ = op.input_desc(1).dtype();
    k->lens_ = constantInput(spec, 1);
    k->label_ = errorLabel(op);
    k->setPlan(
        op, k->batch_ * k->time_,
        std::max<int64_t>(1, kGrain * 4 / std::max<int64_t>(1, k->rowBytes_)),
        0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *in = static_cast<const char *>(inputs[0].data);
    auto *o = static_cast<char *>(outputs[0].data);
    const void *lens = operandData(lens_, inputs, 1);
    // Row index of (t, b) in memory: the first dim varies slowest.
    auto row = [&](int64_t t, int64_t b) {
      return batchAxis_ == 0 ? b * time_ + t : t * batch_ + b;
    };
    for (int64_t p = r.begin; p < r.end; ++p) {
      int64_t first = p / (batchAxis_ == 0 ? time_ : batch_),
              second = p % (batchAxis_ == 0 ? time_ : batch_);
      int64_t b = batchAxis_ == 0 ? first : second,
              t = batchAxis_ == 0 ? second : first;
      int64_t len = loadIndex(lens, lensType_, b);
      if (len < 0 || len > time_)
        return opError(label_, "sequence_lens[" + std::to_string(b) + "] = " +
                                   std::to_string(len) + " is outside [0, " +
                                   std::to_string(time_) + "]");
      int64_t from = t < len ? len - 1 - t : t;
      std::memcpy(o + p * rowBytes_, in + row(from, b) * rowBytes_, rowBytes_);
    }
    return rt::Status::ok();
  }

private:
  ReverseSequenceKernel() = default;
  int64_t batchAxis_ = 1, batch_ = 0, time_ = 0, rowBytes_ = 0;
  om::DataType lensType_ = om::DT_INT64;
  const void *lens_ = nullptr;
  om::OpDef label_;
};

} // namespace

void geflow::kernels::registerLayoutKernels(KernelRegistry &registry) {
  registry.serve("SpaceDepthKernel", entryFor<SpaceDepthKernel>());
  registry.serve("ReverseSequenceKernel", entryFor<ReverseSequenceKernel>());
}
