//===- ElementwiseUnary.cpp - unary elementwise kernels -------------------===//
//
// The unary ops of the op table (ir/GeOpTable.def, Family Unary, Kernel
// UnaryKernel): each is an Eigen expression here, looked up by the row's
// ONNX name and dtype list. Also size, the element count as an int64 scalar.
//
// Block split: contiguous ranges of output elements (grain 4096).
// Cost: FLOPs per output element of the op (more for transcendental ones),
// bytes = input read + output written.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/ElementwiseOps.h"
#include "executor/kernels/support/VectorMath.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>
#include <limits>
#include <string_view>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {

// --- unary
// -----------------------------------------------------------------------

// Each op: FLOPs per element and its Eigen expression of `x` (an array of T).
#define GEFLOW_UNARY(Name, Flops, ...)                                         \
  struct Name {                                                                \
    static constexpr double kFlops = Flops;                                    \
    template <class T, class X>                                                \
    static auto eval(const X &x, const UnaryParams &p) {                       \
      (void)p;                                                                 \
      return __VA_ARGS__;                                                      \
    }                                                                          \
  };

GEFLOW_UNARY(Abs, 1, x.abs())
GEFLOW_UNARY(Acos, 10, x.acos())
GEFLOW_UNARY(Acosh, 12, x.unaryExpr([](T v) { return std::acosh(v); }))
GEFLOW_UNARY(Asin, 10, x.asin())
GEFLOW_UNARY(Asinh, 12, x.unaryExpr([](T v) { return std::asinh(v); }))
GEFLOW_UNARY(Atan, 10, x.atan())
GEFLOW_UNARY(Atanh, 12, x.unaryExpr([](T v) { return std::atanh(v); }))
GEFLOW_UNARY(Ceil, 1, x.ceil())
GEFLOW_UNARY(Celu, 12,
             x.max(T(0)) +
                 (T(p.alpha) * ((x / T(p.alpha)).exp() - T(1))).min(T(0)))
GEFLOW_UNARY(Cos, 8, x.cos())
GEFLOW_UNARY(Cosh, 10, x.cosh())
GEFLOW_UNARY(Elu, 10, (x > T(0)).select(x, T(p.alpha) * (x.exp() - T(1))))
GEFLOW_UNARY(Erf, 12, x.unaryExpr([](T v) { return std::erf(v); }))
GEFLOW_UNARY(Exp, 8, x.exp())
GEFLOW_UNARY(Floor, 1, x.floor())
GEFLOW_UNARY(HardSigmoid, 4, (T(p.alpha) * x + T(p.beta)).max(T(0)).min(T(1)))
GEFLOW_UNARY(HardSwish, 5, x *(x / T(6) + T(0.5)).max(T(0)).min(T(1)))
GEFLOW_UNARY(Identity, 0, x)
// The predicates give bool arrays: the kernel's output is i1.
GEFLOW_UNARY(IsInf, 2, x.unaryExpr([p](T v) {
  return (p.detectPositive && v == std::numeric_limits<T>::infinity()) ||
         (p.detectNegative && v == -std::numeric_limits<T>::infinity());
}))
GEFLOW_UNARY(IsNaN, 1, x.unaryExpr([](T v) { return v != v; }))
GEFLOW_UNARY(LeakyRelu, 2, (x < T(0)).select(T(p.alpha) * x, x))
GEFLOW_UNARY(Log, 8, x.log())
GEFLOW_UNARY(Neg, 1, -x)
GEFLOW_UNARY(Reciprocal, 1, x.inverse())
GEFLOW_UNARY(Relu, 1, x.max(T(0)))
// rint rounds halves to even in the default rounding mode, as ONNX wants.
GEFLOW_UNARY(Round, 1, x.rint())
GEFLOW_UNARY(Selu, 10,
             (x > T(0)).select(T(p.gamma) * x,
                               T(p.gamma) *
                                   (T(p.alpha) * x.exp() - T(p.alpha))))
// alpha is bias, beta lambd (the op table's GE_PARAMS order). Integers
// compare and add in double, so no negative bound wraps an unsigned type.
GEFLOW_UNARY(Shrink, 3, x.unaryExpr([p](T v) {
  double d = static_cast<double>(v), lambd = p.beta, bias = p.alpha;
  return static_cast<T>(d < -lambd ? d + bias : d > lambd ? d - bias : 0.0);
}))
GEFLOW_UNARY(Sigmoid, 10, x.logistic())
GEFLOW_UNARY(Sign, 1, x.sign())
GEFLOW_UNARY(Sin, 8, x.sin())
GEFLOW_UNARY(Sinh, 10, x.sinh())
// log(1 + e^x) without overflow for large x.
GEFLOW_UNARY(Softplus, 12, x.unaryExpr([](T v) {
  return v > T(0) ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
}))
GEFLOW_UNARY(Softsign, 3, x / (T(1) + x.abs()))
GEFLOW_UNARY(Sqrt, 4, x.sqrt())
GEFLOW_UNARY(Tan, 10, x.tan())
GEFLOW_UNARY(Tanh, 10, x.tanh())
GEFLOW_UNARY(ThresholdedRelu, 1, (x > T(p.alpha)).select(x, T(0)))
GEFLOW_UNARY(Not, 1, x.unaryExpr([](bool v) { return !v; }))
GEFLOW_UNARY(Clip, 2,
             x.max(p.hasLo ? T(p.lo) : std::numeric_limits<T>::lowest())
                 .min(p.hasHi ? T(p.hi) : std::numeric_limits<T>::max()))
#undef GEFLOW_UNARY

/// The output's element type is the expression's: T, or bool for the
/// predicates.
template <class T, class Op>
void unaryRun(const void *in, void *out, int64_t n, const UnaryParams &p) {
  auto result = Op::template eval<T>(CMap<T>(static_cast<const T *>(in), n), p);
  using R = typename decltype(result)::Scalar;
  MMap<R>(static_cast<R *>(out), n) = result;
}

/// float Sigmoid on the vector polynomials (VectorMath.h): Eigen's logistic
/// was a fifth of EfficientNet's time (SiLU gates).
template <>
void unaryRun<float, Sigmoid>(const void *in, void *out, int64_t n,
                              const UnaryParams &) {
  vmath::sigmoid(static_cast<const float *>(in), static_cast<float *>(out), n);
}

// The op table's Types column names these and VectorSupport.h's lists.
using ClipTypes = TypeList<float, double, int32_t, int64_t, int8_t, uint8_t>;
using BoolTypes = TypeList<bool>;
using AllNumericTypes =
    TypeList<float, double, int8_t, int16_t, int32_t, int64_t, uint8_t,
             uint16_t, uint32_t, uint64_t>;
// identity: UnaryKernel copies bytes of any dtype without a functor.
using ByteCopy = TypeList<>;

template <class Op, class Types> UnaryFn lookupUnary(om::DataType dt) {
  UnaryFn fn = nullptr;
  dispatch(Types{}, dt,
           [&](auto tag) { fn = &unaryRun<typename decltype(tag)::type, Op>; });
  return fn;
}

template <class Op, class Types> UnaryOpInfo unaryInfo() {
  return {&lookupUnary<Op, Types>, Op::kFlops};
}

} // namespace

const FloatParams *vec::findFloatParams(const std::string &type) {
  static const std::unordered_map<std::string, FloatParams> table = [] {
    std::unordered_map<std::string, FloatParams> map;
    auto nameOf = [](const char *name) {
      return std::string_view(name) == "_" ? nullptr : name;
    };
#define GE_PARAMS(Name, P0, P0Default, P1, P1Default)                          \
  map[#Name] = {{nameOf(#P0), nameOf(#P1)}, {P0Default, P1Default}};
#include "ir/GeOpTable.def"
    return map;
  }();
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

const UnaryOpInfo *vec::findUnary(const std::string &type) {
  // A row's functor is the struct named after its ONNX op above.
#define GEFLOW_UNARY_ROW_UnaryKernel(Name, Onnx, Types)                        \
  {#Name, unaryInfo<Onnx, Types>()},
#define GEFLOW_UNARY_ROW_FusedElementwiseKernel(Name, Onnx, Types)
#define GEFLOW_UNARY_ROW_BinaryKernel(Name, Onnx, Types)
#define GEFLOW_UNARY_ROW_VariadicKernel(Name, Onnx, Types)
#define GEFLOW_UNARY_ROW_WhereKernel(Name, Onnx, Types)
  static const std::unordered_map<std::string, UnaryOpInfo> table = {
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  GEFLOW_UNARY_ROW_##Kernel(Name, Onnx, Types)
#include "ir/GeOpTable.def"
  };
#undef GEFLOW_UNARY_ROW_UnaryKernel
#undef GEFLOW_UNARY_ROW_FusedElementwiseKernel
#undef GEFLOW_UNARY_ROW_BinaryKernel
#undef GEFLOW_UNARY_ROW_VariadicKernel
#undef GEFLOW_UNARY_ROW_WhereKernel
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

namespace {

/// Identity is a byte copy for every dtype; the other unary ops go through
/// Eigen on their dtype.
class UnaryKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<UnaryKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<UnaryKernel>(new UnaryKernel);
    om::DataType dt = op.input_desc(0).dtype();
    k->n_ = numElements(op.output_desc(0));
    // The functors write the input's dtype, or bool for the predicates: an
    // output of another size would be written past its end.
    const bool predicate = op.type() == "is_inf" || op.type() == "is_nan";
    om::DataType outDt = op.output_desc(0).dtype();
    if (outDt != (predicate ? om::DT_BOOL : dt))
      return opError(op, std::string("output dtype ") + dtypeName(outDt) +
                             " does not fit input dtype " + dtypeName(dt));
    k->inSize_ = dtypeSize(dt);
    k->outSize_ = dtypeSize(outDt);
    k->clip_ = op.type() == "clip";
    const std::string &type = op.type();
    double flops = 0;
    if (type != "identity") {
      const UnaryOpInfo *info = findUnary(type);
      if (!info)
        return opError(op, "not a unary elementwise op");
      k->fn_ = info->lookup(dt);
      if (!k->fn_)
        return unsupportedDtype(op, dt);
      flops = info->flops;
    } else if (k->inSize_ == 0) {
      return unsupportedDtype(op, dt);
    }
    UnaryParams &p = k->params_;
    if (k->clip_) {
      for (int i = 1; i <= 2; ++i) {
        k->boundConst_[i - 1] = constantInput(spec, i);
        k->hasBound_[i - 1] = hasInput(op, i);
        if (k->hasBound_[i - 1])
          k->boundDtype_[i - 1] = op.input_desc(i).dtype();
      }
    }
    // The float attributes with ONNX's defaults (clip's are its bounds,
    // read above); selu's second is gamma.
    const FloatParams *fp = findFloatParams(type);
    if (fp && !k->clip_) {
      float values[2];
      for (int i = 0; i < 2; ++i)
        values[i] = fp->names[i] ? attrFloat(op, fp->names[i], fp->defaults[i])
                                 : fp->defaults[i];
      p.alpha = values[0];
      p.beta = p.gamma = values[1];
    }
    if (type == "is_inf") {
      p.detectNegative = attrInt(op, "detect_negative", 1) != 0;
      p.detectPositive = attrInt(op, "detect_positive", 1) != 0;
    }
    k->setPlan(op, k->n_, kGrain, flops * static_cast<double>(k->n_));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *in = static_cast<const char *>(inputs[0].data) + r.begin * inSize_;
    auto *out = static_cast<char *>(outputs[0].data) + r.begin * outSize_;
    if (!fn_) {
      if (in != out)
        std::memcpy(out, in, (r.end - r.begin) * inSize_);
      return rt::Status::ok();
    }
    UnaryParams p = params_;
    if (clip_) {
      // An absent trailing bound has no entry in `inputs` at all: look only
      // at the bounds the op has.
      const void *lo =
          hasBound_[0] ? operandData(boundConst_[0], inputs, 1) : nullptr;
      const void *hi =
          hasBound_[1] ? operandData(boundConst_[1], inputs, 2) : nullptr;
      p.hasLo = lo != nullptr;
      p.hasHi = hi != nullptr;
      if (p.hasLo)
        p.lo = loadAsDouble(lo, boundDtype_[0], 0);
      if (p.hasHi)
        p.hi = loadAsDouble(hi, boundDtype_[1], 0);
    }
    fn_(in, out, r.end - r.begin, p);
    return rt::Status::ok();
  }

private:
  UnaryKernel() = default;
  UnaryFn fn_ = nullptr;
  int64_t n_ = 0;
  size_t inSize_ = 0, outSize_ = 0;
  UnaryParams params_;
  bool clip_ = false;
  bool hasBound_[2] = {false, false};
  const void *boundConst_[2] = {nullptr, nullptr};
  om::DataType boundDtype_[2] = {om::DT_UNDEFINED, om::DT_UNDEFINED};
};

/// size: the input's element count into an int64 scalar. The compiler
/// folds it wherever shapes are static; this serves IR run unfolded.
class SizeKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<SizeKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    if (op.output_desc(0).dtype() != om::DT_INT64 ||
        numElements(op.output_desc(0)) != 1)
      return opError(op, "output must be an int64 scalar");
    auto k = std::unique_ptr<SizeKernel>(new SizeKernel);
    k->count_ = numElements(op.input_desc(0));
    // One item; the input's data is never read.
    k->setPlan(op, 1, 1, 0, sizeof(int64_t));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *, const TensorView *outputs,
                      BlockRange) const override {
    *static_cast<int64_t *>(outputs[0].data) = count_;
    return rt::Status::ok();
  }

private:
  SizeKernel() = default;
  int64_t count_ = 0;
};

} // namespace

void geflow::kernels::registerElementwiseUnaryKernels(
    KernelRegistry &registry) {
  registry.serve("UnaryKernel", entryFor<UnaryKernel>());
  registry.serve("SizeKernel", entryFor<SizeKernel>());
}
