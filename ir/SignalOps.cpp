//===- SignalOps.cpp - verifiers of the signal ge ops -----------*- C++ -*-===//
//
// The shape operands of the window functions, DFT, STFT and MelWeightMatrix
// must agree with the static result shape wherever they are constants; the
// kernels check the others at run time.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

namespace {

/// The element type of ONNX's TensorProto.DataType `dtype` when it is a
/// numeric one (the types output_datatype may name), else null.
Type onnxNumericType(MLIRContext *context, int64_t dtype) {
  Builder b(context);
  switch (dtype) {
  case 1:
    return b.getF32Type();
  case 2:
    return b.getIntegerType(8, /*isSigned=*/false);
  case 3:
    return b.getIntegerType(8);
  case 4:
    return b.getIntegerType(16, /*isSigned=*/false);
  case 5:
    return b.getIntegerType(16);
  case 6:
    return b.getI32Type();
  case 7:
    return b.getI64Type();
  case 10:
    return b.getF16Type();
  case 11:
    return b.getF64Type();
  case 12:
    return b.getIntegerType(32, /*isSigned=*/false);
  case 13:
    return b.getIntegerType(64, /*isSigned=*/false);
  case 16:
    return b.getBF16Type();
  default:
    return nullptr;
  }
}

LogicalResult verifyOutputDatatype(Operation *op, int64_t dtype, Type element) {
  Type expected = onnxNumericType(op->getContext(), dtype);
  if (!expected)
    return op->emitOpError() << "attribute 'output_datatype' is " << dtype
                             << " but must name a numeric ONNX data type";
  if (expected != element)
    return op->emitOpError()
           << "result element type " << element << " is not " << expected
           << ", which output_datatype " << dtype << " names";
  return success();
}

/// The value of a one-element integer operand when it is a constant.
std::optional<int64_t> constantScalar(Value v) {
  std::optional<SmallVector<int64_t>> ints =
      v ? getConstantInts(v) : std::nullopt;
  if (!ints || ints->size() != 1)
    return std::nullopt;
  return ints->front();
}

/// `name` is a scalar operand; a constant one must be at least `least`.
LogicalResult verifyScalarAtLeast(Operation *op, StringRef name, Value v,
                                  int64_t least) {
  if (failed(verifyScalarOperand(op, name, v)))
    return failure();
  std::optional<int64_t> value = constantScalar(v);
  if (value && *value < least)
    return op->emitOpError() << "operand '" << name << "' is " << *value
                             << " but must be at least " << least;
  return success();
}

template <class WindowOp> LogicalResult verifyWindow(WindowOp op) {
  Operation *operation = op.getOperation();
  if (failed(verifyScalarAtLeast(operation, "size", op.getSize(), 0)) ||
      failed(verifyFlagAttr(operation, "periodic", op.getPeriodic())) ||
      failed(verifyOutputDatatype(operation, op.getOutputDatatype(),
                                  op.getOutput().getType().getElementType())))
    return failure();
  if (op.getOutput().getType().getRank() != 1)
    return op.emitOpError() << "result must be 1-D";
  if (std::optional<int64_t> size = constantScalar(op.getSize()))
    return verifyResultShape(operation, 0, {*size});
  return success();
}

/// The last dim of a DFT or STFT input: 1 (real) or 2 (complex).
LogicalResult verifyComponents(Operation *op, StringRef name,
                               RankedTensorType type) {
  int64_t last = type.getShape().back();
  if (last != 1 && last != 2 && !ShapedType::isDynamic(last))
    return op->emitOpError()
           << "operand '" << name << "' has shape "
           << formatShape(type.getShape())
           << " but its last dim must be 1 (real) or 2 (complex)";
  return success();
}

} // namespace

LogicalResult HannWindowOp::verify() { return verifyWindow(*this); }
LogicalResult HammingWindowOp::verify() { return verifyWindow(*this); }
LogicalResult BlackmanWindowOp::verify() { return verifyWindow(*this); }

LogicalResult DFTOp::verify() {
  RankedTensorType input = getInput().getType();
  int64_t rank = input.getRank();
  if (rank < 2)
    return emitOpError() << "input has shape " << formatShape(input.getShape())
                         << " but DFT needs rank >= 2 (signal, components)";
  if (failed(verifyComponents(*this, "input", input)) ||
      failed(verifyFlagAttr(*this, "inverse", getInverse())) ||
      failed(verifyFlagAttr(*this, "onesided", getOnesided())))
    return failure();
  // The components dim is never transformed.
  int64_t axis = getAxis() < 0 ? getAxis() + rank : getAxis();
  if (axis < 0 || axis > rank - 2)
    return emitOpError() << "attribute 'axis' is " << getAxis()
                         << " but must lie in [" << -rank << ", " << rank - 2
                         << "] (not the components dim)";
  if (getOnesided() && input.getShape().back() == 2)
    return emitOpError() << "onesided = 1 needs a real input (last dim 1)";
  if (getOnesided() && getInverse())
    return emitOpError() << "onesided and inverse cannot both be 1 (ONNX)";
  std::optional<int64_t> length = input.getDimSize(axis);
  if (getDftLength()) {
    if (failed(verifyScalarAtLeast(*this, "dft_length", getDftLength(), 1)))
      return failure();
    length = constantScalar(getDftLength());
  }
  SmallVector<int64_t> expected(input.getShape());
  expected.back() = 2;
  expected[axis] = ShapedType::kDynamic;
  if (length && !ShapedType::isDynamic(*length))
    expected[axis] = getOnesided() ? *length / 2 + 1 : *length;
  return verifyResultShape(*this, 0, expected);
}

LogicalResult STFTOp::verify() {
  RankedTensorType signal = getSignal().getType();
  if (signal.getRank() != 3)
    return emitOpError() << "signal has shape "
                         << formatShape(signal.getShape())
                         << " but must be [batch, length, 1 or 2]";
  if (failed(verifyComponents(*this, "signal", signal)) ||
      failed(verifyFlagAttr(*this, "onesided", getOnesided())) ||
      failed(verifyScalarAtLeast(*this, "frame_step", getFrameStep(), 1)))
    return failure();
  if (getOnesided() && signal.getShape().back() == 2)
    return emitOpError() << "onesided = 1 needs a real signal (last dim 1)";
  if (!getWindow() && !getFrameLength())
    return emitOpError() << "needs a window or a frame_length";
  std::optional<int64_t> frameLength;
  if (getWindow()) {
    RankedTensorType window = getWindow().getType();
    if (window.getRank() != 1)
      return emitOpError() << "window has shape "
                           << formatShape(window.getShape())
                           << " but must be 1-D";
    if (!window.isDynamicDim(0))
      frameLength = window.getDimSize(0);
  }
  if (getFrameLength()) {
    if (failed(verifyScalarAtLeast(*this, "frame_length", getFrameLength(), 1)))
      return failure();
    std::optional<int64_t> given = constantScalar(getFrameLength());
    if (given && frameLength && *given != *frameLength)
      return emitOpError() << "frame_length is " << *given
                           << " but the window has " << *frameLength
                           << " samples";
    if (given)
      frameLength = given;
  }
  int64_t length = signal.getDimSize(1);
  if (frameLength && !signal.isDynamicDim(1) && *frameLength > length)
    return emitOpError() << "frame length " << *frameLength
                         << " is longer than the signal (" << length << ")";
  SmallVector<int64_t> expected = {signal.getDimSize(0), ShapedType::kDynamic,
                                   ShapedType::kDynamic, 2};
  std::optional<int64_t> step = constantScalar(getFrameStep());
  if (frameLength) {
    expected[2] = getOnesided() ? *frameLength / 2 + 1 : *frameLength;
    if (step && !signal.isDynamicDim(1))
      expected[1] = (length - *frameLength) / *step + 1;
  }
  return verifyResultShape(*this, 0, expected);
}

LogicalResult MelWeightMatrixOp::verify() {
  if (failed(verifyScalarAtLeast(*this, "num_mel_bins", getNumMelBins(), 1)) ||
      failed(verifyScalarAtLeast(*this, "dft_length", getDftLength(), 1)) ||
      failed(verifyScalarAtLeast(*this, "sample_rate", getSampleRate(), 1)) ||
      failed(verifyScalarOperand(*this, "lower_edge_hertz",
                                 getLowerEdgeHertz())) ||
      failed(verifyScalarOperand(*this, "upper_edge_hertz",
                                 getUpperEdgeHertz())) ||
      failed(verifyOutputDatatype(*this, getOutputDatatype(),
                                  getOutput().getType().getElementType())))
    return failure();
  std::optional<int64_t> bins = constantScalar(getNumMelBins());
  std::optional<int64_t> length = constantScalar(getDftLength());
  return verifyResultShape(*this, 0,
                           {length ? *length / 2 + 1 : ShapedType::kDynamic,
                            bins ? *bins : ShapedType::kDynamic});
}
