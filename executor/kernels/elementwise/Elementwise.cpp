//===- Elementwise.cpp - binary elementwise kernels -----------------------===//
//
// Broadcasting binary, comparison, variadic and where kernels (unary ones are
// in ElementwiseUnary.cpp, cast in VectorCast.cpp).
//
// Block split: contiguous ranges of output elements (grain 4096).
// Cost: FLOPs per output element per arithmetic op (more for transcendental
// ones), bytes = inputs read + output written.
// Computation: Eigen array expressions over each run of the coalesced
// broadcast (an operand that repeats along the run is an Eigen constant).
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/ElementwiseOps.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::vec;

namespace {
// --- binary
// ----------------------------------------------------------------------

// Each op: the Eigen expression of arrays (or constants) a and b of T.
#define GEFLOW_BINARY(Name, ...)                                               \
  struct Name {                                                                \
    template <class T, class A, class B>                                       \
    static auto eval(const A &a, const B &b) {                                 \
      return __VA_ARGS__;                                                      \
    }                                                                          \
  };

template <class T> struct PowFn {
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>)
      return static_cast<T>(
          std::pow(static_cast<double>(x), static_cast<double>(y)));
    else
      return std::pow(x, y);
  }
};
// Integer division truncates (C, ONNX Runtime); a zero divisor gives 0
// instead of a trap.
template <class T> struct IntDivFn {
  T operator()(T x, T y) const { return y == 0 ? T(0) : x / y; }
};

/// Mod with fmod = 1 (C's fmod: the dividend's sign); integers truncate. A
/// zero divisor gives 0, and so does -1 (INT_MIN % -1 traps).
template <class T> struct FmodFn {
  T operator()(T x, T y) const {
    if constexpr (std::is_integral_v<T>) {
      if (y == 0 || (std::is_signed_v<T> && y == T(-1)))
        return T(0);
      return static_cast<T>(x % y);
    } else if constexpr (std::is_same_v<T, Eigen::half>) {
      return T(std::fmod(static_cast<float>(x), static_cast<float>(y)));
    } else {
      return std::fmod(x, y);
    }
  }
};
/// Mod with fmod = 0 (Python's %: the divisor's sign) on integers; floats,
/// which ONNX allows only with fmod = 1, take FmodFn, so a float mod is the
/// same function wherever it runs (a fused program too).
template <class T> struct ModFn {
  T operator()(T x, T y) const {
    T r = FmodFn<T>{}(x, y);
    if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
      if (r != 0 && (r < 0) != (y < 0))
        r = static_cast<T>(r + y);
    return r;
  }
};
/// BitShift: a shift by the width or more is 0 (C leaves it undefined).
template <class T> struct ShiftLeftFn {
  T operator()(T x, T y) const {
    return y >= sizeof(T) * 8 ? T(0) : static_cast<T>(x << y);
  }
};
template <class T> struct ShiftRightFn {
  T operator()(T x, T y) const {
    return y >= sizeof(T) * 8 ? T(0) : static_cast<T>(x >> y);
  }
};

GEFLOW_BINARY(Add, a + b)
GEFLOW_BINARY(Sub, a - b)
GEFLOW_BINARY(Mul, a *b)
GEFLOW_BINARY(Div, a / b)
GEFLOW_BINARY(IntDiv, a.binaryExpr(b, IntDivFn<T>{}))
GEFLOW_BINARY(Pow, a.binaryExpr(b, PowFn<T>{}))
GEFLOW_BINARY(PRelu, (a < T(0)).select(a *b, a))
GEFLOW_BINARY(Max, a.max(b))
GEFLOW_BINARY(Min, a.min(b))
GEFLOW_BINARY(Equal, a == b)
GEFLOW_BINARY(Greater, a > b)
GEFLOW_BINARY(Less, a < b)
GEFLOW_BINARY(GreaterOrEqual, a >= b)
GEFLOW_BINARY(LessOrEqual, a <= b)
GEFLOW_BINARY(Mod, a.binaryExpr(b, ModFn<T>{}))
GEFLOW_BINARY(Fmod, a.binaryExpr(b, FmodFn<T>{}))
GEFLOW_BINARY(And, a &&b)
GEFLOW_BINARY(Or, a || b)
GEFLOW_BINARY(Xor, a != b)
GEFLOW_BINARY(ShiftLeft, a.binaryExpr(b, ShiftLeftFn<T>{}))
GEFLOW_BINARY(ShiftRight, a.binaryExpr(b, ShiftRightFn<T>{}))
#undef GEFLOW_BINARY

template <class T, class R, class Op>
void binaryRow(const void *a, bool aRepeat, const void *b, bool bRepeat,
               void *out, int64_t n) {
  auto *pa = static_cast<const T *>(a);
  auto *pb = static_cast<const T *>(b);
  MMap<R> o(static_cast<R *>(out), n);
  if (!aRepeat && !bRepeat)
    o = Op::template eval<T>(CMap<T>(pa, n), CMap<T>(pb, n));
  else if (!aRepeat)
    o = Op::template eval<T>(CMap<T>(pa, n), Arr<T>::Constant(n, *pb));
  else if (!bRepeat)
    o = Op::template eval<T>(Arr<T>::Constant(n, *pa), CMap<T>(pb, n));
  else
    o = Op::template eval<T>(Arr<T>::Constant(n, *pa),
                             Arr<T>::Constant(n, *pb));
}

template <class T> struct TakeBRow {
  static void run(const void *, bool, const void *b, bool bRepeat, void *out,
                  int64_t n) {
    auto *pb = static_cast<const T *>(b);
    auto *po = static_cast<T *>(out);
    if (bRepeat)
      std::fill(po, po + n, *pb);
    else
      std::copy(pb, pb + n, po);
  }
};

using MinMaxTypes =
    TypeList<float, double, Eigen::half, int8_t, int16_t, int32_t, int64_t,
             uint8_t, uint16_t, uint32_t, uint64_t>;
using CompareTypes =
    TypeList<float, double, Eigen::half, int8_t, int16_t, int32_t, int64_t,
             uint8_t, uint16_t, uint32_t, uint64_t, bool>;
using UnsignedTypes = TypeList<uint8_t, uint16_t, uint32_t, uint64_t>;

template <class Op, class Types> BinaryRowFn lookupArith(om::DataType dt) {
  BinaryRowFn fn = nullptr;
  dispatch(Types{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    fn = &binaryRow<T, T, Op>;
  });
  return fn;
}

template <class Op> BinaryRowFn lookupCompare(om::DataType dt) {
  BinaryRowFn fn = nullptr;
  dispatch(CompareTypes{}, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool> && !std::is_same_v<Op, Equal>)
      return;
    else
      fn = &binaryRow<T, bool, Op>;
  });
  return fn;
}

BinaryRowFn lookupDiv(om::DataType dt) {
  if (dt == om::DT_FLOAT || dt == om::DT_DOUBLE)
    return lookupArith<Div, FloatTypes>(dt);
  return lookupArith<IntDiv, TypeList<int32_t, int64_t, int8_t, uint8_t>>(dt);
}

} // namespace

const BinaryOpInfo *vec::findBinary(const std::string &type) {
  using Arith = TypeList<float, double, int32_t, int64_t, int8_t, uint8_t>;
  static const std::unordered_map<std::string, BinaryOpInfo> table = {
      {"add", {&lookupArith<Add, Arith>, 1}},
      {"sub", {&lookupArith<Sub, Arith>, 1}},
      {"mul", {&lookupArith<Mul, Arith>, 1}},
      {"div", {&lookupDiv, 1}},
      {"pow", {&lookupArith<Pow, NumericTypes>, 10}},
      {"prelu", {&lookupArith<PRelu, SignedTypes>, 2}},
      {"max", {&lookupArith<Max, MinMaxTypes>, 1}},
      {"min", {&lookupArith<Min, MinMaxTypes>, 1}},
      {"equal", {&lookupCompare<Equal>, 1}},
      {"greater", {&lookupCompare<Greater>, 1}},
      {"less", {&lookupCompare<Less>, 1}},
      {"greater_or_equal", {&lookupCompare<GreaterOrEqual>, 1}},
      {"less_or_equal", {&lookupCompare<LessOrEqual>, 1}},
      // Every numeric dtype ONNX gives Mod: MinMaxTypes.
      {"mod", {&lookupArith<Mod, MinMaxTypes>, 4}},
      {"fmod", {&lookupArith<Fmod, MinMaxTypes>, 4}},
      {"and", {&lookupArith<And, TypeList<bool>>, 1}},
      {"or", {&lookupArith<Or, TypeList<bool>>, 1}},
      {"xor", {&lookupArith<Xor, TypeList<bool>>, 1}},
      {"bit_shift_left", {&lookupArith<ShiftLeft, UnsignedTypes>, 1}},
      {"bit_shift_right", {&lookupArith<ShiftRight, UnsignedTypes>, 1}},
  };
  auto it = table.find(type);
  return it == table.end() ? nullptr : &it->second;
}

/// The row function an op runs: its type, but "fmod" for mod with fmod = 1
/// and "bit_shift_left" / "bit_shift_right" for bit_shift by its direction.
static std::string binaryFunctionName(const om::OpDef &op) {
  if (op.type() == "mod" && attrInt(op, "fmod", 0) != 0)
    return "fmod";
  if (op.type() == "bit_shift")
    return attrString(op, "direction", "") == "LEFT" ? "bit_shift_left"
                                                     : "bit_shift_right";
  return op.type();
}

namespace {

/// Pow whose exponent's dtype differs from the base's (ONNX allows it): both
/// read as double, the result stored in the base's dtype.
void mixedPowRow(const void *a, om::DataType at, int64_t aOff, int64_t aStride,
                 const void *b, om::DataType bt, int64_t bOff, int64_t bStride,
                 void *out, int64_t outOff, int64_t n) {
  for (int64_t j = 0; j < n; ++j) {
    double v = std::pow(loadAsDouble(a, at, aOff + j * aStride),
                        loadAsDouble(b, bt, bOff + j * bStride));
    switch (at) {
    case om::DT_FLOAT:
      static_cast<float *>(out)[outOff + j] = static_cast<float>(v);
      break;
    case om::DT_DOUBLE:
      static_cast<double *>(out)[outOff + j] = v;
      break;
    case om::DT_INT32:
      static_cast<int32_t *>(out)[outOff + j] = static_cast<int32_t>(v);
      break;
    default:
      static_cast<int64_t *>(out)[outOff + j] = static_cast<int64_t>(v);
      break;
    }
  }
}

class BinaryKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<BinaryKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 2, 1));
    if (op.type() == "bit_shift") {
      std::string direction = attrString(op, "direction", "");
      if (direction != "LEFT" && direction != "RIGHT")
        return opError(op, "direction is \"" + direction +
                               "\" but must be \"LEFT\" or \"RIGHT\"");
    }
    const BinaryOpInfo *info = findBinary(binaryFunctionName(op));
    if (!info)
      return opError(op, "not a binary elementwise op");
    auto k = std::unique_ptr<BinaryKernel>(new BinaryKernel);
    om::DataType at = op.input_desc(0).dtype(), bt = op.input_desc(1).dtype();
    if (at != bt) {
      bool floatOrInt = [](om::DataType t) {
        return t == om::DT_FLOAT || t == om::DT_DOUBLE || t == om::DT_INT32 ||
               t == om::DT_INT64;
      }(at);
      if (op.type() != "pow" || !floatOrInt || dtypeSize(bt) == 0)
        return opError(op, std::string("operand dtypes differ: ") +
                               dtypeName(at) + " and " + dtypeName(bt));
      k->mixed_ = true;
      k->at_ = at;
      k->bt_ = bt;
    } else {
      k->fn_ = info->lookup(at);
      if (!k->fn_)
        return unsupportedDtype(op, at);
    }
    k->aSize_ = dtypeSize(at);
    k->bSize_ = dtypeSize(bt);
    k->oSize_ = dtypeSize(op.output_desc(0).dtype());
    k->bc_ = Broadcast(shapeOf(op.output_desc(0)),
                       {shapeOf(op.input_desc(0)), shapeOf(op.input_desc(1))});
    // Rows shorter than this take runPeriodic when one operand repeats
    // them; longer ones are long enough runs already.
    constexpr int64_t kShortRow = 64;
    for (int i = 0; i < 2 && !k->mixed_ && k->bc_.innerDim() < kShortRow; ++i)
      if (k->bc_.periodicSpan(i) > 0)
        k->periodic_ = i;
    int64_t n = k->bc_.total();
    k->setPlan(op, n, kGrain, info->flops * static_cast<double>(n));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *a = static_cast<const char *>(inputs[0].data);
    auto *b = static_cast<const char *>(inputs[1].data);
    auto *o = static_cast<char *>(outputs[0].data);
    if (periodic_ >= 0) {
      runPeriodic(a, b, o, r);
      return rt::Status::ok();
    }
    const bool aRep = bc_.innerStride(0) == 0, bRep = bc_.innerStride(1) == 0;
    bc_.forEachRow(r.begin, r.end,
                   [&](int64_t pos, const int64_t *in, int64_t len) {
                     if (mixed_)
                       mixedPowRow(a, at_, in[0], bc_.innerStride(0), b, bt_,
                                   in[1], bc_.innerStride(1), o, pos, len);
                     else
                       fn_(a + in[0] * aSize_, aRep, b + in[1] * bSize_, bRep,
                           o + pos * oSize_, len);
                   });
    return rt::Status::ok();
  }

private:
  BinaryKernel() = default;

  /// Elements of the periodic operand's row repeated back to back: the
  /// runs the row function gets.
  static constexpr int64_t kPeriodicRun = 1024;

  /// Operand periodic_ repeats a short row over the dim before it
  /// (Broadcast::periodicSpan): runs as long as kPeriodicRun against that
  /// row tiled, not one call per short row.
  void runPeriodic(const char *a, const char *b, char *o, BlockRange r) const {
    const int64_t span = bc_.periodicSpan(periodic_), row = bc_.innerDim();
    const size_t size = periodic_ == 0 ? aSize_ : bSize_;
    const int64_t tiled = std::min(kPeriodicRun / row * row, span);
    thread_local std::vector<char> tile;
    tile.resize(tiled * size);
    int64_t offs[Broadcast::kMaxOperands];
    for (int64_t pos = r.begin, tileRow = -1; pos < r.end;) {
      bc_.offsetsAt(pos, offs);
      const int64_t phase = pos % row;
      const int64_t rowStart = offs[periodic_] - phase;
      if (rowStart != tileRow) {
        const char *from = (periodic_ == 0 ? a : b) + rowStart * size;
        for (int64_t i = 0; i < tiled; i += row)
          std::memcpy(tile.data() + i * size, from, row * size);
        tileRow = rowStart;
      }
      const int64_t len =
          std::min({r.end - pos, span - pos % span, tiled - phase});
      const char *rep = tile.data() + phase * size;
      if (periodic_ == 0)
        fn_(rep, false, b + offs[1] * bSize_, false, o + pos * oSize_, len);
      else
        fn_(a + offs[0] * aSize_, false, rep, false, o + pos * oSize_, len);
      pos += len;
    }
  }

  Broadcast bc_;
  // The operand that repeats a short row (runPeriodic), or -1.
  int periodic_ = -1;
  BinaryRowFn fn_ = nullptr;
  bool mixed_ = false;
  om::DataType at_ = om::DT_UNDEFINED, bt_ = om::DT_UNDEFINED;
  size_t aSize_ = 0, bSize_ = 0, oSize_ = 0;
};

// --- variadic max / min / sum / mean
// ----------------------------------------------

/// out = broadcast(data_0); out = op(out, broadcast(data_k)) for k >= 1; mean
/// scales by 1/N at the end. Each block does every pass over its own range.
class VariadicKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<VariadicKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 1, 1));
    auto k = std::unique_ptr<VariadicKernel>(new VariadicKernel);
    om::DataType dt = op.output_desc(0).dtype();
    for (const auto &d : op.input_desc())
      if (d.dtype() != dt)
        return opError(op, "operand dtypes differ");
    const std::string &type = op.type();
    bool ok = false;
    if (type == "max" || type == "min") {
      ok = dispatch(MinMaxTypes{}, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        k->copy_ = &TakeBRow<T>::run;
        k->fn_ = type == "max" ? &binaryRow<T, T, Max> : &binaryRow<T, T, Min>;
      });
    } else if (type == "sum") {
      ok = dispatch(NumericTypes{}, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        k->copy_ = &TakeBRow<T>::run;
        k->fn_ = &binaryRow<T, T, Add>;
      });
    } else if (type == "mean") {
      ok = dispatch(FloatTypes{}, dt, [&](auto tag) {
        using T = typename decltype(tag)::type;
        k->copy_ = &TakeBRow<T>::run;
        k->fn_ = &binaryRow<T, T, Add>;
        k->scale_ = &binaryRow<T, T, Mul>;
      });
    } else {
      return opError(op, "not a variadic elementwise op");
    }
    if (!ok)
      return unsupportedDtype(op, dt);
    auto outShape = shapeOf(op.output_desc(0));
    for (const auto &d : op.input_desc())
      k->bcs_.emplace_back(
          outShape, std::vector<std::vector<int64_t>>{outShape, shapeOf(d)});
    k->elemSize_ = dtypeSize(dt);
    k->n_ = numElements(op.output_desc(0));
    k->inv_ = 1.0 / op.input_desc_size();
    k->setPlan(op, k->n_, kGrain,
               static_cast<double>(k->n_) * op.input_desc_size());
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *o = static_cast<char *>(outputs[0].data);
    for (size_t k = 0; k < bcs_.size(); ++k) {
      auto *b = static_cast<const char *>(inputs[k].data);
      const Broadcast &bc = bcs_[k];
      const bool bRep = bc.innerStride(1) == 0;
      BinaryRowFn fn = k == 0 ? copy_ : fn_;
      bc.forEachRow(r.begin, r.end,
                    [&](int64_t pos, const int64_t *in, int64_t len) {
                      fn(o + pos * elemSize_, false, b + in[1] * elemSize_,
                         bRep, o + pos * elemSize_, len);
                    });
    }
    if (scale_ && r.end > r.begin) {
      // mean: out *= 1/N, with 1/N in the output dtype.
      alignas(8) char inv[8];
      if (elemSize_ == 4)
        *reinterpret_cast<float *>(inv) = static_cast<float>(inv_);
      else
        *reinterpret_cast<double *>(inv) = inv_;
      char *p = o + r.begin * elemSize_;
      scale_(p, false, inv, true, p, r.end - r.begin);
    }
    return rt::Status::ok();
  }

private:
  VariadicKernel() = default;
  std::vector<Broadcast> bcs_;
  BinaryRowFn copy_ = nullptr, fn_ = nullptr, scale_ = nullptr;
  size_t elemSize_ = 0;
  int64_t n_ = 0;
  double inv_ = 1;
};

// --- where
// -----------------------------------------------------------------------

template <class U>
void whereRow(const bool *c, int64_t cs, const U *x, int64_t xs, const U *y,
              int64_t ys, U *out, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    out[j] = c[j * cs] ? x[j * xs] : y[j * ys];
}

/// A byte-wise select: any dtype of x/y.
class WhereKernel final : public VectorKernel {
public:
  static rt::Status make(const KernelSpec &spec,
                         std::unique_ptr<WhereKernel> *out) {
    const om::OpDef &op = *spec.op;
    GEFLOW_RT_RETURN_IF_ERROR(checkArity(op, 3, 1));
    if (op.input_desc(0).dtype() != om::DT_BOOL)
      return opError(op, "condition must be bool");
    auto k = std::unique_ptr<WhereKernel>(new WhereKernel);
    k->elemSize_ = dtypeSize(op.output_desc(0).dtype());
    if (k->elemSize_ == 0 || k->elemSize_ > 8)
      return unsupportedDtype(op, op.output_desc(0).dtype());
    k->bc_ = Broadcast(shapeOf(op.output_desc(0)),
                       {shapeOf(op.input_desc(0)), shapeOf(op.input_desc(1)),
                        shapeOf(op.input_desc(2))});
    k->setPlan(op, k->bc_.total(), kGrain, static_cast<double>(k->bc_.total()));
    *out = std::move(k);
    return rt::Status::ok();
  }

  rt::Status runRange(const TensorView *inputs, const TensorView *outputs,
                      BlockRange r) const override {
    auto *c = static_cast<const bool *>(inputs[0].data);
    auto *x = inputs[1].data;
    auto *y = inputs[2].data;
    void *o = outputs[0].data;
    const int64_t cs = bc_.innerStride(0), xs = bc_.innerStride(1),
                  ys = bc_.innerStride(2);
    bc_.forEachRow(
        r.begin, r.end, [&](int64_t pos, const int64_t *in, int64_t len) {
          switch (elemSize_) {
          case 1:
            whereRow(c + in[0], cs, static_cast<const uint8_t *>(x) + in[1], xs,
                     static_cast<const uint8_t *>(y) + in[2], ys,
                     static_cast<uint8_t *>(o) + pos, len);
            break;
          case 2:
            whereRow(c + in[0], cs, static_cast<const uint16_t *>(x) + in[1],
                     xs, static_cast<const uint16_t *>(y) + in[2], ys,
                     static_cast<uint16_t *>(o) + pos, len);
            break;
          case 4:
            whereRow(c + in[0], cs, static_cast<const uint32_t *>(x) + in[1],
                     xs, static_cast<const uint32_t *>(y) + in[2], ys,
                     static_cast<uint32_t *>(o) + pos, len);
            break;
          default:
            whereRow(c + in[0], cs, static_cast<const uint64_t *>(x) + in[1],
                     xs, static_cast<const uint64_t *>(y) + in[2], ys,
                     static_cast<uint64_t *>(o) + pos, len);
            break;
          }
        });
    return rt::Status::ok();
  }

private:
  WhereKernel() = default;
  Broadcast bc_;
  size_t elemSize_ = 0;
};

} // namespace

void geflow::kernels::registerElementwiseKernels(KernelRegistry &registry) {
  registry.serve("BinaryKernel", entryFor<BinaryKernel>());
  registry.serve("VariadicKernel", entryFor<VariadicKernel>());
  registry.serve("WhereKernel", entryFor<WhereKernel>());
  registerElementwiseUnaryKernels(registry);
  registerCastKernel(registry);
}
