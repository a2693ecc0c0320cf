//===- RecurrentOps.cpp - verifiers of the recurrent ops and einsum -------===//
//
// LSTM, GRU and RNN (as imported and as lowered recurrences) share one
// verifier: it derives T, batch, hidden size and directions from the operands
// and checks every operand and result against them, and the activations
// against the cell's count and ONNX's list.
//
//===----------------------------------------------------------------------===//

#include "ir/EinsumEquation.h"
#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::ge;
using namespace mlir::ge::detail;

namespace {

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// What differs between the three cells.
struct Cell {
  StringRef onnx;
  int64_t gates;       // blocks of hidden_size in W, R and XW
  int64_t activations; // per direction
};
constexpr Cell kLstm{"LSTM", 4, 3};
constexpr Cell kGru{"GRU", 3, 2};
constexpr Cell kRnn{"RNN", 1, 1};

/// The activations ONNX's recurrent ops take (case as ONNX writes them).
bool isRecurrentActivation(StringRef name) {
  return llvm::StringSwitch<bool>(name.lower())
      .Cases("relu", "tanh", "sigmoid", "affine", "leakyrelu", true)
      .Cases("thresholdedrelu", "scaledtanh", "hardsigmoid", "elu", true)
      .Cases("softsign", "softplus", true)
      .Default(false);
}

/// The operands and attributes of either form; `x` is null for a lowered
/// recurrence (`xw` then holds X * W^T).
struct RecurrentView {
  Value x, w, xw, r, b, sequenceLens, initialH, initialC, p;
  StringRef direction;
  int64_t layout;
  std::optional<int64_t> hiddenSize;
  std::optional<ArrayAttr> activations;
  std::optional<APFloat> clip;
  int64_t flag; // input_forget or linear_before_reset; 0 for RNN
  StringRef flagName;
};

LogicalResult expectShape(Operation *op, StringRef what, Value v,
                          ArrayRef<int64_t> expected) {
  if (!v)
    return success();
  ArrayRef<int64_t> shape = shapeOf(v);
  bool ok = shape.size() == expected.size();
  for (size_t i = 0; ok && i < shape.size(); ++i)
    ok = ShapedType::isDynamic(shape[i]) ||
         ShapedType::isDynamic(expected[i]) || shape[i] == expected[i];
  if (!ok)
    return op->emitOpError() << what << " has shape " << formatShape(shape)
                             << " but must be " << formatShape(expected);
  return success();
}

LogicalResult verifyRecurrent(Operation *op, const Cell &cell,
                              const RecurrentView &v) {
  int64_t d = llvm::StringSwitch<int64_t>(v.direction)
                  .Case("forward", 1)
                  .Case("reverse", 1)
                  .Case("bidirectional", 2)
                  .Default(0);
  if (!d)
    return op->emitOpError() << "direction '" << v.direction
                             << "' must be forward, reverse or bidirectional";
  if (failed(verifyFlagAttr(op, "layout", v.layout)) ||
      failed(verifyFlagAttr(op, v.flagName, v.flag)))
    return failure();
  ArrayRef<int64_t> r = shapeOf(v.r);
  if (r.size() != 3)
    return op->emitOpError() << "input 'R' has shape " << formatShape(r)
                             << " but must be [num_directions, " << cell.gates
                             << " * hidden_size, hidden_size]";
  int64_t h = r[2];
  if (v.hiddenSize && *v.hiddenSize != h)
    return op->emitOpError() << "hidden_size is " << *v.hiddenSize
                             << " but R's last dim is " << h;
  int64_t g = cell.gates * h;
  if (failed(expectShape(op, "input 'R'", v.r, {d, g, h})))
    return failure();
  // T and batch: from X, or from Y for a recurrence (whose XW merges them).
  bool batchFirst = v.layout == 1;
  int64_t t, batch;
  if (v.x) {
    ArrayRef<int64_t> x = shapeOf(v.x);
    if (x.size() != 3)
      return op->emitOpError() << "input 'X' has shape " << formatShape(x)
                               << " but " << cell.onnx << " needs rank 3";
    t = x[batchFirst ? 1 : 0];
    batch = x[batchFirst ? 0 : 1];
    if (failed(expectShape(op, "input 'W'", v.w, {d, g, x[2]})))
      return failure();
  } else {
    ArrayRef<int64_t> y = shapeOf(op->getResult(0));
    if (y.size() != 4)
      return op->emitOpError() << "result 'Y' must have rank 4";
    t = y[batchFirst ? 1 : 0];
    batch = y[batchFirst ? 0 : 2];
    int64_t rows = ShapedType::isDynamic(t) || ShapedType::isDynamic(batch)
                       ? ShapedType::kDynamic
                       : t * batch;
    if (failed(expectShape(op, "input 'XW'", v.xw, {d, rows, g})))
      return failure();
  }
  SmallVector<int64_t> state = batchFirst ? SmallVector<int64_t>{batch, d, h}
                                          : SmallVector<int64_t>{d, batch, h};
  if (failed(expectShape(op, "input 'B'", v.b, {d, 2 * g})) ||
      failed(
          expectShape(op, "input 'sequence_lens'", v.sequenceLens, {batch})) ||
      failed(expectShape(op, "input 'initial_h'", v.initialH, state)) ||
      failed(expectShape(op, "input 'initial_c'", v.initialC, state)) ||
      failed(expectShape(op, "input 'P'", v.p, {d, 3 * h})))
    return failure();
  SmallVector<int64_t> y = batchFirst ? SmallVector<int64_t>{batch, t, d, h}
                                      : SmallVector<int64_t>{t, d, batch, h};
  if (failed(verifyResultShape(op, 0, y)))
    return failure();
  for (unsigned i = 1; i < op->getNumResults(); ++i)
    if (failed(verifyResultShape(op, i, state)))
      return failure();
  if (v.activations) {
    if (static_cast<int64_t>(v.activations->size()) != d * cell.activations)
      return op->emitOpError()
             << "has " << v.activations->size() << " activations but "
             << cell.onnx << " with " << d << " direction(s) needs "
             << d * cell.activations;
    for (Attribute a : *v.activations) {
      auto name = dyn_cast<StringAttr>(a);
      if (!name || !isRecurrentActivation(name.getValue()))
        return op->emitOpError()
               << "activation " << a
               << " is not one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, "
                  "ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, "
                  "Softplus";
    }
  }
  if (v.clip && !(v.clip->convertToDouble() > 0))
    return op->emitOpError() << "clip must be positive";
  return success();
}

template <class OpT> RecurrentView commonView(OpT op) {
  RecurrentView v;
  v.r = op.getR();
  v.b = op.getB();
  v.sequenceLens = op.getSequenceLens();
  v.initialH = op.getInitialH();
  v.direction = op.getDirection();
  v.layout = op.getLayout();
  v.hiddenSize = op.getHiddenSize();
  v.activations = op.getActivations();
  v.clip = op.getClip();
  v.flag = 0;
  v.flagName = "layout";
  return v;
}

template <class OpT> RecurrentView importedView(OpT op) {
  RecurrentView v = commonView(op);
  v.x = op.getX();
  v.w = op.getW();
  return v;
}

template <class OpT> RecurrentView loweredView(OpT op) {
  RecurrentView v = commonView(op);
  v.xw = op.getXW();
  return v;
}

template <class OpT> RecurrentView withLstm(RecurrentView v, OpT op) {
  v.initialC = op.getInitialC();
  v.p = op.getP();
  v.flag = op.getInputForget();
  v.flagName = "input_forget";
  return v;
}

template <class OpT> RecurrentView withGru(RecurrentView v, OpT op) {
  v.flag = op.getLinearBeforeReset();
  v.flagName = "linear_before_reset";
  return v;
}

} // namespace

LogicalResult LSTMOp::verify() {
  return verifyRecurrent(*this, kLstm, withLstm(importedView(*this), *this));
}
LogicalResult GRUOp::verify() {
  return verifyRecurrent(*this, kGru, withGru(importedView(*this), *this));
}
LogicalResult RNNOp::verify() {
  return verifyRecurrent(*this, kRnn, importedView(*this));
}
LogicalResult LstmRecurrenceOp::verify() {
  return verifyRecurrent(*this, kLstm, withLstm(loweredView(*this), *this));
}
LogicalResult GruRecurrenceOp::verify() {
  return verifyRecurrent(*this, kGru, withGru(loweredView(*this), *this));
}
LogicalResult RnnRecurrenceOp::verify() {
  return verifyRecurrent(*this, kRnn, loweredView(*this));
}

LogicalResult EinsumOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one operand";
  std::vector<std::vector<int64_t>> shapes;
  for (Value v : getInputs()) {
    ArrayRef<int64_t> shape = shapeOf(v);
    if (llvm::any_of(shape, ShapedType::isDynamic))
      return success(); // checked once shapes are static
    shapes.emplace_back(shape.begin(), shape.end());
  }
  geflow::einsum::Equation eq;
  std::string why;
  if (!geflow::einsum::parseEquation(getEquation().str(), shapes, &eq, &why))
    return emitOpError() << why;
  return verifyResultShape(*this, 0, eq.outputShape());
}
