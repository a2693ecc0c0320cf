//===- FuseAttention.cpp - attention cores -> ge.fused_attention ---------===//
//
// Pipeline step 3, op fusion (docs/architecture.md). The attention core as
// torch's nn.MultiheadAttention exports it (and the variants of other
// exporters):
//   s = MatMul(Q', K')      Q' = Q scaled by constants (Mul/Div), or Q
//                           K' = Transpose(K) swapping the last two dims
//                                (scaled or not), or K^T as it is
//   s = s * c or s / c      any number of scalar constants
//   s = s + mask            optional, the mask broadcasting to s
//   p = Softmax(s, last axis)
//   y = MatMul(p, V)
// becomes ge.fused_attention(Q, K, V, mask) {scale, k_transposed}. Shapes
// must allow it: Q, K and V of one rank >= 2 with the same batch dims (no
// matmul broadcasting), float32. The scores, their scaled and masked forms
// and p must have no other user; the scaling of Q and the transpose of K
// are looked through (they stay if something else reads them). A transpose
// of y that keeps its rows (the head merge) becomes y_perm, and a reshape
// after it the result's shape.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEATTENTION
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;
using namespace fusion;

/// Multiplies `scale` by the scalar constant factors of `v` (v * c, c * v,
/// v / c) and returns what they scale. With `soleUse`, only factors whose
/// result has one use are looked through.
Value peelScalarFactors(Value v, float &scale, bool soleUse,
                        SmallVectorImpl<Operation *> *peeled = nullptr) {
  while (Operation *op = v.getDefiningOp()) {
    if (soleUse && !v.hasOneUse())
      break;
    std::optional<float> c;
    Value rest;
    if (auto mul = dyn_cast<MulOp>(op)) {
      if ((c = scalarConstant(mul.getB())))
        rest = mul.getA();
      else if ((c = scalarConstant(mul.getA())))
        rest = mul.getB();
    } else if (auto div = dyn_cast<DivOp>(op)) {
      if ((c = scalarConstant(div.getB())) && *c != 0.0f) {
        rest = div.getA();
        c = 1.0f / *c;
      }
    }
    // The factor must not change the shape (a scalar of higher rank could).
    if (!rest || rest.getType() != v.getType())
      break;
    scale *= *c;
    if (peeled)
      peeled->push_back(op);
    v = rest;
  }
  return v;
}

/// K when `kt` = Transpose(K) swaps exactly the last two dims.
Value untransposed(Value kt) {
  auto transpose = kt.getDefiningOp<TransposeOp>();
  if (!transpose)
    return Value();
  int64_t rank = cast<RankedTensorType>(kt.getType()).getRank();
  // No perm reverses the dims: the swap itself at rank 2.
  SmallVector<int64_t, 4> perm = {1, 0};
  if (transpose.getPerm())
    perm.assign(transpose.getPerm()->begin(), transpose.getPerm()->end());
  if (rank < 2 || static_cast<int64_t>(perm.size()) != rank)
    return Value();
  for (int64_t d = 0; d < rank; ++d) {
    int64_t expected = d < rank - 2 ? d : (d == rank - 2 ? rank - 1 : rank - 2);
    if (perm[d] != expected)
      return Value();
  }
  return transpose.getData();
}

/// Q [..., Sq, Dh], K [..., Sk, Dh] (K^T when kTransposed), V [..., Sk, Dv]
/// of one rank with the same batch dims, all static f32.
bool shapesAllow(Value q, Value k, Value v) {
  if (!isStaticF32(q) || !isStaticF32(k) || !isStaticF32(v))
    return false;
  ArrayRef<int64_t> qs = cast<RankedTensorType>(q.getType()).getShape(),
                    ks = cast<RankedTensorType>(k.getType()).getShape(),
                    vs = cast<RankedTensorType>(v.getType()).getShape();
  size_t rank = qs.size();
  return rank >= 2 && ks.size() == rank && vs.size() == rank &&
         qs.drop_back(2) == ks.drop_back(2) &&
         qs.drop_back(2) == vs.drop_back(2);
}

/// Anchored on the Softmax between the two matmuls.
struct FuseAttentionCore : OpRewritePattern<SoftmaxOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(SoftmaxOp softmax,
                                PatternRewriter &rewriter) const override {
    int64_t rank = softmax.getInput().getType().getRank();
    if (softmax.getAxis() != -1 && softmax.getAxis() != rank - 1)
      return rewriter.notifyMatchFailure(softmax, "not along the last axis");
    auto output = soleUserOf<MatMulOp>(softmax.getOutput());
    if (!output || output.getA() != softmax.getOutput())
      return rewriter.notifyMatchFailure(softmax, "not multiplied by V");
    SmallVector<Operation *, 8> matched = {softmax, output};

    // Backwards from the softmax input: the mask, the scale, the scores.
    Value scores = softmax.getInput(), mask;
    float scale = 1.0f;
    if (auto add = soleUseProducer<AddOp>(scores)) {
      for (Value candidate : {add.getA(), add.getB()}) {
        float s = 1.0f;
        Value inner = peelScalarFactors(candidate, s, true);
        if (soleUseProducer<MatMulOp>(inner)) {
          mask = otherOperand(add, candidate);
          scores = candidate;
          break;
        }
      }
      if (!mask || add.getType() != scores.getType() || !isStaticF32(mask))
        return rewriter.notifyMatchFailure(softmax, "an add that is no mask");
      matched.push_back(add);
    }
    Value product = peelScalarFactors(scores, scale, true, &matched);
    auto qk = soleUseProducer<MatMulOp>(product);
    if (!qk)
      return rewriter.notifyMatchFailure(softmax, "scores are no matmul");
    matched.push_back(qk);

    // Q and K^T may carry scale factors of their own (kept if shared).
    Value q = peelScalarFactors(qk.getA(), scale, false);
    Value kt = peelScalarFactors(qk.getB(), scale, false);
    Value k = untransposed(kt);
    bool kTransposed = !k;
    if (kTransposed)
      k = kt;
    Value v = output.getB();
    if (!shapesAllow(q, k, v) || output.getType().getRank() != rank)
      return rewriter.notifyMatchFailure(softmax, "shapes do not allow it");

    SmallVector<Value, 4> operands = {q, k, v};
    if (mask)
      operands.push_back(mask);
    SmallVector<NamedAttribute, 3> attrs = {
        rewriter.getNamedAttr("scale", rewriter.getF32FloatAttr(scale)),
        rewriter.getNamedAttr("k_transposed",
                              rewriter.getI64IntegerAttr(kTransposed))};
    // A transpose of the result that keeps rows whole (the head merge)
    // becomes the op's y_perm: the kernel writes each row where it goes.
    Operation *last = output;
    if (auto merge = soleUserOf<TransposeOp>(output.getY());
        merge && merge.getPerm() &&
        static_cast<int64_t>(merge.getPerm()->size()) == rank &&
        merge.getPerm()->back() == rank - 1) {
      attrs.push_back(rewriter.getNamedAttr(
          "y_perm", rewriter.getDenseI64ArrayAttr(*merge.getPerm())));
      matched.insert(matched.begin(), merge);
      last = merge;
    }
    // So does a reshape of that (the heads' merge into one dim): the result
    // is the same bytes in another shape.
    Value result = last->getResult(0);
    if (result.hasOneUse()) {
      Operation *reshape = *result.getUsers().begin();
      if (isa<ReshapeOp, FlattenOp, SqueezeOp, UnsqueezeOp>(reshape) &&
          isStaticF32(reshape->getResult(0))) {
        matched.insert(matched.begin(), reshape);
        last = reshape;
      }
    }
    rewriter.setInsertionPoint(last);
    auto fused = rewriter.create<FusedAttentionOp>(
        fusedLocOf(llvm::to_vector(llvm::reverse(matched))),
        TypeRange{last->getResult(0).getType()}, operands, attrs);
    rewriter.replaceOp(last, fused.getY());
    return success();
  }
};

struct FuseAttentionPass : impl::FuseAttentionBase<FuseAttentionPass> {
  using FuseAttentionBase::FuseAttentionBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseAttentionCore>(&getContext());
    (void)fusion::applyPatternsWhereRooted(getOperation(), std::move(patterns));
  }
};

} // namespace
} // namespace geflow::passes
