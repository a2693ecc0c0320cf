//===- BlockChannels.cpp - runs of ops kept in NC1HWC0 --------------------===//
//
// Pipeline step 3, after the fusions (docs/architecture.md, "Channel
// blocks"). A depthwise conv's kernel sweeps 16 channels interleaved per
// position; in NCHW it transposes every block in and out. Here the ops
// that have an NC1HWC0 form are grouped into connected runs (union-find
// over the values they pass each other), and a run whose depthwise convs
// and pools (the kernels that transpose into blocks in NCHW) move more
// than twice the elements of its edges takes the blocked layout: one
// ge.trans_data on each value entering it, one on each value leaving it.
// Elementwise ops keep their kernels: numpy broadcasting of [N, C1, H, W,
// 16] against [N, C1, 1, 1, 16] (a squeeze-and-excite scale) or a single
// value means what it meant in NCHW, lane by lane.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/ChannelBlocks.h"
#include "ir/GeOps.h"
#include "ir/OpFacts.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace geflow::passes {

#define GEN_PASS_DEF_BLOCKCHANNELS
#include "passes/Passes.h.inc"

namespace {

using namespace mlir;
using namespace mlir::ge;

/// A static 4-D float tensor: what NC1HWC0 holds.
RankedTensorType plainTensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getRank() == 4 && t.hasStaticShape() &&
                 t.getElementType().isF32()
             ? t
             : RankedTensorType();
}

bool isSingleValue(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.hasStaticShape() && t.getNumElements() == 1;
}

/// Whether a conv has an NC1HWC0 kernel: 2-D, NCHW now, on a map of at
/// most `maxPositions` outputs, and 1x1 of one group or depthwise (any
/// window).
template <typename ConvLike>
bool blockableConv(ConvLike conv, int64_t maxPositions) {
  RankedTensorType x = plainTensor(conv.getX());
  auto w = cast<RankedTensorType>(conv.getW().getType());
  if (!x || !plainTensor(conv.getY()) || !w.hasStaticShape() ||
      w.getRank() != 4 || conv.getDataFormat() != kPlainFormat)
    return false;
  auto y = cast<RankedTensorType>(conv.getY().getType());
  if (y.getDimSize(2) * y.getDimSize(3) > maxPositions)
    return false;
  const int64_t channels = x.getDimSize(1), group = conv.getGroup();
  const bool depthwise =
      group > 1 && group == channels && w.getDimSize(0) == channels;
  const bool pointwise =
      group == 1 && w.getDimSize(2) == 1 && w.getDimSize(3) == 1;
  return depthwise || pointwise;
}

/// A 2-D float average or max pool (no Indices), NCHW now.
template <typename Pool> bool blockablePool(Pool pool) {
  return plainTensor(pool.getX()) && plainTensor(pool.getY()) &&
         pool.getKernelShape().size() == 2 &&
         pool.getDataFormat() == kPlainFormat;
}

/// Whether op's NCHW kernel interleaves 16 planes in and out of blocks on
/// every call (depthwise convs; 2-D pools whose block stays in L2, Pool.cpp's
/// inBlocks), which NC1HWC0 saves.
bool transposesInKernel(Operation *op) {
  if (auto conv = dyn_cast<ConvOp>(op))
    return conv.getGroup() > 1;
  if (auto conv = dyn_cast<FusedConvOp>(op))
    return conv.getGroup() > 1;
  if (!isa<MaxPoolOp, AveragePoolOp>(op))
    return false;
  constexpr int64_t kMaxBlockFloats = (512 << 10) / 4 / kChannelBlock;
  auto plane = [](Value v) {
    auto t = cast<RankedTensorType>(v.getType());
    return t.getDimSize(2) * t.getDimSize(3);
  };
  return plane(op->getOperand(0)) + plane(op->getResult(0)) <= kMaxBlockFloats;
}

/// An elementwise op whose every operand is a single value or has the
/// result's channels (broadcast over N, H or W only).
bool blockableElementwise(Operation *op) {
  if (op->getNumResults() != 1 ||
      !(isa<FusedElementwiseOp>(op) ||
        elementwiseStepArity(op->getName().stripDialect()) > 0))
    return false;
  RankedTensorType y = plainTensor(op->getResult(0));
  if (!y)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value v) {
    if (isSingleValue(v))
      return true;
    RankedTensorType t = plainTensor(v);
    return t && t.getDimSize(1) == y.getDimSize(1);
  });
}

bool blockable(Operation *op, int64_t maxPositions) {
  if (auto conv = dyn_cast<ConvOp>(op))
    return blockableConv(conv, maxPositions);
  if (auto conv = dyn_cast<FusedConvOp>(op))
    return blockableConv(conv, maxPositions);
  if (auto pool = dyn_cast<GlobalAveragePoolOp>(op))
    return plainTensor(pool.getX()) && pool.getDataFormat() == kPlainFormat;
  if (auto pool = dyn_cast<MaxPoolOp>(op))
    return !pool.getIndices() && blockablePool(pool);
  if (auto pool = dyn_cast<AveragePoolOp>(op))
    return blockablePool(pool);
  return blockableElementwise(op);
}

/// The operands of a blockable op that take the blocked layout: a conv's X
/// and residual Z, not its weights and bias; an elementwise op's tensors
/// that are not single values.
SmallVector<unsigned> blockedOperands(Operation *op) {
  SmallVector<unsigned> slots;
  if (auto conv = dyn_cast<FusedConvOp>(op)) {
    slots.push_back(conv.getXMutable().getOperandNumber());
    if (conv.getZ())
      slots.push_back(conv.getZMutable()[0].getOperandNumber());
    return slots;
  }
  if (isa<ConvOp, GlobalAveragePoolOp, MaxPoolOp, AveragePoolOp>(op))
    return {0};
  for (OpOperand &operand : op->getOpOperands())
    if (!isSingleValue(operand.get()))
      slots.push_back(operand.getOperandNumber());
  return slots;
}

int64_t elements(Value v) {
  return cast<RankedTensorType>(v.getType()).getNumElements();
}

class ChannelBlocker {
public:
  ChannelBlocker(func::FuncOp fn, int64_t maxPositions)
      : fn_(fn), maxPositions_(maxPositions) {}

  void run() {
    fn_.walk([&](Operation *op) {
      if (blockable(op, maxPositions_)) {
        ops_.insert(op);
        runs_.insert(op);
      }
    });
    for (Operation *op : ops_)
      for (unsigned slot : blockedOperands(op))
        if (Operation *def = op->getOperand(slot).getDefiningOp();
            def && ops_.contains(def))
          runs_.unionSets(def, op);
    SmallVector<SmallVector<Operation *>> runs;
    for (auto it = runs_.begin(); it != runs_.end(); ++it)
      if (it->isLeader())
        runs.emplace_back(runs_.member_begin(it), runs_.member_end());
    for (SmallVector<Operation *> &run : runs)
      convertIfWorth(std::move(run));
  }

private:
  bool inRun(Operation *op, Operation *leader) const {
    return op && ops_.contains(op) &&
           runs_.getLeaderValue(op) == runs_.getLeaderValue(leader);
  }

  /// Values entering the run and values leaving it (read by an op outside
  /// it or returned); whether the transposes the run's depthwise convs save
  /// outweigh those of its edges; then the rewrite.
  void convertIfWorth(SmallVector<Operation *> run) {
    // One block (a torchair scope's region is another), in program order
    // so that the conversions below see defs first.
    if (llvm::any_of(run, [&](Operation *op) {
          return op->getBlock() != run.front()->getBlock();
        }))
      return;
    llvm::sort(
        run, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    Operation *leader = run.front();
    llvm::SetVector<Value> entering;
    llvm::MapVector<Value, SmallVector<OpOperand *>> leaving;
    int64_t saved = 0, paid = 0;
    for (Operation *op : run) {
      if (transposesInKernel(op))
        saved += elements(op->getOperand(0)) + elements(op->getResult(0));
      for (unsigned slot : blockedOperands(op))
        if (!inRun(op->getOperand(slot).getDefiningOp(), leader))
          entering.insert(op->getOperand(slot));
      Value result = op->getResult(0);
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        bool blockedUse =
            inRun(user, leader) &&
            llvm::is_contained(blockedOperands(user), use.getOperandNumber());
        if (!blockedUse)
          leaving[result].push_back(&use);
      }
    }
    for (Value v : entering)
      paid += elements(v);
    for (auto &[v, uses] : leaving)
      paid += elements(v);
    // A trans_data is a kernel and a pass over memory of its own; the
    // transposes it replaces ran inside their kernels on blocks in L2. The
    // run must save twice what its edges move (GoogLeNet's pool -> 1x1
    // branches, at 1.8x, ran 2-3 % slower blocked at two threads).
    if (saved <= 2 * paid)
      return;

    OpBuilder builder(fn_.getContext());
    llvm::DenseMap<Value, Value> blocked;
    for (Value v : entering) {
      builder.setInsertionPointAfterValue(v);
      auto type = cast<RankedTensorType>(v.getType());
      blocked[v] = builder.create<TransDataOp>(
          v.getLoc(), blockedType(type), v, builder.getStringAttr(kPlainFormat),
          builder.getStringAttr(kBlockedFormat));
    }
    for (Operation *op : run) {
      for (unsigned slot : blockedOperands(op))
        if (Value b = blocked.lookup(op->getOperand(slot)))
          op->setOperand(slot, b);
      Value result = op->getResult(0);
      auto plain = cast<RankedTensorType>(result.getType());
      result.setType(blockedType(plain));
      if (isa<ConvOp, FusedConvOp, GlobalAveragePoolOp, MaxPoolOp,
              AveragePoolOp>(op))
        op->setAttr("data_format", builder.getStringAttr(kBlockedFormat));
      auto out = leaving.find(result);
      if (out == leaving.end())
        continue;
      builder.setInsertionPointAfter(op);
      Value back = builder.create<TransDataOp>(
          op->getLoc(), plain, result, builder.getStringAttr(kBlockedFormat),
          builder.getStringAttr(kPlainFormat));
      for (OpOperand *use : out->second)
        use->set(back);
    }
  }

  func::FuncOp fn_;
  int64_t maxPositions_;
  llvm::SetVector<Operation *> ops_; // the blockable ones
  llvm::EquivalenceClasses<Operation *> runs_;
};

struct BlockChannelsPass : impl::BlockChannelsBase<BlockChannelsPass> {
  using BlockChannelsBase::BlockChannelsBase;

  void runOnOperation() override {
    ChannelBlocker(getOperation(), maxPositions).run();
  }
};

} // namespace
} // namespace geflow::passes
