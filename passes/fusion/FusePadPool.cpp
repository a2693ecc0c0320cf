//===- FusePadPool.cpp - zero Pad -> AveragePool becomes the pool's pads --===//
//
// Pipeline step 3, op fusion (docs/architecture.md). PyTorch exports
// avg_pool2d(padding=p, count_include_pad=True) -- Inception's and DenseNet's
// pools -- as a constant-zero Pad followed by an unpadded AveragePool. The
// Pad is a whole copy of its input into a larger buffer; as the pool's own
// pads with count_include_pad = 1 the pool reads the input where it lies
// and divides by the same counts (every padded zero was a counted tap).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/fusion/ValueMatch.h"

#include "ir/GeOps.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace geflow::passes {

#define GEN_PASS_DEF_FUSEPADPOOL
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;
using namespace fusion;

/// The pads of a constant-mode Pad whose value is zero, over all of its
/// input's dims (begins, then ends); none for anything else.
std::optional<SmallVector<int64_t>> zeroPads(PadOp pad) {
  if (pad.getMode() != "constant" || pad.getAxes())
    return std::nullopt;
  if (Value value = pad.getConstantValue()) {
    std::optional<float> v = scalarConstant(value);
    if (!v || *v != 0.0f)
      return std::nullopt;
  }
  DenseIntElementsAttr pads;
  if (!matchPattern(pad.getPads(), m_Constant(&pads)))
    return std::nullopt;
  SmallVector<int64_t> out;
  for (const APInt &p : pads.getValues<APInt>())
    out.push_back(p.getSExtValue());
  return out;
}

/// Anchored on the pool: its input is a zero Pad used only here that pads
/// only spatial dims, by non-negative amounts.
struct FoldPadIntoAveragePool : OpRewritePattern<AveragePoolOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AveragePoolOp pool,
                                PatternRewriter &rewriter) const override {
    auto pad = soleUseProducer<PadOp>(pool.getX());
    if (!pad || pool.getAutoPad() != "NOTSET")
      return rewriter.notifyMatchFailure(pool, "not fed by a Pad only it uses");
    std::optional<SmallVector<int64_t>> padPads = zeroPads(pad);
    const int64_t spatial = pool.getKernelShape().size();
    auto inType = dyn_cast<RankedTensorType>(pad.getData().getType());
    if (!padPads || !inType || inType.getRank() != spatial + 2 ||
        static_cast<int64_t>(padPads->size()) != 2 * inType.getRank())
      return rewriter.notifyMatchFailure(pool, "not a constant-zero Pad");
    const int64_t rank = inType.getRank();
    bool anyPad = false;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t begin = (*padPads)[d], end = (*padPads)[rank + d];
      if (begin < 0 || end < 0 || (d < 2 && (begin || end)))
        return rewriter.notifyMatchFailure(pool, "pads batch, channels or <0");
      anyPad = anyPad || begin || end;
    }
    SmallVector<int64_t> pads(2 * spatial, 0);
    if (std::optional<ArrayRef<int64_t>> own = pool.getPads())
      pads.assign(own->begin(), own->end());
    bool ownPads = llvm::any_of(pads, [](int64_t p) { return p != 0; });
    // The Pad's zeros are counted taps. The pool's own pads must be counted
    // as well (or absent), and ceil_mode's extra windows, which reach past
    // every pad, would count differently.
    if (anyPad && ((ownPads && pool.getCountIncludePad() == 0) ||
                   pool.getCeilMode() != 0))
      return rewriter.notifyMatchFailure(pool, "pads counted differently");
    for (int64_t d = 0; d < spatial; ++d) {
      pads[d] += (*padPads)[2 + d];
      pads[spatial + d] += (*padPads)[rank + 2 + d];
    }
    rewriter.modifyOpInPlace(pool, [&] {
      pool.getXMutable().assign(pad.getData());
      pool.setPadsAttr(rewriter.getDenseI64ArrayAttr(pads));
      if (anyPad)
        pool.setCountIncludePad(1);
      pool->setLoc(fusedLocOf({pool, pad}));
    });
    rewriter.eraseOp(pad);
    return success();
  }
};

struct FusePadPoolPass : impl::FusePadPoolBase<FusePadPoolPass> {
  using FusePadPoolBase::FusePadPoolBase;

  void runOnOperation() override {
    applyFusionPatterns<FoldPadIntoAveragePool>(getOperation());
  }
};

} // namespace
} // namespace geflow::passes
