//===- Norm.cpp - batch, instance, layer and local response norms ---------===//
//
// Vector work (AIV), float32, inference form. Block split: batch_normalization,
// instance_normalization and lrn over N*C planes, layer_normalization over the
// rows (the dims before `axis`). Cost: a few FLOPs per element (2 for the
// batch norm's fused scale-and-shift, ~8 for the statistics and the
// normalisation, 2 * size + 10 for lrn's window and pow);
// bytes: input, parameters, outputs. Statistics are two-pass (mean, then the
// mean squared deviation) so large offsets do not cancel.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/Core>

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;

namespace {

using ArrayMap = Eigen::Map<Eigen::ArrayXf>;
using ConstArrayMap = Eigen::Map<const Eigen::ArrayXf>;

rt::Status checkParam(const om::OpDef &op, int i, int64_t elems,
                      const char *name) {
  if (!nn::hasInput(op, i))
    return opError(op, std::string("input ") + name + " is required");
  if (numElements(op.input_desc(i)) != elems)
    return opError(op, std::string(name) + " must have " +
                           std::to_string(elems) + " elements, got " +
                           std::to_string(numElements(op.input_desc(i))));
  return rt::Status::ok();
}

/// batch_normalization and instance_normalization: per-channel work on the
/// N*C planes of an [N, C, ...] input.
struct ChannelPlan {
  bool instance = false; // statistics from the plane, not from inputs
  int64_t batch = 0, channels = 0, planeSize = 0;
  float epsilon = 1e-5f;

  int64_t planes() const { return batch * channels; }
  double flopsPerElement() const { return instance ? 8.0 : 2.0; }
};

rt::Status analyzeChannelNorm(const om::OpDef &op, bool instance,
                              ChannelPlan *p) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.output_desc_size() != 1)
    return opError(op, "only the inference form (one output) is supported");
  if (!instance && attrInt(op, "training_mode", 0) != 0)
    return opError(op, "training_mode must be 0");
  std::vector<int64_t> x = shapeOf(op.input_desc(0));
  if (x.size() < 2 || (instance && x.size() < 3))
    return opError(op, "X must be [N, C, ...]");
  if (numElements(op.output_desc(0)) != numElements(op.input_desc(0)))
    return opError(op, "Y must have X's shape");
  p->instance = instance;
  p->batch = x[0];
  p->channels = x[1];
  p->planeSize = p->channels && p->batch
                     ? numElements(op.input_desc(0)) / (p->batch * p->channels)
                     : 0;
  p->epsilon = attrFloat(op, "epsilon", 1e-5f);
  int params = instance ? 3 : 5;
  if (op.input_desc_size() != params)
    return opError(op, "needs " + std::to_string(params) + " inputs");
  const char *names[] = {"scale", "B", "mean", "var"};
  for (int i = 1; i < params; ++i)
    GEFLOW_RT_RETURN_IF_ERROR(checkParam(op, i, p->channels, names[i - 1]));
  return rt::Status::ok();
}

template <bool Instance>
rt::Status planChannelNorm(const om::OpDef &op, KernelPlan *out) {
  ChannelPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeChannelNorm(op, Instance, &p));
  out->engine = rt::Engine::kAiv;
  out->maxBlocks = nn::blocksForVectorWork(
      p.planes(), p.flopsPerElement() * p.planeSize, 8.0 * p.planeSize);
  double elems = static_cast<double>(p.planes()) * p.planeSize;
  out->cost.flops = p.flopsPerElement() * elems;
  out->cost.bytes = 4.0 * (2 * elems + (Instance ? 2 : 4) * p.channels);
  return rt::Status::ok();
}

class ChannelNormKernel final : public Kernel {
public:
  explicit ChannelNormKernel(const ChannelPlan &p) : p_(p) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    const float *scale = static_cast<const float *>(inputs[1].data);
    const float *bias = static_cast<const float *>(inputs[2].data);
    float *y = static_cast<float *>(outputs[0].data);
    BlockRange planes = blockRange(p_.planes(), blockIdx, blockDim);
    const int64_t size = p_.planeSize;
    for (int64_t i = planes.begin; i < planes.end; ++i) {
      int64_t c = i % p_.channels;
      ConstArrayMap in(x + i * size, size);
      ArrayMap out(y + i * size, size);
      float mean, var;
      if (p_.instance) {
        mean = size ? in.sum() / static_cast<float>(size) : 0.0f;
        var =
            size ? (in - mean).square().sum() / static_cast<float>(size) : 0.0f;
      } else {
        mean = static_cast<const float *>(inputs[3].data)[c];
        var = static_cast<const float *>(inputs[4].data)[c];
      }
      float a = scale[c] / std::sqrt(var + p_.epsilon);
      float b = bias[c] - mean * a;
      out = in * a + b;
    }
    return rt::Status::ok();
  }

private:
  const ChannelPlan p_;
};

template <bool Instance>
rt::Status createChannelNorm(const KernelSpec &spec,
                             std::unique_ptr<Kernel> *out) {
  ChannelPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeChannelNorm(*spec.op, Instance, &p));
  *out = std::make_unique<ChannelNormKernel>(p);
  return rt::Status::ok();
}

//===----------------------------------------------------------------------===//
// layer_normalization: rows = prod(dims before axis), each normalised over
// cols = prod(dims from axis); Scale and B broadcast to the normalised dims.
// Optional outputs Mean and InvStdDev are written when the OpDef lists them.
//===----------------------------------------------------------------------===//

struct LayerPlan {
  int64_t rows = 0, cols = 0;
  float epsilon = 1e-5f;
  bool hasBias = false;
  // Per normalised element, its index in Scale / B (empty: the identity).
  std::vector<int64_t> scaleIndex, biasIndex;
  int outputs = 1;
  int64_t paramElems = 0;
};

/// Unidirectional broadcast of `param` to `target`; empty when they match.
rt::Status broadcastIndex(const om::OpDef &op,
                          const std::vector<int64_t> &param,
                          const std::vector<int64_t> &target, const char *name,
                          std::vector<int64_t> *index) {
  if (param == target)
    return rt::Status::ok();
  if (param.size() > target.size())
    return opError(op, std::string(name) +
                           " has more dims than the normalised shape");
  std::vector<int64_t> p(target.size() - param.size(), 1);
  p.insert(p.end(), param.begin(), param.end());
  std::vector<int64_t> stride(p.size(), 0);
  int64_t s = 1, total = 1;
  for (size_t i = p.size(); i-- > 0;) {
    if (p[i] != 1 && p[i] != target[i])
      return opError(op, std::string(name) +
                             " does not broadcast to the normalised shape");
    stride[i] = p[i] == 1 ? 0 : s;
    s *= p[i];
    total *= target[i];
  }
  index->resize(total);
  for (int64_t e = 0; e < total; ++e) {
    int64_t rest = e, off = 0;
    for (size_t i = p.size(); i-- > 0;) {
      off += (rest % target[i]) * stride[i];
      rest /= target[i];
    }
    (*index)[e] = off;
  }
  return rt::Status::ok();
}

rt::Status analyzeLayerNorm(const om::OpDef &op, LayerPlan *p) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() < 2)
    return opError(op, "needs inputs X and Scale");
  std::vector<int64_t> x = shapeOf(op.input_desc(0));
  int64_t rank = static_cast<int64_t>(x.size());
  int64_t axis = attrInt(op, "axis", -1);
  if (axis < -rank || axis >= rank)
    return opError(op, "axis " + std::to_string(axis) +
                           " is out of range for rank " + std::to_string(rank));
  if (axis < 0)
    axis += rank;
  p->rows = 1;
  p->cols = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? p->rows : p->cols) *= x[i];
  p->epsilon = attrFloat(op, "epsilon", 1e-5f);
  std::vector<int64_t> normalised(x.begin() + axis, x.end());
  GEFLOW_RT_RETURN_IF_ERROR(broadcastIndex(
      op, shapeOf(op.input_desc(1)), normalised, "Scale", &p->scaleIndex));
  p->paramElems = numElements(op.input_desc(1));
  p->hasBias = nn::hasInput(op, 2);
  if (p->hasBias) {
    GEFLOW_RT_RETURN_IF_ERROR(broadcastIndex(op, shapeOf(op.input_desc(2)),
                                             normalised, "B", &p->biasIndex));
    p->paramElems += numElements(op.input_desc(2));
  }
  p->outputs = op.output_desc_size();
  if (p->outputs > 3)
    return opError(op, "has more than three outputs");
  if (numElements(op.output_desc(0)) != p->rows * p->cols)
    return opError(op, "Y must have X's shape");
  for (int i = 1; i < p->outputs; ++i)
    if (numElements(op.output_desc(i)) != p->rows)
      return opError(op, "Mean and InvStdDev must have one value per row");
  return rt::Status::ok();
}

rt::Status planLayerNorm(const om::OpDef &op, KernelPlan *out) {
  LayerPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeLayerNorm(op, &p));
  out->engine = rt::Engine::kAiv;
  out->maxBlocks = nn::blocksForVectorWork(p.rows, 8.0 * p.cols, 8.0 * p.cols);
  double elems = static_cast<double>(p.rows) * p.cols;
  out->cost.flops = 8.0 * elems;
  out->cost.bytes = 4.0 * (2 * elems + p.paramElems + (p.outputs - 1) * p.rows);
  return rt::Status::ok();
}

class LayerNormKernel final : public Kernel {
public:
  explicit LayerNormKernel(LayerPlan p) : p_(std::move(p)) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const int64_t cols = p_.cols;
    const float *x = static_cast<const float *>(inputs[0].data);
    float *y = static_cast<float *>(outputs[0].data);
    float *meanOut =
        p_.outputs > 1 ? static_cast<float *>(outputs[1].data) : nullptr;
    float *invOut =
        p_.outputs > 2 ? static_cast<float *>(outputs[2].data) : nullptr;
    // Scale and B as full rows; broadcast ones expanded into scratch.
    const float *scale =
        expand(static_cast<const float *>(inputs[1].data), p_.scaleIndex, 0);
    const float *bias = p_.hasBias
                            ? expand(static_cast<const float *>(inputs[2].data),
                                     p_.biasIndex, 1)
                            : nullptr;
    ConstArrayMap scaleRow(scale, cols);
    BlockRange rows = blockRange(p_.rows, blockIdx, blockDim);
    for (int64_t r = rows.begin; r < rows.end; ++r) {
      ConstArrayMap in(x + r * cols, cols);
      ArrayMap out(y + r * cols, cols);
      float mean = cols ? in.sum() / static_cast<float>(cols) : 0.0f;
      float var =
          cols ? (in - mean).square().sum() / static_cast<float>(cols) : 0.0f;
      float inv = 1.0f / std::sqrt(var + p_.epsilon);
      if (bias)
        out = (in - mean) * inv * scaleRow + ConstArrayMap(bias, cols);
      else
        out = (in - mean) * inv * scaleRow;
      if (meanOut)
        meanOut[r] = mean;
      if (invOut)
        invOut[r] = inv;
    }
    return rt::Status::ok();
  }

private:
  const float *expand(const float *param, const std::vector<int64_t> &index,
                      int slot) const {
    if (index.empty())
      return param;
    float *row = nn::scratch(index.size(), slot);
    for (size_t i = 0; i < index.size(); ++i)
      row[i] = param[index[i]];
    return row;
  }

  const LayerPlan p_;
};

constexpr CreateFn createLayerNorm =
    &nn::createFromPlan<LayerNormKernel, LayerPlan, analyzeLayerNorm>;

// --- lrn
// ------------------------------------------------------------------------

/// A vector kernel (VectorSupport.h): its plan is the one it runs with.
class LrnKernel final : public vec::VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<LrnKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(vec::checkArity(op, 1, 1));
    om::DataType dt = op.input_desc(0).dtype();
    if (dt != om::DT_FLOAT || op.output_desc(0).dtype() != dt)
      return vec::unsupportedDtype(op, dt);
    std::vector<int64_t> x = shapeOf(op.input_desc(0));
    if (x.size() < 2)
      return opError(op, "X must be [N, C, ...]");
    auto k = std::unique_ptr<LrnKernel>(new LrnKernel);
    k->channels_ = x[1];
    k->planeSize_ = vec::product(std::vector<int64_t>(x.begin() + 2, x.end()));
    k->size_ = attrInt(op, "size", 0);
    if (k->size_ < 1)
      return opError(op, "size must be >= 1");
    k->alphaOverSize_ =
        attrFloat(op, "alpha", 1e-4f) / static_cast<float>(k->size_);
    k->beta_ = attrFloat(op, "beta", 0.75f);
    k->bias_ = attrFloat(op, "bias", 1.0f);
    // N * C planes; per element `size` squares and adds, and a pow (~10).
    const int64_t planes = x[0] * k->channels_;
    k->setPlan(
        op, planes,
        std::max<int64_t>(1, vec::kGrain / std::max<int64_t>(1, k->planeSize_)),
        (2.0 * static_cast<double>(k->size_) + 10.0) *
            static_cast<double>(numElements(op.input_desc(0))));
    *out = std::move(k);
    return rt::Status::ok();
  }

  /// Plane (n, c) sums the squares of channels [c - (size - 1) / 2,
  /// c + size / 2] (ONNX's floor and ceil of (size - 1) / 2), clipped.
  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    float *y = static_cast<float *>(outputs[0].data);
    const int64_t s = planeSize_;
    Eigen::ArrayXf squares(s);
    for (int64_t plane = r.begin; plane < r.end; ++plane) {
      const int64_t n = plane / channels_, c = plane % channels_;
      const int64_t lo = std::max<int64_t>(0, c - (size_ - 1) / 2);
      const int64_t hi = std::min<int64_t>(channels_ - 1, c + size_ / 2);
      squares.setZero();
      for (int64_t j = lo; j <= hi; ++j)
        squares += ConstArrayMap(x + (n * channels_ + j) * s, s).square();
      ArrayMap(y + plane * s, s) =
          ConstArrayMap(x + plane * s, s) *
          (bias_ + alphaOverSize_ * squares).pow(-beta_);
    }
    return rt::Status::ok();
  }

private:
  LrnKernel() = default;
  int64_t channels_ = 0, planeSize_ = 1, size_ = 1;
  float alphaOverSize_ = 0, beta_ = 0, bias_ = 0;
};

} // namespace

void geflow::kernels::registerNormKernels(KernelRegistry &registry) {
  registry.serve("LrnKernel", vec::entryFor<LrnKernel>());
  registry.add("batch_normalization",
               {planChannelNorm<false>, createChannelNorm<false>});
  registry.add("instance_normalization",
               {planChannelNorm<true>, createChannelNorm<true>});
  registry.add("layer_normalization", {planLayerNorm, createLayerNorm});
}
