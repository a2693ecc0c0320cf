//===- InsertEvents.cpp - the fewest events that order every dependency ---===//
//
// Pipeline step 7 (docs/architecture.md). One walk over the ops in order keeps
// the vector clocks of the task list being built
// (passes/streams/HappensBefore.h): a cross-stream dependency already ordered
// by stream order plus earlier waits needs no event (GE: the transitive
// reduction of the Send/Recv edges). Events are numbered in order of use, so
// the ids are 0..E-1.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "ir/GeOps.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/emit/TaskTimeline.h"
#include "passes/streams/HappensBefore.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

using mlir::ge::GeDialect;

namespace geflow::passes {

#define GEN_PASS_DEF_INSERTEVENTS
#include "passes/Passes.h.inc"

namespace {

using TaskId = HappensBefore::TaskId;
using TaskSet = llvm::SmallVector<TaskId, 4>;

/// The walk's state: the task list so far and who must record which events.
class EventInserter {
public:
  explicit EventInserter(mlir::func::FuncOp func)
      : func_(func), order_(countStreams(func)) {}

  mlir::LogicalResult run();

private:
  /// The tasks whose completion `value` needs: its producer's kernel, the
  /// input copies for an argument, none for a constant; through
  /// npu_wait_tensor, those of both of its operands.
  TaskSet dependencies(mlir::Value value) const;
  void orderBefore(mlir::Operation *consumer, uint32_t stream,
                   TaskSet dependencies);
  void writeAttributes();

  mlir::func::FuncOp func_;
  HappensBefore order_;
  std::optional<TaskId> inputCopies_;
  llvm::DenseMap<mlir::Operation *, TaskId> kernels_;
  /// The op behind each kernel task (the function: the input copies).
  llvm::DenseMap<TaskId, mlir::Operation *> recorderOf_;
  llvm::DenseMap<mlir::Value, TaskSet> waitTensorDeps_;
  llvm::MapVector<mlir::Operation *, llvm::SmallVector<int64_t>> sends_, recvs_;
  int64_t nextEvent_ = 0;
  int64_t crossStreamDependencies_ = 0;
};

TaskSet EventInserter::dependencies(mlir::Value value) const {
  if (llvm::isa<mlir::BlockArgument>(value))
    return inputCopies_ ? TaskSet{*inputCopies_} : TaskSet{};
  mlir::Operation *producer = value.getDefiningOp();
  auto kernel = kernels_.find(producer);
  if (kernel != kernels_.end())
    return {kernel->second};
  return waitTensorDeps_.lookup(value);
}

void EventInserter::orderBefore(mlir::Operation *consumer, uint32_t stream,
                                TaskSet deps) {
  llvm::sort(deps);
  deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
  // Latest first: a wait for a later task also orders every task that
  // completes before it, so the earlier ones usually need no event.
  for (TaskId dep : llvm::reverse(deps)) {
    if (order_.streamOf(dep) == stream)
      continue; // stream order
    ++crossStreamDependencies_;
    if (!order_.orderBeforeNext(dep, stream))
      continue; // implied by the stream's own order and earlier waits
    int64_t event = nextEvent_++;
    sends_[recorderOf_.lookup(dep)].push_back(event);
    recvs_[consumer].push_back(event);
  }
}

mlir::LogicalResult EventInserter::run() {
  if (!func_.getBody().hasOneBlock())
    return func_.emitOpError() << "event insertion needs a single-block body";
  mlir::Block &body = func_.getBody().front();
  if (body.getNumArguments() > 0) {
    inputCopies_ = order_.addTask(0);
    recorderOf_[*inputCopies_] = func_;
  }

  if (func_->hasAttr(GeDialect::kSendEventsAttr))
    return func_.emitOpError() << "already has events (ge-insert-events "
                                  "runs once, on a module without them)";
  llvm::SmallVector<mlir::ge::NpuWaitTensorOp> waitTensors;
  for (mlir::Operation &op : body) {
    if (op.hasAttr(GeDialect::kSendEventsAttr) ||
        op.hasAttr(GeDialect::kRecvEventsAttr))
      return op.emitOpError() << "already has events (ge-insert-events "
                                 "runs once, on a module without them)";
    if (op.getNumRegions() > 0)
      return op.emitOpError() << "event insertion runs after annotation "
                                 "scopes are lowered";
    if (auto wait = llvm::dyn_cast<mlir::ge::NpuWaitTensorOp>(op)) {
      TaskSet deps = dependencies(wait.getSelf());
      deps.append(dependencies(wait.getDependency()));
      waitTensorDeps_[wait.getOutput()] = std::move(deps);
      waitTensors.push_back(wait);
      continue;
    }
    if (!isComputeOp(&op))
      continue;
    uint32_t stream = uint32_t(streamOf(&op));
    TaskSet deps;
    for (mlir::Value operand : op.getOperands())
      deps.append(dependencies(operand));
    orderBefore(&op, stream, std::move(deps));
    TaskId kernel = order_.addTask(stream);
    kernels_[&op] = kernel;
    recorderOf_[kernel] = &op;
  }

  writeAttributes();
  // The ordering now lives in events; the value is %self's.
  for (mlir::ge::NpuWaitTensorOp wait : waitTensors) {
    wait.getOutput().replaceAllUsesWith(wait.getSelf());
    wait.erase();
  }
  return mlir::success();
}

void EventInserter::writeAttributes() {
  mlir::Builder builder(func_.getContext());
  for (auto &[op, ids] : sends_)
    op->setAttr(GeDialect::kSendEventsAttr, builder.getDenseI64ArrayAttr(ids));
  for (auto &[op, ids] : recvs_)
    op->setAttr(GeDialect::kRecvEventsAttr, builder.getDenseI64ArrayAttr(ids));
  func_->setAttr(GeDialect::kEventsBeforeReductionAttr,
                 builder.getI64IntegerAttr(crossStreamDependencies_));
}

struct InsertEventsPass : impl::InsertEventsBase<InsertEventsPass> {
  using InsertEventsBase::InsertEventsBase;

  void runOnOperation() override {
    if (mlir::failed(insertEvents(getOperation())))
      signalPassFailure();
  }
};

} // namespace

mlir::LogicalResult insertEvents(mlir::func::FuncOp func) {
  return EventInserter(func).run();
}

} // namespace geflow::passes
