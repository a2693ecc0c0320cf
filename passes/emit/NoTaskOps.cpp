//===- NoTaskOps.cpp - ops that move no data: views and in-place joins ----===//
//
// Which ops qualify and where their parts lie: NoTaskOps.h says why.
//
//===----------------------------------------------------------------------===//

#include "passes/emit/NoTaskOps.h"

#include "ir/GeOps.h"
#include "passes/emit/OpDefBuilder.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace geflow::passes {
namespace {

using namespace mlir;

bool isView(Operation *op) {
  return isa<ge::ReshapeOp, ge::FlattenOp, ge::SqueezeOp, ge::UnsqueezeOp>(op);
}

/// The dims of a static shape, or none.
std::optional<llvm::ArrayRef<int64_t>> staticShape(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !type.hasStaticShape() || tensorBytes(type) < 0)
    return std::nullopt;
  return type.getShape();
}

/// True when every dim of `shape` before `axis` is 1: each part along the
/// axis is then one contiguous byte range.
bool partsContiguous(llvm::ArrayRef<int64_t> shape, int64_t axis) {
  if (axis < 0)
    axis += int64_t(shape.size());
  if (axis < 0 || axis >= int64_t(shape.size()))
    return false;
  for (int64_t d = 0; d < axis; ++d)
    if (shape[d] != 1)
      return false;
  return true;
}

bool isConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && isa<ge::ConstantOp>(def);
}

/// Byte offsets of consecutive parts of the given values' sizes; false when
/// one is empty or does not start aligned.
bool alignedParts(ValueRange parts) {
  int64_t offset = 0;
  for (Value part : parts) {
    int64_t bytes = tensorBytes(part.getType());
    if (bytes <= 0 || offset % kSliceAlignment != 0)
      return false;
    offset += bytes;
  }
  return true;
}

bool qualifies(Operation *op, Block &body) {
  if (isView(op)) {
    Value data = op->getOperand(0);
    return !isConstant(data) && staticShape(data) &&
           staticShape(op->getResult(0)) &&
           tensorBytes(data.getType()) ==
               tensorBytes(op->getResult(0).getType());
  }
  if (auto split = dyn_cast<ge::SplitOp>(op)) {
    std::optional<llvm::ArrayRef<int64_t>> shape =
        staticShape(split.getInput());
    return !isConstant(split.getInput()) && shape &&
           partsContiguous(*shape, split.getAxis()) &&
           alignedParts(split.getOutputs());
  }
  if (auto concat = dyn_cast<ge::ConcatOp>(op)) {
    std::optional<llvm::ArrayRef<int64_t>> shape =
        staticShape(concat.getConcatResult());
    if (!shape || !partsContiguous(*shape, concat.getAxis()) ||
        !alignedParts(concat.getInputs()))
      return false;
    for (Value input : concat.getInputs()) {
      Operation *producer = input.getDefiningOp();
      if (!producer || producer->getBlock() != &body ||
          !isComputeOp(producer) || isNoTaskOp(producer) || !input.hasOneUse())
        return false;
    }
    return true;
  }
  return false;
}

} // namespace

void markNoTaskOps(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return;
  Block &body = func.getBody().front();
  UnitAttr unit = UnitAttr::get(func.getContext());
  for (Operation &op : body)
    if (!isNoTaskOp(&op) && qualifies(&op, body))
      op.setAttr(kNoTaskAttr, unit);
}

llvm::SmallVector<int64_t> partOffsets(Operation *op) {
  llvm::SmallVector<int64_t> offsets;
  if (!isView(op) && !isa<ge::ConcatOp, ge::SplitOp>(op))
    return offsets;
  int64_t offset = 0;
  auto parts = isa<ge::ConcatOp>(op) ? ValueRange(op->getOperands())
                                     : ValueRange(op->getResults());
  for (Value part : parts) {
    offsets.push_back(isView(op) ? 0 : offset);
    offset += tensorBytes(part.getType());
  }
  return offsets;
}

} // namespace geflow::passes
