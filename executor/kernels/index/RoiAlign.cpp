//===- RoiAlign.cpp - roi_align -------------------------------------------===//
//
// ONNX RoiAlign (opset 16): for each region of interest (x1, y1, x2, y2 in
// input coordinates times spatial_scale) an output_height x output_width
// grid of bins, each the average (mode avg) or maximum (mode max) of
// sampling_ratio^2 bilinear samples (adaptive: ceil(bin size) per axis when
// sampling_ratio is 0). coordinate_transformation_mode half_pixel shifts
// the region by -0.5 pixel; output_half_pixel (opset 10's behaviour) does
// not, and makes every region at least 1 x 1. The sampling and the max
// mode (the maximum of each sample's weighted corner values) are
// onnxruntime's, the reference of ONNX's test data.
//
// Block split: ranges of (roi, bin) pairs, grain 4096 output elements; a
// bin's samples and weights are computed once and applied to all channels.
// Cost: 8 FLOPs per sample and channel; bytes = inputs read + output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;
using namespace geflow::kernels::idx;

namespace {

/// One bilinear sample: four pixel offsets in a channel and their weights
/// (all weights 0 for a sample outside the image).
struct Sample {
  std::array<int64_t, 4> offset{};
  std::array<double, 4> weight{};
};

Sample bilinearSample(double y, double x, int64_t h, int64_t w) {
  Sample s;
  if (y < -1.0 || y > h || x < -1.0 || x > w)
    return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto y0 = static_cast<int64_t>(y), x0 = static_cast<int64_t>(x);
  int64_t y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = static_cast<double>(y0);
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = static_cast<double>(x0);
  }
  double ly = y - y0, lx = x - x0, hy = 1 - ly, hx = 1 - lx;
  s.offset = {y0 * w + x0, y0 * w + x1, y1 * w + x0, y1 * w + x1};
  s.weight = {hy * hx, hy * lx, ly * hx, ly * lx};
  return s;
}

class RoiAlignKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<RoiAlignKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    GEFLOW_RT_RETURN_IF_ERROR(checkIndexDtype(op, 2));
    auto k = std::unique_ptr<RoiAlignKernel>(new RoiAlignKernel);
    k->dtype_ = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, k->dtype_, [](auto) {}) ||
        op.input_desc(1).dtype() != k->dtype_)
      return unsupportedDtype(op, k->dtype_);
    std::string mode = attrString(op, "mode", "avg");
    std::string transform =
        attrString(op, "coordinate_transformation_mode", "half_pixel");
    if (mode != "avg" && mode != "max")
      return opError(op, "mode '" + mode + "' is not avg or max");
    if (transform != "half_pixel" && transform != "output_half_pixel")
      return opError(op, "coordinate_transformation_mode '" + transform +
                             "' is not supported");
    k->max_ = mode == "max";
    k->halfPixel_ = transform == "half_pixel";
    k->outH_ = attrInt(op, "output_height", 1);
    k->outW_ = attrInt(op, "output_width", 1);
    k->samplingRatio_ = attrInt(op, "sampling_ratio", 0);
    k->scale_ = attrFloat(op, "spatial_scale", 1.0f);
    auto x = shapeOf(op.input_desc(0)), rois = shapeOf(op.input_desc(1));
    if (x.size() != 4 || rois.size() != 2 || rois[1] != 4 ||
        numElements(op.input_desc(2)) != rois[0])
      return opError(op, "needs X [N, C, H, W], rois [R, 4] and R batch "
                         "indices");
    if (k->outH_ < 1 || k->outW_ < 1 || k->samplingRatio_ < 0)
      return opError(op, "output_height and output_width must be >= 1 and "
                         "sampling_ratio >= 0");
    k->batch_ = x[0];
    k->channels_ = x[1];
    k->h_ = x[2];
    k->w_ = x[3];
    k->label_ = errorLabel(op);
    k->idxType_ = op.input_desc(2).dtype();
    k->batchConst_ = constantInput(spec, 2);
    int64_t bins = rois[0] * k->outH_ * k->outW_;
    // The sample count per bin is known only from the rois; 4 is a guess.
    int64_t samples =
        k->samplingRatio_ ? k->samplingRatio_ * k->samplingRatio_ : 4;
    k->setPlan(op, bins,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, x[1])),
               8.0 * samples * bins * x[1]);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    rt::Status st = rt::Status::ok();
    dispatch(FloatTypes{}, dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      st = align(static_cast<const T *>(inputs[0].data),
                 static_cast<const T *>(inputs[1].data),
                 operandData(batchConst_, inputs, 2),
                 static_cast<T *>(outputs[0].data), r);
    });
    return st;
  }

private:
  RoiAlignKernel() = default;

  template <class T>
  rt::Status align(const T *x, const T *rois, const void *batchIndices, T *y,
                   BlockRange r) const {
    const int64_t binsPerRoi = outH_ * outW_, plane = h_ * w_;
    std::vector<Sample> samples;
    for (int64_t p = r.begin; p < r.end; ++p) {
      const int64_t roi = p / binsPerRoi, bin = p % binsPerRoi;
      const int64_t ph = bin / outW_, pw = bin % outW_;
      const int64_t n = loadIndex(batchIndices, idxType_, roi);
      if (n < 0 || n >= batch_)
        return indexOutOfRange(label_, n, batch_);
      const T *box = rois + roi * 4;
      const double offset = halfPixel_ ? 0.5 : 0.0;
      double x0 = box[0] * scale_ - offset, y0 = box[1] * scale_ - offset;
      double roiW = box[2] * scale_ - offset - x0,
             roiH = box[3] * scale_ - offset - y0;
      if (!halfPixel_) {
        roiW = std::max(roiW, 1.0);
        roiH = std::max(roiH, 1.0);
      }
      const double binH = roiH / outH_, binW = roiW / outW_;
      const int64_t gridH = samplingRatio_
                                ? samplingRatio_
                                : static_cast<int64_t>(std::ceil(roiH / outH_));
      const int64_t gridW = samplingRatio_
                                ? samplingRatio_
                                : static_cast<int64_t>(std::ceil(roiW / outW_));
      samples.clear();
      for (int64_t iy = 0; iy < gridH; ++iy)
        for (int64_t ix = 0; ix < gridW; ++ix)
          samples.push_back(bilinearSample(
              y0 + ph * binH + (iy + 0.5) * binH / gridH,
              x0 + pw * binW + (ix + 0.5) * binW / gridW, h_, w_));
      const double count = std::max<int64_t>(gridH * gridW, 1);
      const T *image = x + n * channels_ * plane;
      T *dst = y + roi * channels_ * binsPerRoi + bin;
      for (int64_t c = 0; c < channels_; ++c) {
        const T *channel = image + c * plane;
        double v = 0;
        for (size_t s = 0; s < samples.size(); ++s) {
          const Sample &sm = samples[s];
          if (max_) {
            double m = sm.weight[0] * channel[sm.offset[0]];
            for (int i = 1; i < 4; ++i)
              m = std::max(m, sm.weight[i] * channel[sm.offset[i]]);
            v = s == 0 ? m : std::max(v, m);
          } else {
            for (int i = 0; i < 4; ++i)
              v += sm.weight[i] * channel[sm.offset[i]];
          }
        }
        dst[c * binsPerRoi] = static_cast<T>(max_ ? v : v / count);
      }
    }
    return rt::Status::ok();
  }

  bool max_ = false, halfPixel_ = true;
  int64_t outH_ = 1, outW_ = 1, samplingRatio_ = 0;
  float scale_ = 1.0f;
  int64_t batch_ = 0, channels_ = 0, h_ = 0, w_ = 0;
  om::DataType dtype_ = om::DT_FLOAT;
  om::DataType idxType_ = om::DT_INT64;
  const void *batchConst_ = nullptr;
  om::OpDef label_;
};

} // namespace

void geflow::kernels::registerRoiAlignKernels(KernelRegistry &registry) {
  registry.serve("RoiAlignKernel", entryFor<RoiAlignKernel>());
}
