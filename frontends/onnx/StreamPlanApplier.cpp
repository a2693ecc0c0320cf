//===- StreamPlanApplier.cpp - a stream plan onto the imported graph ------===//

#include "frontends/onnx/StreamPlanApplier.h"

#include "ir/GeDialect.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace geflow::onnxfe;
using geflow::streamplan::WaitTensor;
using mlir::ge::GeDialect;

void StreamPlanApplier::annotate(llvm::StringRef nodeName, Operation *op) {
  streamplan::NodeSettings settings = plan.settingsFor(nodeName);
  Builder b(op->getContext());
  if (settings.streamTag)
    op->setAttr(GeDialect::kStreamLabelAttr,
                b.getStringAttr(*settings.streamTag));
  if (settings.priority)
    op->setAttr(GeDialect::kStreamPriorityAttr,
                b.getI64IntegerAttr(*settings.priority));
  if (settings.innerParallel)
    op->setAttr(GeDialect::kInnerParallelAttr,
                b.getBoolAttr(*settings.innerParallel));
  if (settings.coreLimit) {
    op->setAttr(GeDialect::kAicoreNumAttr,
                b.getI64IntegerAttr(settings.coreLimit->aicoreNum));
    op->setAttr(GeDialect::kVectorcoreNumAttr,
                b.getI64IntegerAttr(settings.coreLimit->vectorcoreNum));
  }
}

/// True when `target` is `from`'s producer or computed from `from`.
static bool isComputedFrom(Operation *target, Value from) {
  llvm::SmallVector<Operation *> worklist(from.getUsers().begin(),
                                          from.getUsers().end());
  llvm::SmallPtrSet<Operation *, 32> seen;
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (op == target)
      return true;
    if (!seen.insert(op).second)
      continue;
    for (Value result : op->getResults())
      worklist.append(result.getUsers().begin(), result.getUsers().end());
  }
  return false;
}

llvm::Error
StreamPlanApplier::insertWait(Block &body, const WaitTensor &wait,
                              const llvm::StringMap<Value> &tensors) {
  Value self = tensors.lookup(wait.tensor);
  if (!self)
    return plan.error(wait.tensorSite,
                      "no tensor '" + wait.tensor + "' in the model");
  Value dependency = tensors.lookup(wait.after);
  if (!dependency)
    return plan.error(wait.afterSite,
                      "no tensor '" + wait.after + "' in the model");
  Operation *producer = dependency.getDefiningOp();
  if (!producer)
    return plan.error(wait.afterSite,
                      "'" + wait.after +
                          "' is a graph input; no node produces "
                          "it, so there is nothing to wait for");
  if (producer->getName().getStringRef() == "ge.constant")
    return plan.error(wait.afterSite,
                      "'" + wait.after +
                          "' is a constant; no node computes it, "
                          "so there is nothing to wait for");
  if (isComputedFrom(producer, self))
    return plan.error(wait.afterSite,
                      "'" + wait.after + "' is computed from '" + wait.tensor +
                          "', so the consumers of '" + wait.tensor +
                          "' cannot wait for it (a cycle)");

  // Right after the later of the two definitions; consumers that come earlier
  // in the block are moved behind it by the topological sort in finish().
  OpBuilder builder(producer->getContext());
  Operation *selfDef = self.getDefiningOp();
  builder.setInsertionPointAfter(
      selfDef && producer->isBeforeInBlock(selfDef) ? selfDef : producer);
  Location loc = NameLoc::get(
      builder.getStringAttr(wait.tensor + "/wait_for/" + wait.after),
      FileLineColLoc::get(builder.getStringAttr(plan.sourceName),
                          wait.tensorSite.line, 0));
  OperationState state(loc, "ge.npu_wait_tensor");
  state.addOperands({self, dependency});
  state.addTypes(self.getType());
  Operation *waitOp = builder.create(state);
  self.replaceAllUsesExcept(waitOp->getResult(0), waitOp);
  return llvm::Error::success();
}

llvm::Error StreamPlanApplier::finish(Block &body,
                                      llvm::ArrayRef<llvm::StringRef> nodeNames,
                                      const llvm::StringMap<Value> &tensors) {
  if (auto err = plan.checkEveryGlobMatches(nodeNames))
    return err;
  for (const WaitTensor &wait : plan.waits)
    if (auto err = insertWait(body, wait, tensors))
      return err;
  // Every wait was checked against cycles, so the sort succeeds.
  if (!sortTopologically(&body))
    return plan.error({}, "the waits of the plan form a cycle");
  return llvm::Error::success();
}
