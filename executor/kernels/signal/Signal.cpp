//===- Signal.cpp - window functions, DFT, STFT, mel weights --------------===//
//
// The signal ops of ir/GeSignalOps.td. Their size operands (window size,
// dft_length, frame_step, frame_length, num_mel_bins, ...) are read where
// they live (a constant, or the run's input) and checked against the static
// output shape the compiler planned for: a mismatch is an error, not a
// resize.
//
// Windows: block split over the output samples (grain kGrain); cost ~20
// FLOPs a sample. DFT and STFT: block split over the independent
// transforms (one per position off the axis, one per frame), each a direct
// DFT against a table of the n twiddles e^(-2 pi i t / n), accumulated in
// double; cost 8 FLOPs per (output bin, input sample). MelWeightMatrix: one
// block computing the ONNX reference's triangular filters.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>
#include <complex>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

using Complex = std::complex<double>;

/// The numeric dtypes a window or mel matrix may be made in
/// (output_datatype).
using SignalOutputTypes =
    TypeList<float, double, Eigen::half, Eigen::bfloat16, int8_t, int16_t,
             int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t>;

/// The float dtypes DFT and STFT take; they compute in double either way.
using SignalFloatTypes = TypeList<float, double, Eigen::half, Eigen::bfloat16>;

/// A size operand's value: the constant's, else this run's input.
int64_t scalarOperand(const om::OpDef &op, const void *constant,
                      const TensorView *inputs, int i) {
  return loadAsInt(operandData(constant, inputs, i), op.input_desc(i).dtype(),
                   0);
}

/// twiddles[t] = e^(-2 pi i t / n).
std::vector<Complex> twiddlesFor(int64_t n) {
  std::vector<Complex> twiddles(n);
  for (int64_t t = 0; t < n; ++t)
    twiddles[t] = std::polar(1.0, -2.0 * M_PI * static_cast<double>(t) /
                                      static_cast<double>(n));
  return twiddles;
}

/// out[k] = sum_j x[j] e^(∓2 pi i j k / n) for k < bins over the m <= n
/// samples given (the rest are the zero padding); the inverse conjugates the
/// twiddles and scales by 1 / n.
void directDft(const Complex *x, int64_t m, int64_t n, int64_t bins,
               const Complex *twiddles, bool inverse, Complex *out) {
  const double scale = inverse ? 1.0 / static_cast<double>(n) : 1.0;
  for (int64_t k = 0; k < bins; ++k) {
    Complex acc = 0;
    // t = j * k mod n, advanced by k each sample: no overflow, no modulo
    // of a product.
    int64_t t = 0, stride = k % n;
    for (int64_t j = 0; j < m; ++j) {
      const Complex &w = twiddles[t];
      acc += x[j] * (inverse ? std::conj(w) : w);
      t += stride;
      if (t >= n)
        t -= n;
    }
    out[k] = acc * scale;
  }
}

template <class T> void storeComplex(const Complex *values, int64_t n, T *out) {
  for (int64_t k = 0; k < n; ++k) {
    out[2 * k] = static_cast<T>(values[k].real());
    out[2 * k + 1] = static_cast<T>(values[k].imag());
  }
}

// --- windows -----------------------------------------------------------------

/// y[n] = a0 - a1 cos(2 pi n / D) + a2 cos(4 pi n / D), D = N (periodic) or
/// N - 1 (symmetric); a window of one symmetric sample is 1.
struct CosineSum {
  double a0 = 0, a1 = 0, a2 = 0;
};

template <class T>
void windowRange(const CosineSum &c, int64_t denominator, int64_t begin,
                 int64_t end, void *out) {
  T *y = static_cast<T *>(out);
  for (int64_t i = begin; i < end; ++i) {
    double v = 1.0;
    if (denominator > 0) {
      double phase = 2.0 * M_PI * static_cast<double>(i) /
                     static_cast<double>(denominator);
      v = c.a0 - c.a1 * std::cos(phase) + c.a2 * std::cos(2 * phase);
    }
    y[i] = static_cast<T>(v);
  }
}

class WindowKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<WindowKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<WindowKernel>(new WindowKernel);
    const std::string &type = op.type();
    if (type == "hann_window")
      k->coefficients_ = {0.5, 0.5, 0};
    else if (type == "hamming_window")
      k->coefficients_ = {25.0 / 46, 21.0 / 46, 0};
    else if (type == "blackman_window")
      k->coefficients_ = {0.42, 0.5, 0.08};
    else
      return opError(op, "not a window function");
    if (shapeOf(op.output_desc(0)).size() != 1)
      return opError(op, "output must be 1-D");
    om::DataType dt = op.output_desc(0).dtype();
    if (!dispatch(SignalOutputTypes{}, dt, [&](auto tag) {
          k->fn_ = &windowRange<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    k->size_ = numElements(op.output_desc(0));
    int64_t periodic = attrInt(op, "periodic", 1);
    k->denominator_ = periodic ? k->size_ : k->size_ - 1;
    k->sizeConst_ = constantInput(spec, 0);
    k->op_ = op;
    k->setPlan(op, k->size_, kGrain, 20.0 * static_cast<double>(k->size_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    int64_t size = scalarOperand(op_, sizeConst_, inputs, 0);
    if (size != size_)
      return opError(op_, "size is " + std::to_string(size) +
                              " but the output was planned for " +
                              std::to_string(size_));
    fn_(coefficients_, denominator_, r.begin, r.end, outputs[0].data);
    return rt::Status::ok();
  }

private:
  WindowKernel() = default;
  CosineSum coefficients_;
  void (*fn_)(const CosineSum &, int64_t, int64_t, int64_t, void *) = nullptr;
  int64_t size_ = 0, denominator_ = 0;
  const void *sizeConst_ = nullptr;
  om::OpDef op_;
};

// --- DFT and STFT ------------------------------------------------------------

/// Reads `m` samples of `components` (1: real, 2: complex) values each,
/// `stride` samples apart, as complex numbers, optionally times a window.
template <class T>
void gatherSamples(const T *in, int64_t m, int64_t stride, int components,
                   const T *window, Complex *x) {
  for (int64_t j = 0; j < m; ++j) {
    const T *s = in + j * stride * components;
    double re = static_cast<double>(s[0]);
    double im = components == 2 ? static_cast<double>(s[1]) : 0.0;
    double w = window ? static_cast<double>(window[j]) : 1.0;
    x[j] = Complex(re * w, im * w);
  }
}

/// The transform length: a constant is known now; an input is read per run.
struct LengthOperand {
  bool present = false;
  const void *constant = nullptr;
};

/// `length`'s value for this run (a constant's, an input's or `fallback`).
int64_t lengthValue(const om::OpDef &op, const LengthOperand &length,
                    const TensorView *inputs, int i, int64_t fallback) {
  return length.present ? scalarOperand(op, length.constant, inputs, i)
                        : fallback;
}

/// DFT along one axis of [outer, axisLen, inner, components].
class DftKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<DftKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<DftKernel>(new DftKernel);
    std::vector<int64_t> in = shapeOf(op.input_desc(0));
    std::vector<int64_t> outShape = shapeOf(op.output_desc(0));
    int64_t rank = static_cast<int64_t>(in.size());
    om::DataType dt = op.input_desc(0).dtype();
    if (op.output_desc(0).dtype() != dt ||
        !dispatch(SignalFloatTypes{}, dt, [&](auto tag) {
          k->transform_ = &DftKernel::transform<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    if (rank < 2 || outShape.size() != in.size() ||
        (in.back() != 1 && in.back() != 2) || outShape.back() != 2)
      return opError(op, "needs [..., 1 or 2] in and [..., 2] out");
    int64_t axis = normalizeAxis(attrInt(op, "axis", 1), rank);
    if (axis < 0 || axis > rank - 2)
      return opError(op, "axis is out of range");
    k->components_ = static_cast<int>(in.back());
    k->axisLen_ = in[axis];
    k->bins_ = outShape[axis];
    for (int64_t d = 0; d < axis; ++d)
      k->outer_ *= in[d];
    for (int64_t d = axis + 1; d < rank - 1; ++d)
      k->inner_ *= in[d];
    k->inverse_ = attrInt(op, "inverse", 0) != 0;
    k->onesided_ = attrInt(op, "onesided", 0) != 0;
    k->length_ = {hasInput(op, 1), constantInput(spec, 1)};
    k->op_ = op;
    if (!k->length_.present || k->length_.constant) {
      int64_t n = lengthValue(op, k->length_, nullptr, 1, k->axisLen_);
      GEFLOW_RT_RETURN_IF_ERROR(k->checkLength(n));
      k->twiddles_ = twiddlesFor(n);
    }
    int64_t transforms = k->outer_ * k->inner_;
    double perTransform =
        static_cast<double>(k->bins_) * static_cast<double>(k->axisLen_);
    int64_t grain = std::max<int64_t>(
        1, kGrain / std::max<int64_t>(1, k->bins_ * k->axisLen_));
    k->setPlan(op, transforms, grain,
               8.0 * perTransform * static_cast<double>(transforms));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    int64_t n = lengthValue(op_, length_, inputs, 1, axisLen_);
    GEFLOW_RT_RETURN_IF_ERROR(checkLength(n));
    std::vector<Complex> local;
    const Complex *twiddles = twiddles_.data();
    if (twiddles_.empty()) {
      local = twiddlesFor(n);
      twiddles = local.data();
    }
    (this->*transform_)(inputs[0].data, outputs[0].data, n, twiddles, r);
    return rt::Status::ok();
  }

private:
  DftKernel() = default;

  rt::Status checkLength(int64_t n) const {
    int64_t bins = onesided_ ? n / 2 + 1 : n;
    if (n < 1 || bins != bins_)
      return opError(op_, "dft_length " + std::to_string(n) + " gives " +
                              std::to_string(bins) +
                              " bins but the output was planned for " +
                              std::to_string(bins_));
    return rt::Status::ok();
  }

  template <class T>
  void transform(const void *input, void *output, int64_t n,
                 const Complex *twiddles, BlockRange r) const {
    const T *in = static_cast<const T *>(input);
    T *out = static_cast<T *>(output);
    const int64_t m = std::min(n, axisLen_);
    std::vector<Complex> x(m), y(bins_);
    for (int64_t t = r.begin; t < r.end; ++t) {
      int64_t o = t / inner_, i = t % inner_;
      gatherSamples(in + (o * axisLen_ * inner_ + i) * components_, m, inner_,
                    components_, static_cast<const T *>(nullptr), x.data());
      directDft(x.data(), m, n, bins_, twiddles, inverse_, y.data());
      // Bin k of this transform sits inner_ pairs after bin k - 1.
      T *dst = out + (o * bins_ * inner_ + i) * 2;
      for (int64_t k = 0; k < bins_; ++k)
        storeComplex(&y[k], 1, dst + k * inner_ * 2);
    }
  }

  int components_ = 1;
  int64_t axisLen_ = 0, bins_ = 0, outer_ = 1, inner_ = 1;
  bool inverse_ = false, onesided_ = false;
  void (DftKernel::*transform_)(const void *, void *, int64_t, const Complex *,
                                BlockRange) const = nullptr;
  LengthOperand length_;
  std::vector<Complex> twiddles_; // when the length is known at creation
  om::OpDef op_;
};

/// STFT of [batch, length, components] into [batch, frames, bins, 2].
class StftKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<StftKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    auto k = std::unique_ptr<StftKernel>(new StftKernel);
    std::vector<int64_t> in = shapeOf(op.input_desc(0));
    std::vector<int64_t> outShape = shapeOf(op.output_desc(0));
    om::DataType dt = op.input_desc(0).dtype();
    if (op.output_desc(0).dtype() != dt ||
        !dispatch(SignalFloatTypes{}, dt, [&](auto tag) {
          k->transform_ = &StftKernel::transform<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    if (in.size() != 3 || (in[2] != 1 && in[2] != 2) || outShape.size() != 4 ||
        outShape[0] != in[0] || outShape[3] != 2)
      return opError(op, "needs [batch, length, 1 or 2] in and "
                         "[batch, frames, bins, 2] out");
    k->components_ = static_cast<int>(in[2]);
    k->batch_ = in[0];
    k->signalLen_ = in[1];
    k->frames_ = outShape[1];
    k->bins_ = outShape[2];
    k->onesided_ = attrInt(op, "onesided", 1) != 0;
    k->stepConst_ = constantInput(spec, 1);
    k->hasWindow_ = hasInput(op, 2);
    k->length_ = {hasInput(op, 3), constantInput(spec, 3)};
    if (k->hasWindow_) {
      if (op.input_desc(2).dtype() != dt)
        return opError(op, "window's dtype differs from the signal's");
      k->windowLen_ = numElements(op.input_desc(2));
    } else if (!k->length_.present) {
      return opError(op, "needs a window or a frame_length");
    }
    k->op_ = op;
    if (!k->length_.present || k->length_.constant) {
      int64_t n = lengthValue(op, k->length_, nullptr, 3, k->windowLen_);
      GEFLOW_RT_RETURN_IF_ERROR(k->checkFrameLength(n));
      k->twiddles_ = twiddlesFor(n);
    }
    int64_t work = k->batch_ * k->frames_;
    int64_t grain = std::max<int64_t>(
        1, kGrain / std::max<int64_t>(1, k->bins_ * k->bins_));
    k->setPlan(op, work, grain,
               8.0 * static_cast<double>(work) * static_cast<double>(k->bins_) *
                   static_cast<double>(k->onesided_ ? 2 * k->bins_ : k->bins_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    int64_t n = lengthValue(op_, length_, inputs, 3, windowLen_);
    GEFLOW_RT_RETURN_IF_ERROR(checkFrameLength(n));
    int64_t step = scalarOperand(op_, stepConst_, inputs, 1);
    if (step < 1 || (signalLen_ - n) / step + 1 != frames_)
      return opError(op_, "frame_step " + std::to_string(step) +
                              " does not give the " + std::to_string(frames_) +
                              " frames the output was planned for");
    std::vector<Complex> local;
    const Complex *twiddles = twiddles_.data();
    if (twiddles_.empty()) {
      local = twiddlesFor(n);
      twiddles = local.data();
    }
    const void *window = hasWindow_ ? inputs[2].data : nullptr;
    (this->*transform_)(inputs[0].data, window, outputs[0].data, n, step,
                        twiddles, r);
    return rt::Status::ok();
  }

private:
  StftKernel() = default;

  rt::Status checkFrameLength(int64_t n) const {
    int64_t bins = onesided_ ? n / 2 + 1 : n;
    if (n < 1 || n > signalLen_ || (hasWindow_ && n != windowLen_) ||
        bins != bins_)
      return opError(op_, "frame length " + std::to_string(n) +
                              " does not fit the signal, the window or the " +
                              std::to_string(bins_) + " bins planned for");
    return rt::Status::ok();
  }

  template <class T>
  void transform(const void *signal, const void *window, void *output,
                 int64_t n, int64_t step, const Complex *twiddles,
                 BlockRange r) const {
    const T *in = static_cast<const T *>(signal);
    T *out = static_cast<T *>(output);
    std::vector<Complex> x(n), y(bins_);
    for (int64_t f = r.begin; f < r.end; ++f) {
      int64_t b = f / frames_, frame = f % frames_;
      const T *start = in + (b * signalLen_ + frame * step) * components_;
      gatherSamples(start, n, 1, components_, static_cast<const T *>(window),
                    x.data());
      directDft(x.data(), n, n, bins_, twiddles, false, y.data());
      storeComplex(y.data(), bins_, out + f * bins_ * 2);
    }
  }

  int components_ = 1;
  int64_t batch_ = 0, signalLen_ = 0, frames_ = 0, bins_ = 0, windowLen_ = 0;
  bool onesided_ = true, hasWindow_ = false;
  void (StftKernel::*transform_)(const void *, const void *, void *, int64_t,
                                 int64_t, const Complex *,
                                 BlockRange) const = nullptr;
  const void *stepConst_ = nullptr;
  LengthOperand length_;
  std::vector<Complex> twiddles_;
  om::OpDef op_;
};

// --- MelWeightMatrix ---------------------------------------------------------

double hzToMel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }
double melToHz(double mel) {
  return 700.0 * (std::pow(10.0, mel / 2595.0) - 1.0);
}

template <class T>
void storeWeights(const std::vector<double> &weights, void *out) {
  T *dst = static_cast<T *>(out);
  for (size_t i = 0; i < weights.size(); ++i)
    dst[i] = static_cast<T>(weights[i]);
}

class MelWeightMatrixKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<MelWeightMatrixKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 5, 1));
    auto k = std::unique_ptr<MelWeightMatrixKernel>(new MelWeightMatrixKernel);
    std::vector<int64_t> shape = shapeOf(op.output_desc(0));
    if (shape.size() != 2)
      return opError(op, "output must be [dft_length / 2 + 1, num_mel_bins]");
    k->rows_ = shape[0];
    k->melBins_ = shape[1];
    om::DataType dt = op.output_desc(0).dtype();
    if (!dispatch(SignalOutputTypes{}, dt, [&](auto tag) {
          k->store_ = &storeWeights<typename decltype(tag)::type>;
        }))
      return unsupportedDtype(op, dt);
    for (int i = 0; i < 5; ++i)
      k->constants_[i] = constantInput(spec, i);
    k->op_ = op;
    // One small table: one block.
    k->setPlan(op, 1, 1, 10.0 * static_cast<double>(k->rows_ * k->melBins_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange) const override {
    int64_t melBins = scalarOperand(op_, constants_[0], inputs, 0);
    int64_t dftLength = scalarOperand(op_, constants_[1], inputs, 1);
    int64_t sampleRate = scalarOperand(op_, constants_[2], inputs, 2);
    auto edge = [&](int i) {
      return loadAsDouble(operandData(constants_[i], inputs, i),
                          op_.input_desc(i).dtype(), 0);
    };
    double lower = edge(3), upper = edge(4);
    if (melBins != melBins_ || dftLength / 2 + 1 != rows_ || sampleRate < 1)
      return opError(op_, "num_mel_bins, dft_length or sample_rate do not "
                          "give the output planned for");
    // ONNX's reference: num_mel_bins + 2 band edges, evenly spaced in mel
    // (the step divides by num_mel_bins + 2), floored to DFT bins.
    double lowMel = hzToMel(lower), highMel = hzToMel(upper);
    double melStep = (highMel - lowMel) / static_cast<double>(melBins + 2);
    std::vector<int64_t> edges(melBins + 2);
    for (int64_t i = 0; i < melBins + 2; ++i) {
      double hz = melToHz(static_cast<double>(i) * melStep + lowMel);
      edges[i] = static_cast<int64_t>(
          std::floor(static_cast<double>(dftLength + 1) * hz /
                     static_cast<double>(sampleRate)));
      if (edges[i] < 0 || edges[i] >= rows_)
        return opError(op_, "the band edges fall outside the " +
                                std::to_string(rows_) +
                                " DFT bins (upper_edge_hertz above "
                                "sample_rate / 2?)");
    }
    std::vector<double> weights(rows_ * melBins, 0.0);
    auto at = [&](int64_t row, int64_t band) -> double & {
      return weights[row * melBins + band];
    };
    for (int64_t band = 0; band < melBins; ++band) {
      int64_t low = edges[band], center = edges[band + 1],
              high = edges[band + 2];
      if (center == low)
        at(center, band) = 1;
      else
        for (int64_t j = low; j <= center; ++j)
          at(j, band) =
              static_cast<double>(j - low) / static_cast<double>(center - low);
      for (int64_t j = center; j < high; ++j)
        at(j, band) =
            static_cast<double>(high - j) / static_cast<double>(high - center);
    }
    store_(weights, outputs[0].data);
    return rt::Status::ok();
  }

private:
  MelWeightMatrixKernel() = default;
  int64_t rows_ = 0, melBins_ = 0;
  void (*store_)(const std::vector<double> &, void *) = nullptr;
  const void *constants_[5] = {};
  om::OpDef op_;
};

} // namespace

void geflow::kernels::registerSignalKernels(KernelRegistry &registry) {
  registry.serve("WindowKernel", entryFor<WindowKernel>());
  registry.serve("DftKernel", entryFor<DftKernel>());
  registry.serve("StftKernel", entryFor<StftKernel>());
  registry.serve("MelWeightMatrixKernel", entryFor<MelWeightMatrixKernel>());
}
