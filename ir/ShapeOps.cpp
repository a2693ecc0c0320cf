//===- ShapeOps.cpp - verifiers of shape and data-movement ops --*- C++ -*-===//
//
// Each verifier computes the result shape from the operand shapes and, when
// they are constant (matchPattern m_Constant), the values of shape-like
// operands; otherwise it checks what it can (ranks, lengths).
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
static int64_t rankOf(Value v) { return shapeOf(v).size(); }
static bool isDyn(int64_t d) { return ShapedType::isDynamic(d); }

/// The static length of a 1-D operand, or kDynamic.
static int64_t lengthOf(Value v) { return shapeOf(v)[0]; }

LogicalResult ConcatOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  int64_t rank = rankOf(getInputs()[0]);
  if (rank == 0)
    return emitOpError() << "inputs must have rank >= 1";
  if (failed(verifyAxisAttr(*this, "axis", getAxis(), rank)))
    return failure();
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : getInputs())
    shapes.push_back(shapeOf(v));
  std::string why;
  FailureOr<Shape> shape =
      concatShape(shapes, *normalizeAxis(getAxis(), rank), &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult ConstantOfShapeOp::verify() {
  if (failed(verifyRank1Operand(*this, "input", getInput())))
    return failure();
  Type resultElement = getOutput().getType().getElementType();
  if (std::optional<ElementsAttr> value = getValue()) {
    if (value->getNumElements() != 1)
      return emitOpError()
             << "attribute 'value' must hold exactly one element, "
                "it has "
             << value->getNumElements();
    if (value->getElementType() != resultElement)
      return emitOpError() << "attribute 'value' has element type "
                           << value->getElementType() << " but the result has "
                           << resultElement;
  } else if (!resultElement.isF32()) {
    return emitOpError() << "result element type " << resultElement
                         << " needs a 'value' (the default value is 0.0 : f32)";
  }
  if (std::optional<SmallVector<int64_t>> dims = getConstantInts(getInput())) {
    for (int64_t d : *dims)
      if (d < 0)
        return emitOpError()
               << "shape " << formatShape(*dims) << " has a negative dim";
    return verifyResultShape(*this, 0, *dims);
  }
  int64_t length = lengthOf(getInput());
  if (!isDyn(length) && length != getOutput().getType().getRank())
    return emitOpError() << "result has rank "
                         << getOutput().getType().getRank()
                         << " but the shape operand has " << length << " dims";
  return success();
}

LogicalResult ExpandOp::verify() {
  if (failed(verifyRank1Operand(*this, "shape", getShape())))
    return failure();
  ArrayRef<int64_t> input = shapeOf(getInput());
  if (std::optional<SmallVector<int64_t>> dims = getConstantInts(getShape())) {
    std::string why;
    FailureOr<Shape> shape = broadcastShapes(input, *dims, &why);
    if (failed(shape))
      return emitOpError() << "input does not expand to the shape operand: "
                           << why;
    return verifyResultShape(*this, 0, *shape);
  }
  int64_t length = lengthOf(getShape());
  int64_t rank = getOutput().getType().getRank();
  if (!isDyn(length) && rank != std::max<int64_t>(length, input.size()))
    return emitOpError() << "result has rank " << rank << " but expected "
                         << std::max<int64_t>(length, input.size());
  return success();
}

LogicalResult FlattenOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  int64_t rank = input.size();
  int64_t axis = getAxis();
  if (axis < -rank || axis > rank)
    return emitOpError() << "attribute 'axis' is " << axis
                         << " but the input has rank " << rank
                         << " (allowed range [" << -rank << ", " << rank
                         << "])";
  if (axis < 0)
    axis += rank;
  return verifyResultShape(*this, 0,
                           {numElements(input.take_front(axis)),
                            numElements(input.drop_front(axis))});
}

LogicalResult GatherOp::verify() {
  ArrayRef<int64_t> data = shapeOf(getData());
  int64_t rank = data.size();
  if (rank == 0)
    return emitOpError() << "input 'data' must have rank >= 1";
  if (failed(verifyAxisAttr(*this, "axis", getAxis(), rank)))
    return failure();
  int64_t axis = *normalizeAxis(getAxis(), rank);
  if (std::optional<SmallVector<int64_t>> indices =
          getConstantInts(getIndices());
      indices && !isDyn(data[axis])) {
    for (int64_t i : *indices)
      if (i < -data[axis] || i >= data[axis])
        return emitOpError() << "index " << i << " is out of range for axis "
                             << axis << " of size " << data[axis];
  }
  return verifyResultShape(*this, 0,
                           gatherShape(data, shapeOf(getIndices()), axis));
}

LogicalResult PadOp::verify() {
  StringRef mode = getMode();
  if (!llvm::is_contained({"constant", "reflect", "edge", "wrap"}, mode))
    return emitOpError()
           << "attribute 'mode' is \"" << mode
           << "\" but must be one of constant, reflect, edge, wrap";
  if (failed(verifyRank1Operand(*this, "pads", getPads())) ||
      failed(verifyRank1Operand(*this, "axes", getAxes())) ||
      failed(verifyScalarOperand(*this, "constant_value", getConstantValue())))
    return failure();
  if (Value cv = getConstantValue();
      cv && getElementTypeOrSelf(cv.getType()) !=
                getData().getType().getElementType())
    return emitOpError() << "operand 'constant_value' has element type "
                         << getElementTypeOrSelf(cv.getType())
                         << " but the data has "
                         << getData().getType().getElementType();
  ArrayRef<int64_t> data = shapeOf(getData());
  int64_t rank = data.size();
  SmallVector<int64_t> axes;
  if (getAxes()) {
    std::optional<SmallVector<int64_t>> constAxes = getConstantInts(getAxes());
    if (!constAxes)
      return success();
    std::string why;
    FailureOr<Shape> n = normalizeAxes(*constAxes, rank, &why);
    if (failed(n))
      return emitOpError() << "operand 'axes': " << why;
    axes.assign(n->begin(), n->end());
  } else {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  }
  int64_t numAxes = axes.size();
  int64_t padsLength = lengthOf(getPads());
  if (!isDyn(padsLength) && padsLength != 2 * numAxes)
    return emitOpError() << "operand 'pads' has " << padsLength
                         << " values but expected " << 2 * numAxes
                         << " (begin and end for each of " << numAxes
                         << " axes)";
  std::optional<SmallVector<int64_t>> pads = getConstantInts(getPads());
  if (!pads)
    return verifyResultShape(*this, 0, SmallVector<int64_t>(rank, kDynamic));
  Shape out(data.begin(), data.end());
  for (int64_t i = 0; i < numAxes; ++i) {
    int64_t axis = axes[i];
    if (isDyn(out[axis]))
      continue;
    out[axis] += (*pads)[i] + (*pads)[i + numAxes];
    if (out[axis] < 0)
      return emitOpError() << "pads " << formatShape(*pads) << " crop dim "
                           << axis << " below zero";
  }
  return verifyResultShape(*this, 0, out);
}

LogicalResult RangeOp::verify() {
  for (auto [name, v] : {std::pair<StringRef, Value>{"start", getStart()},
                         {"limit", getLimit()},
                         {"delta", getDelta()}})
    if (rankOf(v) != 0)
      return emitOpError() << "operand '" << name << "' has rank " << rankOf(v)
                           << " but must be a scalar (rank 0)";
  if (getOutput().getType().getRank() != 1)
    return emitOpError() << "result must be 1-D";
  // With constant operands the length is max(ceil((limit - start) / delta), 0).
  auto scalar = [](Value v) -> std::optional<double> {
    DenseElementsAttr attr;
    if (!matchPattern(v, m_Constant(&attr)))
      return std::nullopt;
    if (auto ints = dyn_cast<DenseIntElementsAttr>(attr))
      return (double)(*ints.getValues<APInt>().begin()).getSExtValue();
    if (auto floats = dyn_cast<DenseFPElementsAttr>(attr))
      return (*floats.getValues<APFloat>().begin()).convertToDouble();
    return std::nullopt;
  };
  std::optional<double> start = scalar(getStart()), limit = scalar(getLimit()),
                        delta = scalar(getDelta());
  if (delta && *delta == 0)
    return emitOpError() << "operand 'delta' must not be 0";
  if (!start || !limit || !delta)
    return success();
  double count = std::ceil((*limit - *start) / *delta);
  if (!std::isfinite(count) || count > 1e15)
    return emitOpError() << "has a non-finite or huge length";
  return verifyResultShape(*this, 0, {std::max<int64_t>((int64_t)count, 0)});
}

LogicalResult ReshapeOp::verify() {
  if (failed(verifyFlagAttr(*this, "allowzero", getAllowzero())) ||
      failed(verifyRank1Operand(*this, "shape", getShape())))
    return failure();
  int64_t length = lengthOf(getShape());
  int64_t rank = getReshaped().getType().getRank();
  if (!isDyn(length) && length != rank)
    return emitOpError() << "result has rank " << rank
                         << " but the shape operand has " << length << " dims";
  std::optional<SmallVector<int64_t>> target = getConstantInts(getShape());
  if (!target)
    return success();
  std::string why;
  FailureOr<Shape> shape =
      reshapeShape(shapeOf(getData()), *target, getAllowzero(), &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

/// ONNX Shape's [start, end) after clamping to [0, rank].
static std::pair<int64_t, int64_t> shapeRange(int64_t rank, int64_t start,
                                              std::optional<int64_t> end) {
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t s = clampIndex(start), e = end ? clampIndex(*end) : rank;
  return {s, std::max(s, e)};
}

LogicalResult ShapeOp::verify() {
  auto [start, end] = shapeRange(rankOf(getData()), getStart(), getEnd());
  return verifyResultShape(*this, 0, {end - start});
}

LogicalResult SliceOp::verify() {
  Value operands[] = {getStarts(), getEnds(), getAxes(), getSteps()};
  StringRef names[] = {"starts", "ends", "axes", "steps"};
  for (int i = 0; i < 4; ++i) {
    if (!operands[i])
      continue;
    if (failed(verifyRank1Operand(*this, names[i], operands[i])))
      return failure();
    int64_t length = lengthOf(operands[i]),
            startsLength = lengthOf(getStarts());
    if (!isDyn(length) && !isDyn(startsLength) && length != startsLength)
      return emitOpError() << "operand '" << names[i] << "' has " << length
                           << " values but 'starts' has " << startsLength;
  }
  ArrayRef<int64_t> data = shapeOf(getData());
  std::optional<SmallVector<int64_t>> starts = getConstantInts(getStarts());
  std::optional<SmallVector<int64_t>> ends = getConstantInts(getEnds());
  std::optional<SmallVector<int64_t>> axes, steps;
  if (getAxes())
    axes = getConstantInts(getAxes());
  if (getSteps())
    steps = getConstantInts(getSteps());
  if (!starts || !ends || (getAxes() && !axes) || (getSteps() && !steps))
    return verifyResultShape(*this, 0,
                             SmallVector<int64_t>(data.size(), kDynamic));
  std::string why;
  FailureOr<Shape> shape = sliceShape(
      data, *starts, *ends, axes ? ArrayRef<int64_t>(*axes) : std::nullopt,
      steps ? ArrayRef<int64_t>(*steps) : std::nullopt, &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult SplitOp::verify() {
  ArrayRef<int64_t> input = shapeOf(getInput());
  int64_t rank = input.size();
  if (rank == 0)
    return emitOpError() << "input must have rank >= 1";
  if (failed(verifyAxisAttr(*this, "axis", getAxis(), rank)) ||
      failed(verifyRank1Operand(*this, "split", getSplit())))
    return failure();
  int64_t numOutputs = getNumResults();
  if (numOutputs == 0)
    return emitOpError() << "needs at least one result";
  Type elementType = getInput().getType().getElementType();
  for (Value r : getOutputs())
    if (getElementTypeOrSelf(r.getType()) != elementType)
      return emitOpError() << "results must have the input's element type "
                           << elementType;
  int64_t axis = *normalizeAxis(getAxis(), rank);
  int64_t dim = input[axis];
  SmallVector<int64_t> sizes;
  if (getSplit()) {
    int64_t length = lengthOf(getSplit());
    if (!isDyn(length) && length != numOutputs)
      return emitOpError() << "operand 'split' has " << length
                           << " values but the op has " << numOutputs
                           << " results";
    std::optional<SmallVector<int64_t>> split = getConstantInts(getSplit());
    if (!split)
      sizes.assign(numOutputs, kDynamic);
    else {
      int64_t sum = 0;
      for (int64_t s : *split) {
        if (s < 0)
          return emitOpError()
                 << "split " << formatShape(*split) << " has a negative size";
        sum += s;
      }
      if (!isDyn(dim) && sum != dim)
        return emitOpError()
               << "split " << formatShape(*split) << " sums to " << sum
               << " but dim " << axis << " has size " << dim;
      sizes = *split;
    }
  } else if (isDyn(dim)) {
    sizes.assign(numOutputs, kDynamic);
  } else {
    if (dim % numOutputs != 0)
      return emitOpError() << "dim " << axis << " of size " << dim
                           << " does not split evenly into " << numOutputs
                           << " results";
    sizes.assign(numOutputs, dim / numOutputs);
  }
  for (int64_t i = 0; i < numOutputs; ++i) {
    Shape expected(input.begin(), input.end());
    expected[axis] = sizes[i];
    if (failed(verifyResultShape(*this, i, expected)))
      return failure();
  }
  return success();
}

LogicalResult SqueezeOp::verify() {
  if (failed(verifyRank1Operand(*this, "axes", getAxes())))
    return failure();
  ArrayRef<int64_t> data = shapeOf(getData());
  SmallVector<int64_t> axes;
  if (getAxes()) {
    std::optional<SmallVector<int64_t>> constAxes = getConstantInts(getAxes());
    if (!constAxes)
      return success();
    axes = *constAxes;
  } else if (llvm::any_of(data, isDyn)) {
    return success(); // which dims are 1 is unknown
  }
  std::string why;
  FailureOr<Shape> shape = squeezeShape(data, axes, &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult UnsqueezeOp::verify() {
  if (failed(verifyRank1Operand(*this, "axes", getAxes())))
    return failure();
  ArrayRef<int64_t> data = shapeOf(getData());
  std::optional<SmallVector<int64_t>> axes = getConstantInts(getAxes());
  if (!axes) {
    int64_t length = lengthOf(getAxes());
    int64_t rank = getExpanded().getType().getRank();
    if (!isDyn(length) && rank != (int64_t)data.size() + length)
      return emitOpError() << "result has rank " << rank << " but expected "
                           << data.size() + length;
    return success();
  }
  std::string why;
  FailureOr<Shape> shape = unsqueezeShape(data, *axes, &why);
  if (failed(shape))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult TileOp::verify() {
  if (failed(verifyRank1Operand(*this, "repeats", getRepeats())))
    return failure();
  ArrayRef<int64_t> input = shapeOf(getInput());
  int64_t length = lengthOf(getRepeats());
  if (!isDyn(length) && length != (int64_t)input.size())
    return emitOpError() << "operand 'repeats' has " << length
                         << " values but the input has rank " << input.size();
  std::optional<SmallVector<int64_t>> repeats = getConstantInts(getRepeats());
  if (!repeats)
    return verifyResultShape(*this, 0,
                             SmallVector<int64_t>(input.size(), kDynamic));
  Shape out;
  for (auto [d, r] : llvm::zip(input, *repeats)) {
    if (r < 0)
      return emitOpError() << "repeats " << formatShape(*repeats)
                           << " has a negative value";
    int64_t tiled = kDynamic;
    if (!isDyn(d) && __builtin_mul_overflow(d, r, &tiled))
      return emitOpError() << "repeats " << formatShape(*repeats)
                           << " overflow int64 dims on input "
                           << formatShape(input);
    out.push_back(tiled);
  }
  return verifyResultShape(*this, 0, out);
}

LogicalResult TransposeOp::verify() {
  std::string why;
  FailureOr<Shape> shape = transposeShape(
      shapeOf(getData()), getPerm().value_or(ArrayRef<int64_t>()), &why);
  if (failed(shape))
    return emitOpError() << "attribute 'perm': " << why;
  return verifyResultShape(*this, 0, *shape);
}

LogicalResult ResizeOp::verify() {
  if (!llvm::is_contained({"nearest", "linear", "cubic"}, getMode()))
    return emitOpError() << "attribute 'mode' is \"" << getMode()
                         << "\" but must be nearest, linear or cubic";
  // tf_half_pixel_for_nn left the spec in opset 13 but converted models keep
  // it.
  if (!llvm::is_contained({"half_pixel", "pytorch_half_pixel", "align_corners",
                           "asymmetric", "tf_crop_and_resize",
                           "tf_half_pixel_for_nn"},
                          getCoordinateTransformationMode()))
    return emitOpError()
           << "attribute 'coordinate_transformation_mode' is \""
           << getCoordinateTransformationMode()
           << "\" but must be one of half_pixel, pytorch_half_pixel, "
              "align_corners, asymmetric, tf_crop_and_resize, "
              "tf_half_pixel_for_nn";
  if (!llvm::is_contained(
          {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"},
          getNearestMode()))
    return emitOpError() << "attribute 'nearest_mode' is \"" << getNearestMode()
                         << "\" but must be one of round_prefer_floor, "
                            "round_prefer_ceil, floor, ceil";
  if (failed(verifyFlagAttr(*this, "exclude_outside", getExcludeOutside())) ||
      failed(verifyRank1Operand(*this, "roi", getRoi())) ||
      failed(verifyRank1Operand(*this, "scales", getScales())) ||
      failed(verifyRank1Operand(*this, "sizes", getSizes())))
    return failure();
  ArrayRef<int64_t> x = shapeOf(getX());
  int64_t rank = x.size();
  if (getY().getType().getRank() != rank)
    return emitOpError() << "result has rank " << getY().getType().getRank()
                         << " but the input 'X' has rank " << rank;
  // An empty tensor stands for an absent input (ONNX's "" placeholder).
  auto present = [](Value v) { return v && lengthOf(v) != 0; };
  bool hasScales = present(getScales()), hasSizes = present(getSizes());
  if (hasScales && hasSizes)
    return emitOpError() << "takes 'scales' or 'sizes', not both";
  if (!hasScales && !hasSizes)
    return emitOpError() << "needs one of 'scales' and 'sizes'";
  Value given = hasScales ? getScales() : getSizes();
  if (!isDyn(lengthOf(given)) && lengthOf(given) != rank)
    return emitOpError() << "operand '" << (hasScales ? "scales" : "sizes")
                         << "' has " << lengthOf(given)
                         << " values but the input 'X' has rank " << rank;
  if (hasSizes) {
    if (std::optional<SmallVector<int64_t>> sizes = getConstantInts(getSizes()))
      return verifyResultShape(*this, 0, *sizes);
    return success();
  }
  DenseFPElementsAttr scales;
  if (!matchPattern(getScales(), m_Constant(&scales)))
    return success();
  Shape out;
  // ONNX shape inference: floor(float(dim) * scale).
  for (auto [d, s] : llvm::zip(x, scales.getValues<float>())) {
    if (s <= 0)
      return emitOpError() << "scales must be positive, got " << s;
    if (isDyn(d)) {
      out.push_back(kDynamic);
      continue;
    }
    float dim = std::floor((float)d * s);
    if (!std::isfinite(dim) || dim > 1e15f)
      return emitOpError() << "scales give a non-finite or huge dim";
    out.push_back((int64_t)dim);
  }
  return verifyResultShape(*this, 0, out);
}

/// True when `v` is a constant whose every element satisfies `pred`.
template <typename T, typename Pred>
static bool constantAll(Value v, Pred pred) {
  DenseElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)) || attr.empty())
    return false;
  return llvm::all_of(attr.getValues<T>(), pred);
}

bool DropoutOp::isIdentity() {
  Value mode = getTrainingMode();
  return !mode || constantAll<bool>(mode, [](bool on) { return !on; }) ||
         constantAll<APFloat>(getRatio(),
                              [](const APFloat &r) { return r.isZero(); });
}

LogicalResult DropoutOp::verify() {
  if (failed(verifyScalarOperand(*this, "ratio", getRatio())) ||
      failed(verifyScalarOperand(*this, "training_mode", getTrainingMode())))
    return failure();
  if (constantAll<bool>(getTrainingMode(), [](bool on) { return on; }) &&
      !isIdentity())
    return emitOpError() << "training_mode is true and the ratio is not a "
                            "constant 0, but only inference dropout is "
                            "supported";
  return verifyResultShape(*this, 1, shapeOf(getData()));
}
