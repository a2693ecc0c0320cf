//===- GridSample.cpp - grid_sample ---------------------------------------===//
//
// ONNX GridSample (opset 16): X [N, C, H, W] sampled at grid [N, Ho, Wo, 2]
// (x then y, normalized to [-1, 1]) with modes bilinear, nearest and
// bicubic and padding modes zeros, border and reflection. The arithmetic is
// PyTorch's grid_sampler_2d, from which ONNX's test data comes: border and
// reflection move the sampling point into the image before bilinear and
// nearest interpolation, and each of bicubic's 16 taps on its own.
//
// Block split: ranges of grid points (n, ho, wo), grain 4096 output elements;
// a point's taps and weights are computed once and applied to all C
// channels. Cost: 2 FLOPs per tap and channel; bytes = inputs read + output
// written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/index/IndexSupport.h"

#include <cmath>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

enum class Mode { kBilinear, kNearest, kBicubic };
enum class Padding { kZeros, kBorder, kReflection };

/// At most 16 taps (bicubic) per grid point; offset -1 reads zero.
struct Taps {
  int count = 0;
  std::array<int64_t, 16> offset;
  std::array<double, 16> weight;
  void add(int64_t off, double w) {
    offset[count] = off;
    weight[count++] = w;
  }
};

class GridSampler {
public:
  GridSampler(int64_t h, int64_t w, bool alignCorners, Padding padding)
      : h_(h), w_(w), align_(alignCorners), padding_(padding) {}

  /// [-1, 1] to pixel coordinates along a dim of `size`.
  double unnormalize(double v, int64_t size) const {
    return align_ ? (v + 1) / 2 * (size - 1) : ((v + 1) * size - 1) / 2;
  }

  /// Border clamps into [0, size - 1]; reflection mirrors at the image's
  /// edges (pixel centres with align_corners, else pixel borders), then
  /// clamps; zeros leaves the coordinate as it is.
  double pad(double v, int64_t size) const {
    if (padding_ == Padding::kZeros)
      return v;
    if (padding_ == Padding::kReflection)
      v = align_ ? reflect(v, 0, 2 * (size - 1)) : reflect(v, -1, 2 * size - 1);
    return std::clamp(v, 0.0, static_cast<double>(size - 1));
  }

  /// The offset of pixel (y, x) in a channel, or -1 outside the image.
  int64_t at(int64_t y, int64_t x) const {
    return y >= 0 && y < h_ && x >= 0 && x < w_ ? y * w_ + x : -1;
  }

  Taps taps(Mode mode, double gx, double gy) const {
    Taps t;
    double x = unnormalize(gx, w_), y = unnormalize(gy, h_);
    if (mode == Mode::kBicubic) {
      double x0 = std::floor(x), y0 = std::floor(y);
      std::array<double, 4> wx = cubicWeights(x - x0),
                            wy = cubicWeights(y - y0);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
          t.add(at(static_cast<int64_t>(pad(y0 - 1 + i, h_)),
                   static_cast<int64_t>(pad(x0 - 1 + j, w_))),
                wy[i] * wx[j]);
      return t;
    }
    x = pad(x, w_);
    y = pad(y, h_);
    if (mode == Mode::kNearest) {
      // nearbyint: halves to even, as PyTorch rounds.
      t.add(at(static_cast<int64_t>(std::nearbyint(y)),
               static_cast<int64_t>(std::nearbyint(x))),
            1.0);
      return t;
    }
    double x0 = std::floor(x), y0 = std::floor(y);
    double fx = x - x0, fy = y - y0;
    auto xi = static_cast<int64_t>(x0), yi = static_cast<int64_t>(y0);
    t.add(at(yi, xi), (1 - fy) * (1 - fx));
    t.add(at(yi, xi + 1), (1 - fy) * fx);
    t.add(at(yi + 1, xi), fy * (1 - fx));
    t.add(at(yi + 1, xi + 1), fy * fx);
    return t;
  }

private:
  static double reflect(double v, int64_t twiceLow, int64_t twiceHigh) {
    if (twiceLow == twiceHigh)
      return 0;
    double low = twiceLow / 2.0, span = (twiceHigh - twiceLow) / 2.0;
    v = std::fabs(v - low);
    double extra = std::fmod(v, span);
    auto flips = static_cast<int64_t>(std::floor(v / span));
    return flips % 2 == 0 ? extra + low : span - extra + low;
  }

  /// Keys' cubic convolution with A = -0.75 at the four taps around t.
  static std::array<double, 4> cubicWeights(double t) {
    constexpr double a = -0.75;
    auto near = [&](double d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };
    auto far = [&](double d) {
      return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
    };
    return {far(t + 1), near(t), near(1 - t), far(2 - t)};
  }

  int64_t h_, w_;
  bool align_;
  Padding padding_;
};

class GridSampleKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<GridSampleKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<GridSampleKernel>(new GridSampleKernel);
    k->dtype_ = op.input_desc(0).dtype();
    if (!dispatch(FloatTypes{}, k->dtype_, [](auto) {}) ||
        op.input_desc(1).dtype() != k->dtype_)
      return unsupportedDtype(op, k->dtype_);
    std::string mode = attrString(op, "mode", "bilinear");
    std::string padding = attrString(op, "padding_mode", "zeros");
    if (mode == "bilinear")
      k->mode_ = Mode::kBilinear;
    else if (mode == "nearest")
      k->mode_ = Mode::kNearest;
    else if (mode == "bicubic")
      k->mode_ = Mode::kBicubic;
    else
      return opError(op, "mode '" + mode + "' is not supported");
    Padding pad;
    if (padding == "zeros")
      pad = Padding::kZeros;
    else if (padding == "border")
      pad = Padding::kBorder;
    else if (padding == "reflection")
      pad = Padding::kReflection;
    else
      return opError(op, "padding_mode '" + padding + "' is not supported");
    auto x = shapeOf(op.input_desc(0)), grid = shapeOf(op.input_desc(1));
    if (x.size() != 4 || grid.size() != 4 || grid[3] != 2 || grid[0] != x[0])
      return opError(op, "needs X [N, C, H, W] and grid [N, Ho, Wo, 2]");
    k->channels_ = x[1];
    k->plane_ = x[2] * x[3];
    k->points_ = grid[1] * grid[2];
    k->sampler_ = std::make_unique<GridSampler>(
        x[2], x[3], attrInt(op, "align_corners", 0) != 0, pad);
    int taps = k->mode_ == Mode::kBicubic   ? 16
               : k->mode_ == Mode::kNearest ? 1
                                            : 4;
    int64_t total = grid[0] * k->points_;
    k->setPlan(op, total,
               std::max<int64_t>(1, kGrain / std::max<int64_t>(1, x[1])),
               2.0 * taps * total * x[1]);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    dispatch(FloatTypes{}, dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      sample(static_cast<const T *>(inputs[0].data),
             static_cast<const T *>(inputs[1].data),
             static_cast<T *>(outputs[0].data), r);
    });
    return rt::Status::ok();
  }

private:
  GridSampleKernel() = default;

  template <class T>
  void sample(const T *x, const T *grid, T *y, BlockRange r) const {
    for (int64_t p = r.begin; p < r.end; ++p) {
      const int64_t n = p / points_, point = p % points_;
      Taps t = sampler_->taps(mode_, grid[2 * p], grid[2 * p + 1]);
      const T *image = x + n * channels_ * plane_;
      T *dst = y + n * channels_ * points_ + point;
      for (int64_t c = 0; c < channels_; ++c) {
        const T *channel = image + c * plane_;
        double v = 0;
        for (int i = 0; i < t.count; ++i)
          if (t.offset[i] >= 0)
            v += t.weight[i] * channel[t.offset[i]];
        dst[c * points_] = static_cast<T>(v);
      }
    }
  }

  Mode mode_ = Mode::kBilinear;
  std::unique_ptr<GridSampler> sampler_;
  om::DataType dtype_ = om::DT_FLOAT;
  int64_t channels_ = 0, plane_ = 0, points_ = 0;
};

} // namespace

void geflow::kernels::registerGridSampleKernels(KernelRegistry &registry) {
  registry.serve("GridSampleKernel", entryFor<GridSampleKernel>());
}
