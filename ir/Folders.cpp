//===- Folders.cpp - folders of ge ops ---------------------------*- C++
//-*-===//
//
// Folders for the shape-arithmetic chains that the importer leaves behind
// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, ...) so that
// canonicalize turns them into ge.constant under static shapes. Element-wise
// folders work on DenseElementsAttr only and decline (return {}) for any
// element type they do not handle, for dynamic result types, and above
// kMaxFoldElements elements so that folding never blows up a model.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/ShapeFunctions.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"

using namespace mlir;
using namespace mlir::ge;

static constexpr int64_t kMaxFoldElements = 1 << 16;

/// The static result type of `op` when folding may build an attribute of it.
static RankedTensorType foldableResultType(Operation *op, unsigned index = 0) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(index).getType());
  if (!type || !type.hasStaticShape() ||
      type.getNumElements() > kMaxFoldElements)
    return {};
  return type;
}

static DenseElementsAttr dense(Attribute a) {
  return dyn_cast_or_null<DenseElementsAttr>(a);
}

/// Linear index into a tensor of `inShape` for every element of `outShape`
/// under numpy broadcasting (inShape right-aligned, size-1 dims repeat).
static SmallVector<int64_t> broadcastIndexMap(ArrayRef<int64_t> outShape,
                                              ArrayRef<int64_t> inShape) {
  int64_t n = numElements(outShape);
  size_t rank = outShape.size(), offset = rank - inShape.size();
  SmallVector<int64_t> inStrides(rank, 0);
  int64_t stride = 1;
  for (size_t i = rank; i-- > offset;) {
    int64_t d = inShape[i - offset];
    inStrides[i] = d == 1 ? 0 : stride;
    stride *= d;
  }
  SmallVector<int64_t> map(n, 0), index(rank, 0);
  for (int64_t linear = 0; linear < n; ++linear) {
    int64_t in = 0;
    for (size_t i = 0; i < rank; ++i)
      in += index[i] * inStrides[i];
    map[linear] = in;
    for (size_t i = rank; i-- > 0;) {
      if (++index[i] < outShape[i])
        break;
      index[i] = 0;
    }
  }
  return map;
}

/// Row-major strides of `shape`.
static SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// Applies `fn` to broadcast operands of the same element type. `fn` gets the
/// elements and whether the type is unsigned; it returns nullopt to decline.
static Attribute foldIntBinary(
    Operation *op, ArrayRef<Attribute> operands,
    function_ref<std::optional<APInt>(const APInt &, const APInt &, bool)> fn) {
  RankedTensorType type = foldableResultType(op);
  DenseElementsAttr a = dense(operands[0]), b = dense(operands[1]);
  if (!type || !a || !b || !a.getElementType().isIntOrIndex())
    return {};
  bool isUnsigned = a.getElementType().isUnsignedInteger();
  SmallVector<int64_t> mapA =
      broadcastIndexMap(type.getShape(), a.getType().getShape());
  SmallVector<int64_t> mapB =
      broadcastIndexMap(type.getShape(), b.getType().getShape());
  SmallVector<APInt> va(a.getValues<APInt>()), vb(b.getValues<APInt>());
  SmallVector<APInt> out;
  for (int64_t i = 0, e = mapA.size(); i < e; ++i) {
    std::optional<APInt> r = fn(va[mapA[i]], vb[mapB[i]], isUnsigned);
    if (!r)
      return {};
    out.push_back(*r);
  }
  return DenseElementsAttr::get(type, out);
}

static Attribute foldFloatBinary(
    Operation *op, ArrayRef<Attribute> operands,
    function_ref<std::optional<APFloat>(const APFloat &, const APFloat &)> fn) {
  RankedTensorType type = foldableResultType(op);
  DenseElementsAttr a = dense(operands[0]), b = dense(operands[1]);
  if (!type || !a || !b || !isa<FloatType>(a.getElementType()) ||
      a.getElementType() != type.getElementType())
    return {};
  SmallVector<int64_t> mapA =
      broadcastIndexMap(type.getShape(), a.getType().getShape());
  SmallVector<int64_t> mapB =
      broadcastIndexMap(type.getShape(), b.getType().getShape());
  SmallVector<APFloat> va(a.getValues<APFloat>()), vb(b.getValues<APFloat>());
  SmallVector<APFloat> out;
  for (int64_t i = 0, e = mapA.size(); i < e; ++i) {
    std::optional<APFloat> r = fn(va[mapA[i]], vb[mapB[i]]);
    if (!r)
      return {};
    out.push_back(*r);
  }
  return DenseElementsAttr::get(type, out);
}

/// x op c -> x when every element of constant `c` is the identity `unit` and
/// the result type is x's (integers only: float identities miss -0 and NaN).
static Value foldIntIdentity(Operation *op, Attribute rhs, int64_t unit) {
  DenseIntElementsAttr c = dyn_cast_or_null<DenseIntElementsAttr>(rhs);
  Value lhs = op->getOperand(0);
  if (!c || lhs.getType() != op->getResult(0).getType())
    return {};
  for (const APInt &v : c.getValues<APInt>())
    if (v.getSExtValue() != unit)
      return {};
  return lhs;
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getX(); }

//===----------------------------------------------------------------------===//
// Arithmetic and comparison
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIntIdentity(*this, adaptor.getB(), 0))
    return v;
  if (Attribute r = foldIntBinary(*this, adaptor.getOperands(),
                                  [](const APInt &a, const APInt &b, bool) {
                                    return std::optional<APInt>(a + b);
                                  }))
    return r;
  return foldFloatBinary(*this, adaptor.getOperands(),
                         [](const APFloat &a, const APFloat &b) {
                           return std::optional<APFloat>(a + b);
                         });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIntIdentity(*this, adaptor.getB(), 0))
    return v;
  if (Attribute r = foldIntBinary(*this, adaptor.getOperands(),
                                  [](const APInt &a, const APInt &b, bool) {
                                    return std::optional<APInt>(a - b);
                                  }))
    return r;
  return foldFloatBinary(*this, adaptor.getOperands(),
                         [](const APFloat &a, const APFloat &b) {
                           return std::optional<APFloat>(a - b);
                         });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIntIdentity(*this, adaptor.getB(), 1))
    return v;
  if (Attribute r = foldIntBinary(*this, adaptor.getOperands(),
                                  [](const APInt &a, const APInt &b, bool) {
                                    return std::optional<APInt>(a * b);
                                  }))
    return r;
  return foldFloatBinary(*this, adaptor.getOperands(),
                         [](const APFloat &a, const APFloat &b) {
                           return std::optional<APFloat>(a * b);
                         });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Value v = foldIntIdentity(*this, adaptor.getB(), 1))
    return v;
  // Integer division truncates toward zero (C semantics, as ONNX Runtime);
  // division by zero and INT_MIN / -1 are left to run time.
  if (Attribute r = foldIntBinary(*this, adaptor.getOperands(),
                                  [](const APInt &a, const APInt &b,
                                     bool isUnsigned) -> std::optional<APInt> {
                                    if (b.isZero())
                                      return std::nullopt;
                                    if (isUnsigned)
                                      return a.udiv(b);
                                    if (a.isMinSignedValue() && b.isAllOnes())
                                      return std::nullopt;
                                    return a.sdiv(b);
                                  }))
    return r;
  return foldFloatBinary(*this, adaptor.getOperands(),
                         [](const APFloat &a, const APFloat &b) {
                           return std::optional<APFloat>(a / b);
                         });
}

/// A small constant, permuted element by element.
OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr data = dense(adaptor.getData());
  if (!type || !data)
    return {};
  if (data.isSplat())
    return data.resizeSplat(type);
  int64_t rank = type.getRank();
  SmallVector<int64_t> perm;
  if (std::optional<ArrayRef<int64_t>> given = getPerm())
    perm.assign(given->begin(), given->end());
  else
    for (int64_t d = rank; d-- > 0;)
      perm.push_back(d);
  SmallVector<int64_t> inStrides = stridesOf(data.getType().getShape());
  SmallVector<Attribute> in(data.getValues<Attribute>()), out;
  out.reserve(type.getNumElements());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += index[d] * inStrides[perm[d]];
    out.push_back(in[source]);
    for (int64_t d = rank; d-- > 0 && ++index[d] == type.getDimSize(d);)
      index[d] = 0;
  }
  return DenseElementsAttr::get(type, out);
}

/// Integer remainders only; a zero divisor is left to run time.
OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  bool cStyle = getFmod() != 0;
  return foldIntBinary(
      *this, adaptor.getOperands(),
      [cStyle](const APInt &a, const APInt &b,
               bool isUnsigned) -> std::optional<APInt> {
        if (b.isZero())
          return std::nullopt;
        if (isUnsigned)
          return a.urem(b);
        if (a.isMinSignedValue() && b.isAllOnes())
          return APInt::getZero(a.getBitWidth());
        APInt r = a.srem(b); // the dividend's sign, as C's fmod
        if (!cStyle && !r.isZero() && r.isNegative() != b.isNegative())
          r += b; // the divisor's sign, as Python's %
        return r;
      });
}

OpFoldResult EqualOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr a = dense(adaptor.getA()), b = dense(adaptor.getB());
  if (!type || !a || !b)
    return {};
  SmallVector<int64_t> mapA =
      broadcastIndexMap(type.getShape(), a.getType().getShape());
  SmallVector<int64_t> mapB =
      broadcastIndexMap(type.getShape(), b.getType().getShape());
  SmallVector<bool> out;
  if (a.getElementType().isIntOrIndex()) {
    SmallVector<APInt> va(a.getValues<APInt>()), vb(b.getValues<APInt>());
    for (size_t i = 0; i < mapA.size(); ++i)
      out.push_back(va[mapA[i]] == vb[mapB[i]]);
  } else if (isa<FloatType>(a.getElementType())) {
    SmallVector<APFloat> va(a.getValues<APFloat>()), vb(b.getValues<APFloat>());
    for (size_t i = 0; i < mapA.size(); ++i)
      out.push_back(va[mapA[i]].compare(vb[mapB[i]]) == APFloat::cmpEqual);
  } else {
    return {};
  }
  return DenseElementsAttr::get(type, out);
}

OpFoldResult WhereOp::fold(FoldAdaptor adaptor) {
  DenseElementsAttr cond = dense(adaptor.getCondition());
  if (!cond)
    return {};
  // A uniform condition selects one operand when it already has the result
  // type.
  if (cond.isSplat()) {
    Value chosen = cond.getSplatValue<bool>() ? getX() : getY();
    if (chosen.getType() == getType())
      return chosen;
  }
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr x = dense(adaptor.getX()), y = dense(adaptor.getY());
  if (!type || !x || !y)
    return {};
  SmallVector<int64_t> mapC =
      broadcastIndexMap(type.getShape(), cond.getType().getShape());
  SmallVector<int64_t> mapX =
      broadcastIndexMap(type.getShape(), x.getType().getShape());
  SmallVector<int64_t> mapY =
      broadcastIndexMap(type.getShape(), y.getType().getShape());
  SmallVector<bool> vc(cond.getValues<bool>());
  SmallVector<Attribute> vx(x.getValues<Attribute>()),
      vy(y.getValues<Attribute>());
  SmallVector<Attribute> out;
  for (size_t i = 0; i < mapC.size(); ++i)
    out.push_back(vc[mapC[i]] ? vx[mapX[i]] : vy[mapY[i]]);
  return DenseElementsAttr::get(type, out);
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  RankedTensorType input = getData().getType();
  RankedTensorType type = getShape().getType();
  if (!input.hasStaticShape() || !type.hasStaticShape())
    return {};
  int64_t rank = input.getRank();
  auto clampIndex = [&](int64_t i) {
    return std::clamp<int64_t>(i < 0 ? i + rank : i, 0, rank);
  };
  int64_t start = clampIndex(getStart());
  int64_t end = getEnd() ? clampIndex(*getEnd()) : rank;
  ArrayRef<int64_t> dims = end > start
                               ? input.getShape().slice(start, end - start)
                               : ArrayRef<int64_t>();
  if ((int64_t)dims.size() != type.getNumElements())
    return {};
  return DenseElementsAttr::get(type, dims);
}

/// Reinterprets constant data with the result's static shape (reshape,
/// squeeze, unsqueeze, flatten-like ops); also x -> x when the types agree.
static OpFoldResult foldReshapeLike(Operation *op, Attribute data) {
  Value input = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (input.getType() == type)
    return input;
  DenseElementsAttr attr = dense(data);
  if (!attr || !type || !type.hasStaticShape() ||
      attr.getNumElements() != type.getNumElements() ||
      attr.getElementType() != type.getElementType())
    return {};
  return attr.reshape(type);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldReshapeLike(*this, adaptor.getData()))
    return r;
  // reshape(reshape(x), s) -> reshape(x, s) when s does not copy input dims
  // (no 0, or allowzero): the result then depends on the element count only.
  auto inner = getData().getDefiningOp<ReshapeOp>();
  auto shape = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getShape());
  if (!inner || !shape)
    return {};
  if (!getAllowzero())
    for (const APInt &d : shape.getValues<APInt>())
      if (d.isZero())
        return {};
  getDataMutable().assign(inner.getData());
  return getResult();
}
OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(*this, adaptor.getData());
}
OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldReshapeLike(*this, adaptor.getData());
}

OpFoldResult ExpandOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  RankedTensorType type = getType();
  DenseElementsAttr input = dense(adaptor.getInput());
  if (!input || !type.hasStaticShape())
    return {};
  if (input.isSplat())
    return input.resizeSplat(type);
  if (!foldableResultType(*this))
    return {};
  SmallVector<int64_t> map =
      broadcastIndexMap(type.getShape(), input.getType().getShape());
  SmallVector<Attribute> values(input.getValues<Attribute>()), out;
  for (int64_t i : map)
    out.push_back(values[i]);
  return DenseElementsAttr::get(type, out);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr data = dense(adaptor.getData());
  DenseIntElementsAttr indices =
      dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  if (!type || !data || !indices)
    return {};
  ArrayRef<int64_t> shape = data.getType().getShape();
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0)
    axis += shape.size();
  int64_t axisSize = shape[axis];
  int64_t outer = numElements(shape.take_front(axis));
  int64_t inner = numElements(shape.drop_front(axis + 1));
  SmallVector<int64_t> idx;
  for (const APInt &i : indices.getValues<APInt>()) {
    int64_t v = i.getSExtValue();
    if (v < 0)
      v += axisSize;
    if (v < 0 || v >= axisSize)
      return {};
    idx.push_back(v);
  }
  if (data.isSplat())
    return data.resizeSplat(type);
  SmallVector<Attribute> values(data.getValues<Attribute>()), out;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i : idx)
      for (int64_t k = 0; k < inner; ++k)
        out.push_back(values[(o * axisSize + i) * inner + k]);
  return DenseElementsAttr::get(type, out);
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  RankedTensorType type = foldableResultType(*this);
  if (!type)
    return {};
  int64_t rank = type.getRank();
  int64_t axis = static_cast<int64_t>(getAxis());
  if (axis < 0)
    axis += rank;
  int64_t outer = numElements(type.getShape().take_front(axis));
  SmallVector<SmallVector<Attribute>> inputs;
  SmallVector<int64_t> chunk; // elements per outer index, per input
  for (Attribute a : adaptor.getInputs()) {
    DenseElementsAttr d = dense(a);
    if (!d)
      return {};
    inputs.emplace_back(d.getValues<Attribute>());
    chunk.push_back(numElements(d.getType().getShape().drop_front(axis)));
  }
  SmallVector<Attribute> out;
  for (int64_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < inputs.size(); ++k)
      out.append(inputs[k].begin() + o * chunk[k],
                 inputs[k].begin() + (o + 1) * chunk[k]);
  return DenseElementsAttr::get(type, out);
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr data = dense(adaptor.getData());
  if (!type || !data)
    return {};
  auto ints = [](Attribute a) -> std::optional<SmallVector<int64_t>> {
    auto d = dyn_cast_or_null<DenseIntElementsAttr>(a);
    if (!d)
      return std::nullopt;
    SmallVector<int64_t> v;
    for (const APInt &i : d.getValues<APInt>())
      v.push_back(i.getSExtValue());
    return v;
  };
  std::optional<SmallVector<int64_t>> starts = ints(adaptor.getStarts()),
                                      ends = ints(adaptor.getEnds());
  if (!starts || !ends)
    return {};
  ArrayRef<int64_t> shape = data.getType().getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> axes, steps(starts->size(), 1);
  if (getAxes()) {
    std::optional<SmallVector<int64_t>> a = ints(adaptor.getAxes());
    if (!a)
      return {};
    for (int64_t axis : *a)
      axes.push_back(axis < 0 ? axis + rank : axis);
  } else {
    for (size_t i = 0; i < starts->size(); ++i)
      axes.push_back(i);
  }
  if (getSteps()) {
    std::optional<SmallVector<int64_t>> s = ints(adaptor.getSteps());
    if (!s)
      return {};
    steps = *s;
    if (llvm::is_contained(steps, 0))
      return {};
  }
  // Per dim: first index, step, count.
  SmallVector<int64_t> first(rank, 0), step(rank, 1), count(shape);
  for (size_t i = 0; i < axes.size(); ++i) {
    sliceDim(shape[axes[i]], (*starts)[i], (*ends)[i], steps[i], first[axes[i]],
             count[axes[i]]);
    step[axes[i]] = steps[i];
  }
  if (ArrayRef<int64_t>(count) != type.getShape())
    return {};
  if (data.isSplat())
    return data.resizeSplat(type);
  SmallVector<int64_t> strides = stridesOf(shape);
  SmallVector<Attribute> values(data.getValues<Attribute>()), out;
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t linear = 0;
    for (int64_t d = 0; d < rank; ++d)
      linear += (first[d] + index[d] * step[d]) * strides[d];
    out.push_back(values[linear]);
    for (int64_t d = rank; d-- > 0;) {
      if (++index[d] < count[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(type, out);
}

/// Converts one element between the int/float types ONNX Cast supports
/// (signless ints are signed; i1 is bool). Returns null to decline.
static Attribute castElement(Attribute value, Type from, Type to) {
  auto isBool = [](Type t) { return t.isInteger(1); };
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    APInt v = i.getValue();
    bool isUnsigned = from.isUnsignedInteger() || isBool(from);
    if (auto toInt = dyn_cast<IntegerType>(to)) {
      if (isBool(to))
        return IntegerAttr::get(to, APInt(1, !v.isZero()));
      return IntegerAttr::get(to, isUnsigned ? v.zextOrTrunc(toInt.getWidth())
                                             : v.sextOrTrunc(toInt.getWidth()));
    }
    if (auto toFloat = dyn_cast<FloatType>(to)) {
      APFloat f(toFloat.getFloatSemantics());
      f.convertFromAPInt(v, !isUnsigned, APFloat::rmNearestTiesToEven);
      return FloatAttr::get(to, f);
    }
    return {};
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    APFloat v = f.getValue();
    if (auto toFloat = dyn_cast<FloatType>(to)) {
      bool lost;
      v.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      return FloatAttr::get(to, v);
    }
    if (auto toInt = dyn_cast<IntegerType>(to)) {
      if (isBool(to))
        return IntegerAttr::get(to, APInt(1, !v.isZero()));
      // Out-of-range and NaN are undefined in ONNX; leave them to run time.
      APSInt result(toInt.getWidth(), toInt.isUnsigned());
      bool exact;
      if (v.convertToInteger(result, APFloat::rmTowardZero, &exact) &
          APFloat::opInvalidOp)
        return {};
      return IntegerAttr::get(to, result);
    }
  }
  return {};
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr input = dense(adaptor.getInput());
  if (!type || !input)
    return {};
  Type from = input.getElementType(), to = type.getElementType();
  if (input.isSplat()) {
    Attribute v = castElement(input.getSplatValue<Attribute>(), from, to);
    return v ? DenseElementsAttr::get(type, v) : Attribute();
  }
  SmallVector<Attribute> out;
  for (Attribute a : input.getValues<Attribute>()) {
    Attribute v = castElement(a, from, to);
    if (!v)
      return {};
    out.push_back(v);
  }
  return DenseElementsAttr::get(type, out);
}

OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = getType();
  if (!type.hasStaticShape() || !adaptor.getInput())
    return {};
  Attribute value;
  if (std::optional<ElementsAttr> v = getValue()) {
    auto d = dyn_cast<DenseElementsAttr>(*v);
    if (!d || d.getNumElements() != 1)
      return {};
    value = *d.getValues<Attribute>().begin();
  } else {
    value = FloatAttr::get(Float32Type::get(getContext()), 0.0);
  }
  if (cast<TypedAttr>(value).getType() != type.getElementType())
    return {};
  return DenseElementsAttr::get(type, value);
}

OpFoldResult RangeOp::fold(FoldAdaptor adaptor) {
  RankedTensorType type = foldableResultType(*this);
  DenseElementsAttr start = dense(adaptor.getStart()),
                    delta = dense(adaptor.getDelta());
  if (!type || !start || !delta || !dense(adaptor.getLimit()))
    return {};
  // ONNX defines Range as a loop adding delta, so accumulate in the element
  // type.
  int64_t n = type.getNumElements();
  if (start.getElementType().isSignlessInteger()) {
    APInt v = *start.getValues<APInt>().begin(),
          d = *delta.getValues<APInt>().begin();
    SmallVector<APInt> out;
    for (int64_t i = 0; i < n; ++i, v += d)
      out.push_back(v);
    return DenseElementsAttr::get(type, out);
  }
  if (isa<FloatType>(start.getElementType())) {
    APFloat v = *start.getValues<APFloat>().begin(),
            d = *delta.getValues<APFloat>().begin();
    SmallVector<APFloat> out;
    for (int64_t i = 0; i < n; ++i) {
      out.push_back(v);
      v.add(d, APFloat::rmNearestTiesToEven);
    }
    return DenseElementsAttr::get(type, out);
  }
  return {};
}
