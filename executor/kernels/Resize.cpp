//===- Resize.cpp - Resize kernels ------------------------------------------===//
//
// ONNX Resize, modes nearest and linear (n-linear over every dim whose
// mapping is not the identity), with the coordinate transformations
// half_pixel, asymmetric, align_corners, pytorch_half_pixel,
// tf_half_pixel_for_nn and tf_crop_and_resize.
//
// Block split: contiguous ranges of output elements (grain 4096).
// Cost: nearest moves bytes only; linear does 3 FLOPs per tap (2^k taps for k
// interpolated dims); bytes = input read + output written.
// Computation: per dim, a table from output index to input index (nearest) or
// to two input offsets and a weight (linear), built once from the scales
// (sizes: output / input). Nearest is then an IndexMap copy, any dtype;
// linear walks output rows, expanding the outer dims' taps once per row.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/VectorSupport.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

constexpr int64_t kGrain = 4096;
constexpr int kMaxRank = 8;

enum class Transform {
  kHalfPixel,
  kAsymmetric,
  kAlignCorners,
  kPytorchHalfPixel,
  kTfHalfPixelForNn,
  kTfCropAndResize,
};

enum class Nearest { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

struct ResizeAttrs {
  bool linear = false;
  Transform transform = Transform::kHalfPixel;
  Nearest nearest = Nearest::kRoundPreferFloor;
  double extrapolation = 0;
};

rt::Status parseAttrs(const om::OpDef &op, ResizeAttrs *a) {
  std::string mode = attrString(op, "mode", "nearest");
  if (mode == "linear")
    a->linear = true;
  else if (mode != "nearest")
    return opError(op, "mode '" + mode + "' is not supported (nearest, linear)");
  std::string ct = attrString(op, "coordinate_transformation_mode", "half_pixel");
  if (ct == "half_pixel") a->transform = Transform::kHalfPixel;
  else if (ct == "asymmetric") a->transform = Transform::kAsymmetric;
  else if (ct == "align_corners") a->transform = Transform::kAlignCorners;
  else if (ct == "pytorch_half_pixel") a->transform = Transform::kPytorchHalfPixel;
  else if (ct == "tf_half_pixel_for_nn") a->transform = Transform::kTfHalfPixelForNn;
  else if (ct == "tf_crop_and_resize") a->transform = Transform::kTfCropAndResize;
  else
    return opError(op, "coordinate_transformation_mode '" + ct + "' is not supported");
  std::string nm = attrString(op, "nearest_mode", "round_prefer_floor");
  if (nm == "round_prefer_floor") a->nearest = Nearest::kRoundPreferFloor;
  else if (nm == "round_prefer_ceil") a->nearest = Nearest::kRoundPreferCeil;
  else if (nm == "floor") a->nearest = Nearest::kFloor;
  else if (nm == "ceil") a->nearest = Nearest::kCeil;
  else
    return opError(op, "nearest_mode '" + nm + "' is not supported");
  if (attrInt(op, "exclude_outside", 0) != 0)
    return opError(op, "exclude_outside=1 is not supported");
  a->extrapolation = attrFloat(op, "extrapolation_value", 0.0f);
  return rt::Status::ok();
}

/// The input coordinate of output index x (ONNX Resize). `outWidth` is
/// scale * input width, as the reference computes it.
double sourceCoordinate(Transform t, double x, double scale, int64_t inWidth,
                        double roiStart, double roiEnd) {
  const double outWidth = scale * static_cast<double>(inWidth);
  switch (t) {
  case Transform::kHalfPixel:
    return (x + 0.5) / scale - 0.5;
  case Transform::kAsymmetric:
    return x / scale;
  case Transform::kAlignCorners:
    return outWidth == 1 ? 0.0 : x * (inWidth - 1) / (outWidth - 1);
  case Transform::kPytorchHalfPixel:
    return outWidth == 1 ? -0.5 : (x + 0.5) / scale - 0.5;
  case Transform::kTfHalfPixelForNn:
    return (x + 0.5) / scale;
  case Transform::kTfCropAndResize:
    if (outWidth == 1)
      return (roiEnd - roiStart) * (inWidth - 1) / 2 + roiStart * (inWidth - 1);
    return x * (roiEnd - roiStart) * (inWidth - 1) / (outWidth - 1) +
           roiStart * (inWidth - 1);
  }
  return x;
}

/// The neighbour that nearest mode picks: floor(x) or floor(x) + 1 (an
/// integral coordinate is itself).
int64_t nearestIndex(Nearest mode, double x) {
  double f = std::floor(x);
  double ratio = x - f;
  if (ratio == 0)
    return static_cast<int64_t>(f);
  bool up = false;
  switch (mode) {
  case Nearest::kRoundPreferFloor: up = ratio > 0.5; break;
  case Nearest::kRoundPreferCeil: up = ratio >= 0.5; break;
  case Nearest::kFloor: up = false; break;
  case Nearest::kCeil: up = true; break;
  }
  return static_cast<int64_t>(f) + (up ? 1 : 0);
}

/// Per dim: two input offsets and the weight of the second, or `outside` for
/// tf_crop_and_resize coordinates beyond the input.
struct LinearTables {
  std::vector<int64_t> dims;
  std::vector<std::vector<int64_t>> lo, hi;
  std::vector<std::vector<double>> w;
  std::vector<std::vector<uint8_t>> outside;
  bool anyOutside = false;
};

struct ResizeTables {
  IndexMap nearest;
  LinearTables linear;
};

/// Scales from the operand when given, else output / input per dim.
rt::Status buildTables(const om::OpDef &op, const ResizeAttrs &a,
                       const void *roiData, const void *scalesData,
                       ResizeTables *out) {
  auto in = shapeOf(op.input_desc(0));
  auto dims = shapeOf(op.output_desc(0));
  const int64_t rank = static_cast<int64_t>(in.size());
  if (static_cast<int64_t>(dims.size()) != rank || rank > kMaxRank)
    return opError(op, "output rank must equal the input rank (at most 8)");
  std::vector<double> scales(rank);
  bool fromOperand = hasInput(op, 2) && numElements(op.input_desc(2)) > 0;
  if (fromOperand) {
    if (!scalesData)
      return opError(op, "scales are not available");
    scales = loadDoubles(scalesData, op.input_desc(2));
    if (static_cast<int64_t>(scales.size()) != rank)
      return opError(op, "scales must have one value per dim");
  } else {
    for (int64_t d = 0; d < rank; ++d)
      scales[d] = in[d] ? static_cast<double>(dims[d]) / in[d] : 1.0;
  }
  std::vector<double> roi(2 * rank);
  for (int64_t d = 0; d < rank; ++d) {
    roi[d] = 0;
    roi[rank + d] = 1;
  }
  if (a.transform == Transform::kTfCropAndResize) {
    if (!hasInput(op, 1) || !roiData || numElements(op.input_desc(1)) != 2 * rank)
      return opError(op, "tf_crop_and_resize needs roi with 2 values per dim");
    roi = loadDoubles(roiData, op.input_desc(1));
  }
  auto strides = stridesOf(in);
  ResizeTables t;
  t.nearest.dims = dims;
  t.linear.dims = dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (scales[d] <= 0)
      return opError(op, "scales must be positive");
    std::vector<int64_t> near(dims[d]), lo(dims[d]), hi(dims[d]);
    std::vector<double> w(dims[d]);
    std::vector<uint8_t> outside(dims[d], 0);
    const int64_t n = in[d];
    for (int64_t j = 0; j < dims[d]; ++j) {
      double x = sourceCoordinate(a.transform, static_cast<double>(j), scales[d], n,
                                  roi[d], roi[rank + d]);
      if (a.transform == Transform::kTfCropAndResize && (x < 0 || x > n - 1)) {
        outside[j] = 1;
        t.linear.anyOutside = true;
        near[j] = IndexMap::kFill;
        continue;
      }
      near[j] = std::clamp<int64_t>(nearestIndex(a.nearest, x), 0, n - 1) * strides[d];
      // Neighbours floor(x) and floor(x) + 1 with edge padding.
      double f = std::floor(x);
      int64_t i0 = static_cast<int64_t>(f);
      lo[j] = std::clamp<int64_t>(i0, 0, n - 1) * strides[d];
      hi[j] = std::clamp<int64_t>(i0 + 1, 0, n - 1) * strides[d];
      w[j] = x - f;
    }
    t.nearest.offsets.push_back(std::move(near));
    t.linear.lo.push_back(std::move(lo));
    t.linear.hi.push_back(std::move(hi));
    t.linear.w.push_back(std::move(w));
    t.linear.outside.push_back(std::move(outside));
  }
  t.nearest.simplify();
  *out = std::move(t);
  return rt::Status::ok();
}

using LinearFn = void (*)(const LinearTables &t, double extrapolation,
                          const void *in, void *out, int64_t begin, int64_t end);

template <class T>
void linearRun(const LinearTables &t, double extrapolation, const void *inV,
               void *outV, int64_t begin, int64_t end) {
  auto *in = static_cast<const T *>(inV);
  auto *out = static_cast<T *>(outV);
  const int rank = static_cast<int>(t.dims.size());
  const int last = rank - 1;
  const int64_t inner = rank ? t.dims[last] : 1;
  // Taps of the outer dims of one row: up to 2^(rank-1).
  std::array<int64_t, 1 << (kMaxRank - 1)> tapOff;
  std::array<double, 1 << (kMaxRank - 1)> tapW;
  std::array<int64_t, kMaxRank> idx{};
  if (rank == 0) {
    if (begin < end)
      out[0] = in[0];
    return;
  }
  for (int64_t pos = begin; pos < end;) {
    int64_t row = pos / inner, j0 = pos % inner;
    int64_t len = std::min(inner - j0, end - pos);
    int64_t rest = row;
    for (int d = last - 1; d >= 0; --d) {
      idx[d] = rest % t.dims[d];
      rest /= t.dims[d];
    }
    int taps = 1;
    tapOff[0] = 0;
    tapW[0] = 1;
    bool outside = false;
    for (int d = 0; d < last; ++d) {
      int64_t i = idx[d];
      if (t.anyOutside && t.outside[d][i]) {
        outside = true;
        break;
      }
      double w = t.w[d][i];
      int64_t lo = t.lo[d][i], hi = t.hi[d][i];
      if (w == 0 || lo == hi) {
        for (int k = 0; k < taps; ++k)
          tapOff[k] += lo;
        continue;
      }
      for (int k = 0; k < taps; ++k) {
        tapOff[taps + k] = tapOff[k] + hi;
        tapW[taps + k] = tapW[k] * w;
        tapOff[k] += lo;
        tapW[k] *= 1 - w;
      }
      taps *= 2;
    }
    T *o = out + pos;
    if (outside) {
      std::fill(o, o + len, static_cast<T>(extrapolation));
    } else {
      const auto &lo = t.lo[last], &hi = t.hi[last];
      const auto &w = t.w[last];
      for (int64_t j = 0; j < len; ++j) {
        int64_t jj = j0 + j;
        if (t.anyOutside && t.outside[last][jj]) {
          o[j] = static_cast<T>(extrapolation);
          continue;
        }
        double acc = 0, wj = w[jj];
        for (int k = 0; k < taps; ++k)
          acc += tapW[k] * ((1 - wj) * static_cast<double>(in[tapOff[k] + lo[jj]]) +
                            wj * static_cast<double>(in[tapOff[k] + hi[jj]]));
        o[j] = static_cast<T>(acc);
      }
    }
    pos += len;
  }
}

class ResizeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec, std::unique_ptr<ResizeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<ResizeKernel>(new ResizeKernel);
    GEFLOW_RT_RETURN_IF_ERROR(parseAttrs(op, &k->attrs_));
    om::DataType dt = op.input_desc(0).dtype();
    k->elemSize_ = dtypeSize(dt);
    if (k->elemSize_ == 0 || k->elemSize_ > 8 || op.output_desc(0).dtype() != dt)
      return unsupportedDtype(op, dt);
    if (k->attrs_.linear &&
        !dispatch(FloatTypes{}, dt, [&](auto tag) {
          k->linearFn_ = &linearRun<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    if (k->attrs_.transform == Transform::kTfCropAndResize && !k->attrs_.linear)
      dispatch(FloatTypes{}, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        T v = static_cast<T>(k->attrs_.extrapolation);
        std::memcpy(k->fill_, &v, sizeof(T));
      });
    k->op_.set_name(op.name());
    k->op_.set_type(op.type());
    *k->op_.mutable_input_desc() = op.input_desc();
    *k->op_.mutable_output_desc() = op.output_desc();
    const bool needScales = hasInput(op, 2) && numElements(op.input_desc(2)) > 0;
    const bool needRoi = k->attrs_.transform == Transform::kTfCropAndResize;
    k->roiConst_ = constantInput(spec, 1);
    k->scalesConst_ = constantInput(spec, 2);
    k->prebuilt_ = (!needScales || k->scalesConst_) && (!needRoi || k->roiConst_);
    if (k->prebuilt_)
      GEFLOW_RT_RETURN_IF_ERROR(
          buildTables(op, k->attrs_, k->roiConst_, k->scalesConst_, &k->tables_));
    k->n_ = numElements(op.output_desc(0));
    int taps = 1;
    if (k->attrs_.linear) {
      auto in = shapeOf(op.input_desc(0));
      for (size_t d = 0; d < in.size(); ++d)
        if (in[d] != op.output_desc(0).shape(d))
          taps *= 2;
    }
    k->setPlan(op, k->n_, kGrain,
               k->attrs_.linear ? 3.0 * taps * static_cast<double>(k->n_) : 0.0);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    BlockRange r = blockRange(n_, blockIdx, blockDim);
    if (r.begin >= r.end)
      return rt::Status::ok();
    const ResizeTables *t = &tables_;
    ResizeTables local;
    if (!prebuilt_) {
      GEFLOW_RT_RETURN_IF_ERROR(buildTables(
          op_, attrs_, hasInput(op_, 1) ? operandData(roiConst_, inputs, 1) : nullptr,
          hasInput(op_, 2) ? operandData(scalesConst_, inputs, 2) : nullptr, &local));
      t = &local;
    }
    if (attrs_.linear)
      linearFn_(t->linear, attrs_.extrapolation, inputs[0].data, outputs[0].data,
                r.begin, r.end);
    else
      t->nearest.copy(elemSize_, inputs[0].data, outputs[0].data, fill_, r.begin,
                      r.end);
    return rt::Status::ok();
  }

private:
  ResizeKernel() = default;
  om::OpDef op_;
  ResizeAttrs attrs_;
  ResizeTables tables_;
  LinearFn linearFn_ = nullptr;
  bool prebuilt_ = false;
  const void *roiConst_ = nullptr, *scalesConst_ = nullptr;
  alignas(8) unsigned char fill_[8] = {0};
  size_t elemSize_ = 0;
  int64_t n_ = 0;
};

} // namespace

void geflow::kernels::registerResizeKernels(KernelRegistry &registry) {
  registry.add("resize", entryFor<ResizeKernel>());
}
