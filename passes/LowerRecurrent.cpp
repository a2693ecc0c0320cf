//===- LowerRecurrent.cpp - LSTM/GRU/RNN -> matmul + recurrence -----------===//
//
// Pipeline step 2, before constant folding (docs/architecture.md). X * W^T
// does not depend on the previous step, so it is one batched product for all
// T steps and both directions, cube work that a per-step kernel would split
// into T small ones:
//   %xw = ge.matmul (ge.reshape %X to [T*B, I]), (ge.transpose %W [0, 2, 1])
// gives [num_directions, T*B, gates*H], and ge.{lstm,gru,rnn}_recurrence
// runs the T steps of h * R^T and the gates from it. A constant W is
// transposed once, by ge-fold-constants.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/GeOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace geflow::passes {

#define GEN_PASS_DEF_LOWERRECURRENT
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;

/// `op`'s location named `<name>/<suffix>`, so the new ops keep the node's
/// name in messages and dumps.
Location subLoc(Operation *op, StringRef suffix) {
  std::string name = "recurrent";
  if (auto named = dyn_cast<NameLoc>(op->getLoc()))
    name = named.getName().str();
  return NameLoc::get(StringAttr::get(op->getContext(), name + "/" + suffix),
                      op->getLoc());
}

/// X * W^T for every step: [num_directions, T*B, gates*H].
Value inputProjection(PatternRewriter &rewriter, Operation *op, Value x,
                      Value w) {
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  ArrayRef<int64_t> xs = xType.getShape(), ws = wType.getShape();
  int64_t rows = xs[0] * xs[1];
  auto i64 = rewriter.getI64Type();
  Value shape = rewriter.create<ConstantOp>(
      subLoc(op, "rows"),
      DenseElementsAttr::get(RankedTensorType::get({2}, i64),
                             ArrayRef<int64_t>{rows, xs[2]}));
  Value flat =
      rewriter.create<ReshapeOp>(subLoc(op, "rows"), xType.clone({rows, xs[2]}),
                                 x, shape, rewriter.getI64IntegerAttr(0));
  Value wt = rewriter.create<TransposeOp>(
      subLoc(op, "weights"), wType.clone({ws[0], ws[2], ws[1]}), w,
      rewriter.getDenseI64ArrayAttr({0, 2, 1}));
  return rewriter.create<MatMulOp>(subLoc(op, "input_projection"),
                                   wType.clone({ws[0], rows, ws[1]}), flat, wt);
}

/// ge.lstm -> ge.lstm_recurrence and the other two: the same results and
/// attributes, XW in place of X and W.
template <class RecurrentOpT, class RecurrenceOpT>
struct LowerToRecurrence : OpRewritePattern<RecurrentOpT> {
  using OpRewritePattern<RecurrentOpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(RecurrentOpT op,
                                PatternRewriter &rewriter) const override {
    if (!op.getX().getType().hasStaticShape() ||
        !op.getW().getType().hasStaticShape())
      return rewriter.notifyMatchFailure(op, "X or W of a dynamic shape");
    Value xw = inputProjection(rewriter, op, op.getX(), op.getW());
    OperationState state(op.getLoc(), RecurrenceOpT::getOperationName());
    state.addOperands(xw);
    state.addOperands(op->getOperands().drop_front(2));
    auto segments =
        op->template getAttrOfType<DenseI32ArrayAttr>("operandSegmentSizes");
    SmallVector<int32_t> sizes{1};
    sizes.append(segments.asArrayRef().begin() + 2,
                 segments.asArrayRef().end());
    for (NamedAttribute attr : op->getAttrDictionary())
      if (attr.getName() != "operandSegmentSizes")
        state.addAttribute(attr.getName(), attr.getValue());
    state.addAttribute("operandSegmentSizes",
                       rewriter.getDenseI32ArrayAttr(sizes));
    state.addTypes(op->getResultTypes());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

struct LowerRecurrentPass
    : public impl::LowerRecurrentBase<LowerRecurrentPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerToRecurrence<LSTMOp, LstmRecurrenceOp>,
                 LowerToRecurrence<GRUOp, GruRecurrenceOp>,
                 LowerToRecurrence<RNNOp, RnnRecurrenceOp>>(&getContext());
    if (failed(fusion::applyPatternsWhereRooted(getOperation(),
                                                std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace geflow::passes
