//===- NnSupport.cpp ------------------------------------------------------===//

#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/ElementwiseOps.h"
#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/support/VectorSupport.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

using namespace geflow;
using namespace geflow::kernels;

rt::Status nn::resolveWindow(const om::OpDef &op,
                             const std::vector<int64_t> &in,
                             const std::vector<int64_t> &out,
                             const std::vector<int64_t> &kernel,
                             bool useDilations, Window *w) {
  int r = static_cast<int>(in.size());
  if (r < 1 || r > 3)
    return opError(op, "spatial rank " + std::to_string(r) +
                           " is not supported (1 to 3)");
  if (out.size() != in.size() || kernel.size() != in.size())
    return opError(op, "kernel_shape or output rank does not match the input's "
                       "spatial rank " +
                           std::to_string(r));
  std::vector<int64_t> strides = attrInts(op, "strides");
  std::vector<int64_t> dilations =
      useDilations ? attrInts(op, "dilations") : std::vector<int64_t>{};
  std::vector<int64_t> pads = attrInts(op, "pads");
  std::string autoPad = attrString(op, "auto_pad", "NOTSET");
  if (!strides.empty() && static_cast<int>(strides.size()) != r)
    return opError(op, "strides has " + std::to_string(strides.size()) +
                           " values, expected " + std::to_string(r));
  if (!dilations.empty() && static_cast<int>(dilations.size()) != r)
    return opError(op, "dilations has " + std::to_string(dilations.size()) +
                           " values, expected " + std::to_string(r));
  if (autoPad == "NOTSET" && !pads.empty() &&
      static_cast<int>(pads.size()) != 2 * r)
    return opError(op, "pads has " + std::to_string(pads.size()) +
                           " values, expected " + std::to_string(2 * r));
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return opError(op, "auto_pad '" + autoPad + "' is not supported");

  *w = Window();
  w->rank = r;
  for (int i = 0; i < r; ++i) {
    int d = 3 - r + i;
    w->in[d] = in[i];
    w->out[d] = out[i];
    w->kernel[d] = kernel[i];
    w->stride[d] = strides.empty() ? 1 : strides[i];
    w->dilation[d] = dilations.empty() ? 1 : dilations[i];
    if (w->stride[d] < 1 || w->dilation[d] < 1 || w->kernel[d] < 1 ||
        w->in[d] < 0 || w->out[d] < 0)
      return opError(op,
                     "kernel_shape, strides and dilations must be positive");
    int64_t span = (w->kernel[d] - 1) * w->dilation[d] + 1;
    if (autoPad == "NOTSET") {
      w->padBegin[d] = pads.empty() ? 0 : pads[i];
      w->padEnd[d] = pads.empty() ? 0 : pads[i + r];
    } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t total = std::max<int64_t>(0, (w->out[d] - 1) * w->stride[d] +
                                               span - w->in[d]);
      int64_t half = total / 2;
      w->padBegin[d] = autoPad == "SAME_UPPER" ? half : total - half;
      w->padEnd[d] = total - w->padBegin[d];
    }
    if (w->padBegin[d] < 0 || w->padEnd[d] < 0)
      return opError(op, "negative pads are not supported");
  }
  return rt::Status::ok();
}

float *nn::scratch(size_t count, int slot) {
  // 64-byte aligned: a vector kernel's rows at multiples of 16 floats from
  // the start then never straddle two cache lines (each such load costs two).
  constexpr size_t kAlign = 64;
  thread_local std::vector<float> buffers[4];
  std::vector<float> &buf = buffers[slot & 3];
  if (buf.size() < count + kAlign / sizeof(float))
    buf.resize(count + kAlign / sizeof(float));
  void *start = buf.data();
  size_t space = buf.size() * sizeof(float);
  return static_cast<float *>(
      std::align(kAlign, count * sizeof(float), start, space));
}

bool nn::hasInput(const om::OpDef &op, int i) {
  return i < op.input_desc_size() &&
         op.input_desc(i).dtype() != om::DT_UNDEFINED;
}

rt::Status nn::requireFloat(const om::OpDef &op, int exceptOutput) {
  for (int i = 0; i < op.input_desc_size(); ++i) {
    om::DataType t = op.input_desc(i).dtype();
    if (t != om::DT_UNDEFINED && t != om::DT_FLOAT)
      return opError(op, "input " + std::to_string(i) + " is " + dtypeName(t) +
                             ", only float32 is supported");
  }
  for (int i = 0; i < op.output_desc_size(); ++i) {
    om::DataType t = op.output_desc(i).dtype();
    if (i != exceptOutput && t != om::DT_FLOAT)
      return opError(op, "output " + std::to_string(i) + " is " + dtypeName(t) +
                             ", only float32 is supported");
  }
  if (op.output_desc_size() == 0)
    return opError(op, "has no output descriptor");
  return rt::Status::ok();
}

uint32_t nn::blocksForFlops(int64_t items, double flopsPerItem) {
  double grain = std::ceil(kMinBlockFlops / std::max(flopsPerItem, 1.0));
  return blocksForWork(items, static_cast<int64_t>(grain));
}

nn::TapColumns nn::tapColumns(const Window &w, int64_t kw) {
  int64_t s = w.stride[2], offW = kw * w.dilation[2] - w.padBegin[2];
  int64_t lo = offW >= 0 ? 0 : (-offW + s - 1) / s;
  int64_t last = w.in[2] - 1 - offW; // the largest j * s that is inside
  int64_t hi = last < 0 ? 0 : std::min<int64_t>(w.out[2], last / s + 1);
  return {offW, lo, std::max(lo, hi)};
}

void nn::applyBiasActivation(const Activation &act, float bias, float *data,
                             int64_t n) {
  applyBiasActivation(act, bias, data, data,
                      n); // elementwise: in place is fine
}

void nn::applyBiasActivation(const Activation &act, float bias,
                             const float *src, float *dst, int64_t n) {
  Eigen::Map<const Eigen::ArrayXf> x(src, n);
  Eigen::Map<Eigen::ArrayXf> y(dst, n);
  switch (act.kind) {
  case Activation::kNone:
    y = x + bias;
    return;
  case Activation::kRelu:
    y = (x + bias).max(0.0f);
    return;
  case Activation::kClip:
    y = (x + bias).max(act.a).min(act.b);
    return;
  // The vector bodies (polynomials, VectorMath.h, not libm) add the bias as
  // they load: one pass over the row. Without a bias they add nothing.
  case Activation::kSigmoid:
    vmath::sigmoid(src, dst, n, bias);
    return;
  case Activation::kHardSwish:
    vmath::hardSwish(src, dst, n, bias);
    return;
  case Activation::kSwish:
    vmath::swish(src, dst, n, act.a, bias);
    return;
  case Activation::kGelu:
    vmath::gelu(src, dst, n, bias);
    return;
  case Activation::kGeluTanh:
    vmath::geluTanh(src, dst, n, bias);
    return;
  default:
    y = x + bias;
    applyActivation(act, dst, n);
  }
}

uint32_t nn::blocksForVectorWork(int64_t items, double flopsPerItem,
                                 double bytesPerItem) {
  double grain =
      std::ceil(std::min(kMinBlockFlops / std::max(flopsPerItem, 1.0),
                         kMinBlockBytes / std::max(bytesPerItem, 1.0)));
  return blocksForWork(items, static_cast<int64_t>(grain));
}

namespace {
/// An activation's kind and how many params it takes (the op table's Act).
struct ActivationRow {
  nn::Activation::Kind kind;
  int params;
};

const std::unordered_map<std::string, ActivationRow> &activationRows() {
  static const std::unordered_map<std::string, ActivationRow> rows = [] {
    std::unordered_map<std::string, ActivationRow> map;
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  if (Act >= 0)                                                                \
    map[#Name] = {nn::Activation::k##Onnx, Act};
#include "ir/GeOpTable.def"
#define GE_FORM(Form, FormOnnx, Name)                                          \
  map[#Form] = {nn::Activation::k##FormOnnx, map.at(#Name).params};
#include "ir/GeOpTable.def"
    return map;
  }();
  return rows;
}
} // namespace

rt::Status nn::parseActivation(const om::OpDef &op, Activation *out) {
  std::string name = attrString(op, "activation", "none");
  std::vector<float> params = attrFloats(op, "activation_params");
  *out = Activation();
  if (name == "none")
    return rt::Status::ok();
  auto row = activationRows().find(name);
  if (row == activationRows().end())
    return opError(op, "activation '" + name + "' is not supported");
  out->kind = row->second.kind;
  // Missing trailing params take ONNX's defaults.
  const vec::FloatParams *fp = vec::findFloatParams(name);
  float *slots[2] = {&out->a, &out->b};
  for (int i = 0; i < row->second.params; ++i) {
    if (static_cast<size_t>(i) < params.size())
      *slots[i] = params[i];
    else if (fp)
      *slots[i] = fp->defaults[i];
  }
  return rt::Status::ok();
}

void nn::applyActivation(const Activation &act, float *data, int64_t n) {
  Eigen::Map<Eigen::ArrayXf> x(data, n);
  switch (act.kind) {
  case Activation::kNone:
    break;
  case Activation::kRelu:
    x = x.max(0.0f);
    break;
  case Activation::kSigmoid: // the vector bodies, without a bias
  case Activation::kHardSwish:
  case Activation::kSwish:
  case Activation::kGelu:
  case Activation::kGeluTanh:
    applyBiasActivation(act, 0.0f, data, data, n);
    break;
  case Activation::kTanh:
    x = x.tanh();
    break;
  case Activation::kLeakyRelu:
    x = (x < 0.0f).select(x * act.a, x);
    break;
  case Activation::kClip:
    x = x.max(act.a).min(act.b);
    break;
  case Activation::kHardSigmoid:
    x = (x * act.a + act.b).max(0.0f).min(1.0f);
    break;
  default: // not an activation: parseActivation admits none of the others
    break;
  }
}

rt::Status nn::analyzeMatMulBatch(const om::OpDef &op,
                                  const std::vector<int64_t> &a,
                                  const std::vector<int64_t> &b,
                                  MatMulBatch *out) {
  MatMulBatch &s = *out;
  s.m = a[a.size() - 2];
  s.k = a[a.size() - 1];
  s.n = b[b.size() - 1];
  if (b[b.size() - 2] != s.k)
    return opError(op, "inner dimensions differ (" + std::to_string(s.k) +
                           " vs " + std::to_string(b[b.size() - 2]) + ")");
  size_t rank = std::max(a.size(), b.size());
  s.aDims.assign(rank - 2, 1);
  s.bDims.assign(rank - 2, 1);
  s.outDims.assign(rank - 2, 1);
  std::copy(a.begin(), a.end() - 2, s.aDims.end() - (a.size() - 2));
  std::copy(b.begin(), b.end() - 2, s.bDims.end() - (b.size() - 2));
  for (size_t i = 0; i < s.outDims.size(); ++i) {
    int64_t ad = s.aDims[i], bd = s.bDims[i];
    if (ad != bd && ad != 1 && bd != 1)
      return opError(op, "batch dimensions do not broadcast");
    s.outDims[i] = ad == 0 || bd == 0 ? 0 : std::max(ad, bd);
  }
  s.batch = vec::product(s.outDims);
  s.aBatch = vec::product(s.aDims);
  s.bBatch = vec::product(s.bDims);
  if (numElements(op.output_desc(0)) != s.batch * s.m * s.n)
    return opError(op, "output shape does not match the broadcast result");
  s.aOffset.assign(s.batch, 0);
  s.bOffset.assign(s.batch, 0);
  for (int64_t idx = 0; idx < s.batch; ++idx) {
    int64_t rest = idx, aOff = 0, bOff = 0, aStride = 1, bStride = 1;
    for (size_t i = s.outDims.size(); i-- > 0;) {
      int64_t coord = rest % s.outDims[i];
      rest /= s.outDims[i];
      if (s.aDims[i] != 1)
        aOff += coord * aStride;
      if (s.bDims[i] != 1)
        bOff += coord * bStride;
      aStride *= s.aDims[i];
      bStride *= s.bDims[i];
    }
    s.aOffset[idx] = aOff * s.m * s.k;
    s.bOffset[idx] = bOff * s.k * s.n;
  }
  return rt::Status::ok();
}
