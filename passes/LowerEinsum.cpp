//===- LowerEinsum.cpp - einsum -> transpose, reshape, matmul, sum --------===//
//
// Pipeline step 2, before constant folding. The einsum of two operands is a
// batched matmul once each operand's letters are sorted into (batch, free,
// summed) and flattened: the letters of both operands and the output are the
// batch, those of one operand and the output its free rows or columns, those
// of both operands only the summed K. Letters of one operand only that the
// output drops are summed first. One operand is a sum and a transpose.
// Anything else (a diagonal, three or more operands, broadcasting) is left
// for the einsum kernel.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"

#include "ir/EinsumEquation.h"
#include "ir/GeOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <numeric>

namespace geflow::passes {

#define GEN_PASS_DEF_LOWEREINSUM
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;

/// A value with the einsum label of each of its dims.
struct Labelled {
  Value value;
  std::vector<int> labels;
};

/// Builds the data-movement ops of the lowering at one location.
class EinsumBuilder {
public:
  EinsumBuilder(PatternRewriter &rewriter, Location loc,
                const einsum::Equation &eq)
      : rewriter(rewriter), loc(loc), eq(eq) {}

  /// `x` summed over the labels `keep` rejects.
  Labelled sumOut(Labelled x, llvm::function_ref<bool(int)> keep) {
    SmallVector<int64_t> axes;
    std::vector<int> kept;
    for (auto [d, label] : llvm::enumerate(x.labels)) {
      if (keep(label))
        kept.push_back(label);
      else
        axes.push_back(static_cast<int64_t>(d));
    }
    if (axes.empty())
      return x;
    Value axesValue = constant(axes);
    Value sum = rewriter.create<ReduceSumOp>(
        loc, typeOf(x.value, kept), x.value, axesValue,
        rewriter.getI64IntegerAttr(0), rewriter.getI64IntegerAttr(0));
    return {sum, kept};
  }

  /// `x` with its dims in the order of `order` (a permutation of its labels).
  Labelled transposeTo(Labelled x, const std::vector<int> &order) {
    if (order == x.labels)
      return x;
    SmallVector<int64_t> perm;
    for (int label : order)
      perm.push_back(std::find(x.labels.begin(), x.labels.end(), label) -
                     x.labels.begin());
    Value t = rewriter.create<TransposeOp>(loc, typeOf(x.value, order), x.value,
                                           rewriter.getDenseI64ArrayAttr(perm));
    return {t, order};
  }

  Value reshape(Value x, ArrayRef<int64_t> shape) {
    auto type = cast<RankedTensorType>(x.getType());
    if (type.getShape() == shape)
      return x;
    return rewriter.create<ReshapeOp>(loc, type.clone(shape), x,
                                      constant(shape),
                                      rewriter.getI64IntegerAttr(0));
  }

  int64_t sizeOf(const std::vector<int> &labels) const {
    int64_t n = 1;
    for (int label : labels)
      n *= eq.sizes[label];
    return n;
  }
  SmallVector<int64_t> dimsOf(const std::vector<int> &labels) const {
    SmallVector<int64_t> dims;
    for (int label : labels)
      dims.push_back(eq.sizes[label]);
    return dims;
  }

  PatternRewriter &rewriter;
  Location loc;
  const einsum::Equation &eq;

private:
  Value constant(ArrayRef<int64_t> values) {
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      rewriter.getI64Type());
    return rewriter.create<ConstantOp>(loc,
                                       DenseElementsAttr::get(type, values));
  }
  RankedTensorType typeOf(Value like, const std::vector<int> &labels) const {
    return cast<RankedTensorType>(like.getType()).clone(dimsOf(labels));
  }
};

bool contains(const std::vector<int> &labels, int label) {
  return std::find(labels.begin(), labels.end(), label) != labels.end();
}

/// Whether the lowering keeps the equation's meaning: each label once per
/// operand and of its full size everywhere (no diagonal, no broadcasting).
bool lowerable(const einsum::Equation &eq,
               const std::vector<std::vector<int64_t>> &shapes) {
  for (size_t k = 0; k < eq.inputs.size(); ++k) {
    const std::vector<int> &labels = eq.inputs[k];
    for (size_t d = 0; d < labels.size(); ++d) {
      if (std::count(labels.begin(), labels.end(), labels[d]) != 1 ||
          shapes[k][d] != eq.sizes[labels[d]])
        return false;
    }
  }
  return true;
}

/// The labels of `from` that `pred` accepts, in `from`'s order.
std::vector<int> select(const std::vector<int> &from,
                        llvm::function_ref<bool(int)> pred) {
  std::vector<int> out;
  for (int label : from)
    if (pred(label))
      out.push_back(label);
  return out;
}

struct LowerEinsumOp : OpRewritePattern<EinsumOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(EinsumOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!resultType.getElementType().isF32() || op.getInputs().size() > 2)
      return rewriter.notifyMatchFailure(op, "not f32 or > 2 operands");
    std::vector<std::vector<int64_t>> shapes;
    for (Value v : op.getInputs()) {
      auto type = cast<RankedTensorType>(v.getType());
      if (!type.hasStaticShape())
        return rewriter.notifyMatchFailure(op, "dynamic shape");
      shapes.emplace_back(type.getShape().begin(), type.getShape().end());
    }
    einsum::Equation eq;
    std::string why;
    if (!einsum::parseEquation(op.getEquation().str(), shapes, &eq, &why) ||
        !lowerable(eq, shapes))
      return rewriter.notifyMatchFailure(op, "left for the einsum kernel");
    EinsumBuilder b(rewriter, op.getLoc(), eq);
    Value result = op.getInputs().size() == 1
                       ? lowerOne(b, {op.getInputs()[0], eq.inputs[0]})
                       : lowerTwo(b, {op.getInputs()[0], eq.inputs[0]},
                                  {op.getInputs()[1], eq.inputs[1]});
    rewriter.replaceOp(op, result);
    return success();
  }

  /// A sum over the dropped labels, then the output's order.
  static Value lowerOne(EinsumBuilder &b, Labelled a) {
    const std::vector<int> &out = b.eq.output;
    a = b.sumOut(a, [&](int l) { return contains(out, l); });
    return b.transposeTo(a, out).value;
  }

  static Value lowerTwo(EinsumBuilder &b, Labelled a, Labelled c) {
    const std::vector<int> &out = b.eq.output;
    // Letters only one operand has and the output drops: summed right away.
    a = b.sumOut(
        a, [&](int l) { return contains(out, l) || contains(c.labels, l); });
    c = b.sumOut(
        c, [&](int l) { return contains(out, l) || contains(a.labels, l); });
    auto inA = [&](int l) { return contains(a.labels, l); };
    auto inC = [&](int l) { return contains(c.labels, l); };
    std::vector<int> batch =
        select(out, [&](int l) { return inA(l) && inC(l); });
    std::vector<int> rows =
        select(out, [&](int l) { return inA(l) && !inC(l); });
    std::vector<int> cols =
        select(out, [&](int l) { return inC(l) && !inA(l); });
    std::vector<int> summed =
        select(a.labels, [&](int l) { return inC(l) && !contains(out, l); });
    auto concat = [](std::vector<int> x, const std::vector<int> &y,
                     const std::vector<int> &z) {
      x.insert(x.end(), y.begin(), y.end());
      x.insert(x.end(), z.begin(), z.end());
      return x;
    };
    // [batch, M, K] x [batch, K, N]; rank 2 without batch letters.
    auto operand = [&](Labelled x, const std::vector<int> &mid,
                       const std::vector<int> &last) {
      Labelled t = b.transposeTo(x, concat(batch, mid, last));
      SmallVector<int64_t> shape;
      if (!batch.empty())
        shape.push_back(b.sizeOf(batch));
      shape.push_back(b.sizeOf(mid));
      shape.push_back(b.sizeOf(last));
      return b.reshape(t.value, shape);
    };
    Value lhs = operand(a, rows, summed);
    Value rhs = operand(c, summed, cols);
    SmallVector<int64_t> mnShape;
    if (!batch.empty())
      mnShape.push_back(b.sizeOf(batch));
    mnShape.push_back(b.sizeOf(rows));
    mnShape.push_back(b.sizeOf(cols));
    auto type = cast<RankedTensorType>(lhs.getType()).clone(mnShape);
    Value product = b.rewriter.create<MatMulOp>(b.loc, type, lhs, rhs);
    std::vector<int> labels = concat(batch, rows, cols);
    Labelled full{b.reshape(product, b.dimsOf(labels)), labels};
    return b.transposeTo(full, out).value;
  }
};

struct LowerEinsumPass : public impl::LowerEinsumBase<LowerEinsumPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<LowerEinsumOp>(&getContext());
    if (failed(fusion::applyPatternsWhereRooted(getOperation(),
                                                std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

} // namespace geflow::passes
