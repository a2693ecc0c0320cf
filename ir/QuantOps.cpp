//===- QuantOps.cpp - verifiers of the int8 quantization ge ops -----------===//
//
// Scales and zero points are either per tensor (one element) or per axis
// (1-D, one entry per slice of the quantized axis); a zero point has its
// scale's shape and the quantized operand's element type. The cube ops
// check their shapes with the float ops' shape functions.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}
static Type elementOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

/// `param` (a scale or zero point named `name`) holds one element, or is 1-D
/// with `slices` entries when `slices` is given (the size of the quantized
/// axis, or a row/column count of a product).
static LogicalResult verifyQuantParam(Operation *op, StringRef name,
                                      Value param,
                                      std::optional<int64_t> slices) {
  if (!param)
    return success();
  ArrayRef<int64_t> shape = shapeOf(param);
  int64_t n = numElements(shape);
  if (ShapedType::isDynamic(n) || n == 1)
    return success();
  if (!slices)
    return op->emitOpError()
           << "input '" << name << "' has shape " << formatShape(shape)
           << " but must hold exactly one element";
  if (shape.size() != 1 ||
      (!ShapedType::isDynamic(*slices) && shape[0] != *slices))
    return op->emitOpError()
           << "input '" << name << "' has shape " << formatShape(shape)
           << " but must be a scalar or 1-D with " << *slices << " entries";
  return success();
}

/// The zero point must have the quantized operand's element type and its
/// scale's shape.
static LogicalResult verifyZeroPoint(Operation *op, StringRef name, Value zp,
                                     Value quantized, Value scale) {
  if (!zp)
    return success();
  if (elementOf(zp) != elementOf(quantized))
    return op->emitOpError()
           << "input '" << name << "' has element type " << elementOf(zp)
           << " but the quantized tensor has " << elementOf(quantized);
  if (scale && numElements(shapeOf(zp)) != numElements(shapeOf(scale)))
    return op->emitOpError()
           << "input '" << name << "' has shape " << formatShape(shapeOf(zp))
           << " but its scale has " << formatShape(shapeOf(scale));
  return success();
}

/// Per-axis parameters of a QuantizeLinear/DequantizeLinear over `data`.
static LogicalResult verifyLinearParams(Operation *op, Value data, int64_t axis,
                                        StringRef scaleName, Value scale,
                                        StringRef zpName, Value zp,
                                        Value quantized) {
  int64_t rank = shapeOf(data).size();
  std::optional<int64_t> slices;
  if (numElements(shapeOf(scale)) != 1) {
    if (failed(verifyAxisAttr(op, "axis", axis, rank)))
      return failure();
    slices = shapeOf(data)[*normalizeAxis(axis, rank)];
  }
  if (failed(verifyQuantParam(op, scaleName, scale, slices)) ||
      failed(verifyQuantParam(op, zpName, zp, slices)))
    return failure();
  return verifyZeroPoint(op, zpName, zp, quantized, scale);
}

LogicalResult QuantizeLinearOp::verify() {
  Value zp = getYZeroPoint();
  if (!zp && !elementOf(getY()).isUnsignedInteger(8))
    return emitOpError() << "result has element type " << elementOf(getY())
                         << " but is uint8 without 'y_zero_point'";
  if (failed(verifyLinearParams(*this, getX(), getAxis(), "y_scale",
                                getYScale(), "y_zero_point", zp, getY())))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getX()));
}

LogicalResult DequantizeLinearOp::verify() {
  if (failed(verifyLinearParams(*this, getX(), getAxis(), "x_scale",
                                getXScale(), "x_zero_point", getXZeroPoint(),
                                getX())))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getX()));
}

LogicalResult DynamicQuantizeLinearOp::verify() {
  if (failed(verifyResultShape(*this, 1, {})) ||
      failed(verifyResultShape(*this, 2, {})))
    return failure();
  return verifyResultShape(*this, 0, shapeOf(getX()));
}

/// The rows of A (M) and columns of B (N) of a numpy matmul, for per-row and
/// per-column parameters; kDynamic for a 1-D operand's missing dim.
static std::pair<int64_t, int64_t> productRowsCols(Value a, Value b) {
  ArrayRef<int64_t> as = shapeOf(a), bs = shapeOf(b);
  int64_t m = as.size() >= 2 ? as[as.size() - 2] : 1;
  int64_t n = bs.size() >= 2 ? bs.back() : 1;
  return {m, n};
}

static LogicalResult verifyProductShape(Operation *op, Value a, Value b) {
  std::string why;
  FailureOr<Shape> shape = matmulShape(shapeOf(a), shapeOf(b), &why);
  if (failed(shape))
    return op->emitOpError() << why;
  return verifyResultShape(op, 0, *shape);
}

LogicalResult MatMulIntegerOp::verify() {
  auto [m, n] = productRowsCols(getA(), getB());
  if (failed(verifyQuantParam(*this, "a_zero_point", getAZeroPoint(), m)) ||
      failed(verifyQuantParam(*this, "b_zero_point", getBZeroPoint(), n)) ||
      failed(verifyZeroPoint(*this, "a_zero_point", getAZeroPoint(), getA(),
                             Value())) ||
      failed(verifyZeroPoint(*this, "b_zero_point", getBZeroPoint(), getB(),
                             Value())))
    return failure();
  return verifyProductShape(*this, getA(), getB());
}

LogicalResult QLinearMatMulOp::verify() {
  auto [m, n] = productRowsCols(getA(), getB());
  (void)m;
  if (failed(verifyQuantParam(*this, "a_scale", getAScale(), std::nullopt)) ||
      failed(verifyQuantParam(*this, "a_zero_point", getAZeroPoint(),
                              std::nullopt)) ||
      failed(verifyQuantParam(*this, "b_scale", getBScale(), n)) ||
      failed(verifyQuantParam(*this, "b_zero_point", getBZeroPoint(), n)) ||
      failed(verifyQuantParam(*this, "y_scale", getYScale(), std::nullopt)) ||
      failed(verifyQuantParam(*this, "y_zero_point", getYZeroPoint(),
                              std::nullopt)) ||
      failed(verifyZeroPoint(*this, "a_zero_point", getAZeroPoint(), getA(),
                             getAScale())) ||
      failed(verifyZeroPoint(*this, "b_zero_point", getBZeroPoint(), getB(),
                             getBScale())) ||
      failed(verifyZeroPoint(*this, "y_zero_point", getYZeroPoint(), getY(),
                             getYScale())))
    return failure();
  return verifyProductShape(*this, getA(), getB());
}

static ArrayRef<int64_t> orEmpty(std::optional<ArrayRef<int64_t>> a) {
  return a.value_or(ArrayRef<int64_t>());
}

/// The conv shape of ge.conv_integer and ge.qlinear_conv, as ge.conv's.
template <typename ConvOpT>
static LogicalResult verifyIntConvShape(ConvOpT op) {
  Value x = op.getX(), w = op.getW();
  if (shapeOf(x).size() < 3)
    return op.emitOpError() << "input 'x' has rank " << shapeOf(x).size()
                            << " but needs rank >= 3";
  WindowParams params{orEmpty(op.getKernelShape()),
                      orEmpty(op.getStrides()),
                      orEmpty(op.getPads()),
                      orEmpty(op.getDilations()),
                      op.getAutoPad(),
                      false};
  std::string why;
  FailureOr<Shape> shape =
      convOutputShape(shapeOf(x), shapeOf(w), op.getGroup(), params, &why);
  if (failed(shape))
    return op.emitOpError() << why;
  return verifyResultShape(op, 0, *shape);
}

/// W's output channel count M, for per-channel weight parameters.
static int64_t outputChannels(Value w) {
  return shapeOf(w).empty() ? kDynamic : shapeOf(w)[0];
}

LogicalResult ConvIntegerOp::verify() {
  if (failed(verifyIntConvShape(*this)))
    return failure();
  int64_t channels = outputChannels(getW());
  if (failed(verifyQuantParam(*this, "x_zero_point", getXZeroPoint(),
                              std::nullopt)) ||
      failed(
          verifyQuantParam(*this, "w_zero_point", getWZeroPoint(), channels)) ||
      failed(verifyZeroPoint(*this, "x_zero_point", getXZeroPoint(), getX(),
                             Value())) ||
      failed(verifyZeroPoint(*this, "w_zero_point", getWZeroPoint(), getW(),
                             Value())))
    return failure();
  return success();
}

LogicalResult QLinearConvOp::verify() {
  if (failed(verifyIntConvShape(*this)))
    return failure();
  int64_t channels = outputChannels(getW());
  if (failed(verifyQuantParam(*this, "x_scale", getXScale(), std::nullopt)) ||
      failed(verifyQuantParam(*this, "x_zero_point", getXZeroPoint(),
                              std::nullopt)) ||
      failed(verifyQuantParam(*this, "w_scale", getWScale(), channels)) ||
      failed(
          verifyQuantParam(*this, "w_zero_point", getWZeroPoint(), channels)) ||
      failed(verifyQuantParam(*this, "y_scale", getYScale(), std::nullopt)) ||
      failed(verifyQuantParam(*this, "y_zero_point", getYZeroPoint(),
                              std::nullopt)) ||
      failed(verifyZeroPoint(*this, "x_zero_point", getXZeroPoint(), getX(),
                             getXScale())) ||
      failed(verifyZeroPoint(*this, "y_zero_point", getYZeroPoint(), getY(),
                             getYScale())))
    return failure();
  // w_zero_point may be a scalar with per-channel w_scale (ONNX allows it).
  if (elementOf(getWZeroPoint()) != elementOf(getW()))
    return emitOpError() << "input 'w_zero_point' has element type "
                         << elementOf(getWZeroPoint())
                         << " but the quantized tensor has "
                         << elementOf(getW());
  if (Value b = getB()) {
    ArrayRef<int64_t> bs = shapeOf(b);
    if (bs.size() != 1 ||
        (!ShapedType::isDynamic(bs[0]) && !ShapedType::isDynamic(channels) &&
         bs[0] != channels))
      return emitOpError() << "input 'B' has shape " << formatShape(bs)
                           << " but must be 1-D with the output channel "
                              "count W[0] = "
                           << channels;
  }
  return success();
}
