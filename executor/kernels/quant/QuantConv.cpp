//===- QuantConv.cpp - conv_integer and qlinear_conv as an integer GEMM ---===//
//
// Cube work (AIC), as the float conv (Conv.cpp): per image and group,
// Y_g[M/g x P] = W_g[M/g x K] * col[K x P] with K = C/g * prod(kernel), on
// qnt::intGemm. The operands are the int8/uint8 values less their zero
// points, as int16: X once per (image, group) a block meets, W once at load
// when it and its zero point are constants; so im2col's padding, 0, is the
// zero point, as ONNX pads. conv_integer writes the int32 accumulator;
// qlinear_conv adds the int32 bias B and requantizes each output channel's
// row with x_scale * w_scale[m] / y_scale.
//
// Block split: (image x group x column tile of P), a column tile's im2col
// about 64K int16. Cost: 2*K FLOPs per output element; bytes: X, W, Y.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/conv/ConvColumns.h"
#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/quant/IntGemm.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::qnt;

namespace {

constexpr int64_t kColTileElems = 1 << 16;

/// Operand positions: conv_integer (x, w, x_zero_point, w_zero_point) and
/// qlinear_conv (x, x_scale, x_zero_point, w, w_scale, w_zero_point,
/// y_scale, y_zero_point, B).
struct Operands {
  int x, w, xZero, wZero, xScale = -1, wScale = -1, yScale = -1, yZero = -1,
                          bias = -1;
};
constexpr Operands kConvInteger{0, 1, 2, 3};
constexpr Operands kQLinearConv{0, 3, 2, 5, 1, 4, 6, 7, 8};

class IntConvKernel final : public vec::VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<IntConvKernel> *out) {
    const om::OpDef &op = *spec.op;
    auto k = std::unique_ptr<IntConvKernel>(new IntConvKernel);
    k->ops_ = op.type() == "qlinear_conv" ? kQLinearConv : kConvInteger;
    GEFLOW_RT_RETURN_IF_ERROR(k->analyze(op));
    // A block takes enough items to be worth a launch.
    const double flopsPerItem =
        std::max(1.0, 2.0 * k->k_ * k->tileCols_ * k->mg_);
    k->setPlan(op, k->items(),
               std::max<int64_t>(
                   1, static_cast<int64_t>(nn::kMinBlockFlops / flopsPerItem)),
               2.0 * k->k_ *
                   static_cast<double>(numElements(op.output_desc(0))));
    k->plan_.engine = rt::Engine::kAic;
    k->prepareConstantWeights(spec);
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    const nn::Window &w = w_;
    const int64_t cg = inChannels_ / group_, p = w.outSize();
    thread_local std::vector<int16_t> xg, col, wq;
    thread_local std::vector<int32_t> acc;
    xg.resize(cg * w.inSize());
    col.resize(k_ * tileCols_);
    acc.resize(mg_ * tileCols_);
    const int16_t *weights = constW_.data();
    if (constW_.empty()) {
      wq.resize(outChannels_ * k_);
      widenWeights(inputs[ops_.w].data,
                   hasWZero_ ? inputs[ops_.wZero].data : nullptr, wq.data());
      weights = wq.data();
    }
    const int32_t xZero =
        hasXZero_ ? zeroPointAt(inputs[ops_.xZero].data, xDtype_, 0) : 0;
    std::vector<double> scale;
    int32_t yZero = 0;
    if (ops_.yScale >= 0) {
      scale = requantScales(inputs[ops_.xScale].data, inputs[ops_.wScale].data,
                            wScaleCount_ > 1 ? outChannels_ : 1,
                            inputs[ops_.yScale].data);
      yZero = zeroPointAt(inputs[ops_.yZero].data, yDtype_, 0);
    }
    const int32_t *bias =
        hasBias_ ? static_cast<const int32_t *>(inputs[ops_.bias].data)
                 : nullptr;
    const size_t xSize = dtypeSize(xDtype_);
    int64_t built = -1; // the (image, group) now in xg
    for (int64_t item = r.begin; item < r.end; ++item) {
      const int64_t tile = item % tiles_, ng = item / tiles_;
      const int64_t g = ng % group_, n = ng / group_;
      const int64_t p0 = tile * tileCols_, p1 = std::min(p, p0 + tileCols_);
      if (built != ng) {
        const char *x = static_cast<const char *>(inputs[ops_.x].data) +
                        (n * inChannels_ + g * cg) * w.inSize() * xSize;
        widen(x, xDtype_, 1, cg * w.inSize(), &xZero, nullptr, xg.data());
        built = ng;
      }
      const int64_t cols = p1 - p0;
      nn::im2col(w, xg.data(), cg, p0, p1, col.data());
      intGemm(mg_, cols, k_, weights + g * mg_ * k_, k_, col.data(), cols,
              acc.data(), cols);
      for (int64_t m = 0; m < mg_; ++m) {
        const int64_t channel = g * mg_ + m;
        const int64_t at = (n * outChannels_ + channel) * p + p0;
        int32_t *row = acc.data() + m * cols;
        if (ops_.yScale < 0) {
          std::copy(row, row + cols,
                    static_cast<int32_t *>(outputs[0].data) + at);
          continue;
        }
        if (bias)
          for (int64_t j = 0; j < cols; ++j)
            row[j] += bias[channel];
        const double *s = scale.data() + (scale.size() > 1 ? channel : 0);
        if (yDtype_ == om::DT_INT8)
          requantizeRow(row, cols, s, false, yZero,
                        static_cast<int8_t *>(outputs[0].data) + at);
        else
          requantizeRow(row, cols, s, false, yZero,
                        static_cast<uint8_t *>(outputs[0].data) + at);
      }
    }
    return rt::Status::ok();
  }

private:
  IntConvKernel() = default;

  int64_t items() const { return batch_ * group_ * tiles_; }

  rt::Status analyze(const om::OpDef &op) {
    const bool qlinear = ops_.yScale >= 0;
    if (op.input_desc_size() < (qlinear ? 8 : 2) || op.output_desc_size() < 1)
      return opError(op, qlinear ? "needs 8 inputs" : "needs inputs x and w");
    xDtype_ = op.input_desc(ops_.x).dtype();
    wDtype_ = op.input_desc(ops_.w).dtype();
    yDtype_ = op.output_desc(0).dtype();
    for (om::DataType dt : {xDtype_, wDtype_})
      if (dt != om::DT_INT8 && dt != om::DT_UINT8)
        return opError(op, std::string("x and w must be int8 or uint8, not ") +
                               dtypeName(dt));
    if (qlinear ? yDtype_ != om::DT_INT8 && yDtype_ != om::DT_UINT8
                : yDtype_ != om::DT_INT32)
      return opError(op,
                     qlinear ? "y must be int8 or uint8" : "y must be int32");
    std::vector<int64_t> x = shapeOf(op.input_desc(ops_.x));
    std::vector<int64_t> wt = shapeOf(op.input_desc(ops_.w));
    std::vector<int64_t> y = shapeOf(op.output_desc(0));
    if (x.size() < 3 || x.size() > 5 || wt.size() != x.size() ||
        y.size() != x.size())
      return opError(op, "x, w and y must have the same rank, 3 to 5");
    group_ = attrInt(op, "group", 1);
    batch_ = x[0];
    inChannels_ = x[1];
    outChannels_ = y[1];
    if (group_ < 1 || inChannels_ % group_ || outChannels_ % group_ ||
        wt[0] != outChannels_ || wt[1] * group_ != inChannels_ || y[0] != x[0])
      return opError(op, "w does not match [M, C/group, k...] for x and y");
    mg_ = outChannels_ / group_;
    std::vector<int64_t> kernel(wt.begin() + 2, wt.end());
    std::vector<int64_t> xs(x.begin() + 2, x.end()), ys(y.begin() + 2, y.end());
    GEFLOW_RT_RETURN_IF_ERROR(nn::resolveWindow(op, xs, ys, kernel, true, &w_));
    k_ = wt[1] * w_.kernelSize();
    const int64_t p = w_.outSize();
    int64_t cols =
        std::max<int64_t>(64, kColTileElems / std::max<int64_t>(k_, 1));
    tileCols_ = std::max<int64_t>(1, std::min((cols + 15) / 16 * 16, p));
    tiles_ = ceilDiv(std::max<int64_t>(p, 1), tileCols_);
    return analyzeParams(op);
  }

  rt::Status analyzeParams(const om::OpDef &op) {
    auto count = [&](int i) { return numElements(op.input_desc(i)); };
    hasXZero_ = nn::hasInput(op, ops_.xZero);
    hasWZero_ = nn::hasInput(op, ops_.wZero);
    if (hasXZero_ && (op.input_desc(ops_.xZero).dtype() != xDtype_ ||
                      count(ops_.xZero) != 1))
      return opError(op, "x_zero_point must be a scalar of x's type");
    if (hasWZero_) {
      wZeroCount_ = count(ops_.wZero);
      if (op.input_desc(ops_.wZero).dtype() != wDtype_)
        return opError(op, "w_zero_point must have w's type");
      if (count(ops_.wZero) != 1 && count(ops_.wZero) != outChannels_)
        return opError(op, "w_zero_point must have 1 or M elements");
    }
    if (ops_.yScale < 0)
      return rt::Status::ok();
    for (int i : {ops_.xScale, ops_.wScale, ops_.yScale})
      if (op.input_desc(i).dtype() != om::DT_FLOAT)
        return opError(op, "scales must be float32");
    if (count(ops_.xScale) != 1 || count(ops_.yScale) != 1 ||
        count(ops_.yZero) != 1)
      return opError(op, "x_scale, y_scale and y_zero_point must be scalars");
    wScaleCount_ = count(ops_.wScale);
    if (wScaleCount_ != 1 && wScaleCount_ != outChannels_)
      return opError(op, "w_scale must have 1 or M elements");
    if (op.input_desc(ops_.yZero).dtype() != yDtype_)
      return opError(op, "y_zero_point must have y's type");
    hasBias_ = nn::hasInput(op, ops_.bias);
    if (hasBias_ && (op.input_desc(ops_.bias).dtype() != om::DT_INT32 ||
                     count(ops_.bias) != outChannels_))
      return opError(op, "B must be int32 with M elements");
    return rt::Status::ok();
  }

  /// W less its zero point (per output channel or one), as int16.
  void widenWeights(const void *wt, const void *wZero, int16_t *out) const {
    const int64_t perChannel = k_;
    std::vector<int32_t> zp(outChannels_);
    const bool perM = wZero && wZeroCount_ > 1;
    for (int64_t m = 0; m < outChannels_; ++m)
      zp[m] = zeroPointAt(wZero, wDtype_, perM ? m : 0);
    widen(wt, wDtype_, outChannels_, perChannel, zp.data(), nullptr, out);
  }

  void prepareConstantWeights(const KernelSpec &spec) {
    const void *wt = vec::constantInput(spec, ops_.w);
    const void *wZero =
        hasWZero_ ? vec::constantInput(spec, ops_.wZero) : nullptr;
    if (!wt || (hasWZero_ && !wZero))
      return;
    constW_.resize(outChannels_ * k_);
    widenWeights(wt, wZero, constW_.data());
  }

  Operands ops_{};
  om::DataType xDtype_ = om::DT_UNDEFINED, wDtype_ = om::DT_UNDEFINED,
               yDtype_ = om::DT_UNDEFINED;
  bool hasXZero_ = false, hasWZero_ = false, hasBias_ = false;
  int64_t wZeroCount_ = 0, wScaleCount_ = 1;
  int64_t batch_ = 0, inChannels_ = 0, outChannels_ = 0, group_ = 1, mg_ = 0;
  int64_t k_ = 0, tileCols_ = 1, tiles_ = 1;
  nn::Window w_;
  std::vector<int16_t> constW_; // W less its zero point, when both constant
};

} // namespace

void qnt::registerIntConvKernels(KernelRegistry &registry) {
  registry.add("conv_integer", vec::entryFor<IntConvKernel>());
  registry.add("qlinear_conv", vec::entryFor<IntConvKernel>());
}
