//===- FuseLayout.cpp - data-movement chains -> ge.as_strided ------------===//
//
// Pipeline step 3, op fusion (docs/architecture.md). A chain of data-movement
// ops, each the only reader of the one before, (slice with constant positive
// steps, transpose, reshape, flatten, squeeze, unsqueeze) moves every element
// once per op. When the chain's composition reads its source as a strided view
// (offset + one stride per result dim; transformers' head splits slice ->
// reshape -> transpose and merges transpose -> reshape are), it becomes one
// ge.as_strided: one copy instead of one per op. A reshape that is no view of
// what precedes it ends a chain there and starts the next.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeOps.h"
#include "ir/ShapeFunctions.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSELAYOUT
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;

/// Where each element of a tensor lives in the chain's source.
struct View {
  int64_t offset = 0;
  SmallVector<int64_t, 4> shape, strides;

  static View contiguous(ArrayRef<int64_t> shape) {
    View v;
    v.shape.assign(shape.begin(), shape.end());
    v.strides.assign(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      v.strides[d] = v.strides[d + 1] * shape[d + 1];
    return v;
  }
};

bool isLayoutOp(Operation *op) {
  return isa<SliceOp, TransposeOp, ReshapeOp, FlattenOp, SqueezeOp,
             UnsqueezeOp>(op) &&
         op->getNumResults() == 1 &&
         cast<RankedTensorType>(op->getResult(0).getType()).hasStaticShape() &&
         cast<RankedTensorType>(op->getOperand(0).getType()).hasStaticShape();
}

/// The same elements in `shape` (row-major), when the view allows it without
/// a copy: each group of new dims must cover old dims that are contiguous
/// with each other (as torch's view() decides).
std::optional<View> reshaped(const View &v, ArrayRef<int64_t> shape) {
  View out;
  out.offset = v.offset;
  out.shape.assign(shape.begin(), shape.end());
  out.strides.assign(shape.size(), 0);
  int64_t newDim = static_cast<int64_t>(shape.size()) - 1;
  int64_t oldCount = 1, newCount = 1;
  int64_t base = v.strides.empty() ? 1 : v.strides.back();
  // Walk the old dims from the innermost, closing a chunk where the next
  // (outer) old dim is not contiguous with it; each chunk is refilled by new
  // dims of the same element count.
  for (int64_t d = static_cast<int64_t>(v.shape.size()) - 1; d >= 0; --d) {
    oldCount *= v.shape[d];
    bool chunkEnds =
        d == 0 || (v.shape[d - 1] != 1 && v.strides[d - 1] != oldCount * base);
    if (!chunkEnds)
      continue;
    while (newDim >= 0 && (newCount < oldCount || shape[newDim] == 1)) {
      out.strides[newDim] = newCount * base;
      newCount *= shape[newDim];
      --newDim;
    }
    if (newCount != oldCount)
      return std::nullopt;
    if (d > 0) {
      base = v.strides[d - 1];
      oldCount = newCount = 1;
    }
  }
  // Leading unit dims of the new shape.
  for (; newDim >= 0; --newDim) {
    if (shape[newDim] != 1)
      return std::nullopt;
    out.strides[newDim] = 0;
  }
  return out;
}

std::optional<SmallVector<int64_t>> constantInts(Value v) {
  DenseIntElementsAttr attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &i : attr.getValues<APInt>())
    values.push_back(i.getSExtValue());
  return values;
}

std::optional<View> sliced(const View &v, SliceOp slice) {
  std::optional<SmallVector<int64_t>> starts = constantInts(slice.getStarts()),
                                      ends = constantInts(slice.getEnds());
  if (!starts || !ends || starts->size() != ends->size())
    return std::nullopt;
  int64_t rank = v.shape.size();
  SmallVector<int64_t> axes, steps(starts->size(), 1);
  for (int64_t i = 0; i < static_cast<int64_t>(starts->size()); ++i)
    axes.push_back(i);
  if (slice.getAxes()) {
    std::optional<SmallVector<int64_t>> given = constantInts(slice.getAxes());
    if (!given || given->size() != starts->size())
      return std::nullopt;
    axes = *given;
  }
  if (slice.getSteps()) {
    std::optional<SmallVector<int64_t>> given = constantInts(slice.getSteps());
    if (!given || given->size() != starts->size())
      return std::nullopt;
    steps = *given;
  }
  View out = v;
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (axis < 0 || axis >= rank || steps[i] <= 0)
      return std::nullopt;
    int64_t start, count;
    sliceDim(v.shape[axis], (*starts)[i], (*ends)[i], steps[i], start, count);
    out.offset += start * v.strides[axis];
    out.shape[axis] = count;
    out.strides[axis] *= steps[i];
  }
  return out;
}

/// `v` after `op`; nullopt when the result is no view of the source.
std::optional<View> apply(const View &v, Operation *op) {
  ArrayRef<int64_t> resultShape =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape();
  if (auto slice = dyn_cast<SliceOp>(op)) {
    std::optional<View> out = sliced(v, slice);
    if (!out || !llvm::equal(out->shape, resultShape))
      return std::nullopt;
    return out;
  }
  if (auto transpose = dyn_cast<TransposeOp>(op)) {
    int64_t rank = v.shape.size();
    SmallVector<int64_t, 4> perm;
    if (transpose.getPerm())
      perm.assign(transpose.getPerm()->begin(), transpose.getPerm()->end());
    else
      for (int64_t d = rank - 1; d >= 0; --d)
        perm.push_back(d);
    View out = v;
    for (int64_t d = 0; d < rank; ++d) {
      out.shape[d] = v.shape[perm[d]];
      out.strides[d] = v.strides[perm[d]];
    }
    return out;
  }
  return reshaped(v, resultShape);
}

class LayoutFuser {
public:
  explicit LayoutFuser(func::FuncOp func) : func_(func) {}

  void run() {
    SmallVector<Operation *> ops;
    func_.walk([&](Operation *op) { ops.push_back(op); });
    // Chains from their last op upwards.
    for (Operation *last : llvm::reverse(ops)) {
      if (seen_.contains(last) || !isLayoutOp(last))
        continue;
      SmallVector<Operation *> chain = {last};
      for (Operation *producer = last->getOperand(0).getDefiningOp();
           producer && isLayoutOp(producer) && !seen_.contains(producer) &&
           producer->getBlock() == last->getBlock() &&
           producer->getResult(0).hasOneUse() &&
           producer->getDiscardableAttrDictionary() ==
               last->getDiscardableAttrDictionary();
           producer = producer->getOperand(0).getDefiningOp())
        chain.push_back(producer);
      std::reverse(chain.begin(), chain.end());
      for (Operation *op : chain)
        seen_.insert(op);
      fuseChain(chain);
    }
  }

private:
  /// Cuts `chain` where a reshape is no view and fuses each piece of two or
  /// more ops.
  void fuseChain(ArrayRef<Operation *> chain) {
    size_t start = 0;
    View view = View::contiguous(shapeOf(chain[0]->getOperand(0)));
    for (size_t i = 0; i < chain.size(); ++i) {
      std::optional<View> next = apply(view, chain[i]);
      if (!next) {
        replace(chain.slice(start, i - start), view);
        start = i;
        next =
            apply(View::contiguous(shapeOf(chain[i]->getOperand(0))), chain[i]);
        if (!next) { // not even a view of its own input: leave it alone
          start = i + 1;
          if (i + 1 < chain.size())
            next = View::contiguous(shapeOf(chain[i + 1]->getOperand(0)));
          else
            return;
        }
      }
      view = *next;
    }
    replace(chain.drop_front(start), view);
  }

  static ArrayRef<int64_t> shapeOf(Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  }

  /// `piece` (in order) by one as_strided reading its first op's input.
  void replace(ArrayRef<Operation *> piece, const View &view) {
    if (piece.size() < 2)
      return;
    Operation *last = piece.back();
    OpBuilder builder(last);
    SmallVector<Location> locs;
    for (Operation *op : piece)
      locs.push_back(op->getLoc());
    auto fused = builder.create<AsStridedOp>(
        FusedLoc::get(builder.getContext(), locs), last->getResult(0).getType(),
        piece.front()->getOperand(0), builder.getI64IntegerAttr(view.offset),
        builder.getDenseI64ArrayAttr(view.strides));
    fused->setDiscardableAttrs(last->getDiscardableAttrDictionary());
    last->getResult(0).replaceAllUsesWith(fused.getY());
    for (Operation *op : llvm::reverse(piece))
      op->erase();
  }

  func::FuncOp func_;
  llvm::DenseSet<Operation *> seen_;
};

struct FuseLayoutPass : impl::FuseLayoutBase<FuseLayoutPass> {
  using FuseLayoutBase::FuseLayoutBase;

  void runOnOperation() override { LayoutFuser(getOperation()).run(); }
};

} // namespace
} // namespace geflow::passes
