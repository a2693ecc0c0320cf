//===- PlanMemory.cpp - liveness-based workspace plan ---------------------===//
//
// Pipeline step 8 (docs/architecture.md). Positions: the arguments are written
// at 0 (the executor copies inputs in before any kernel), op k of the body
// at k + 1, and the results read at N + 1 (copied out after every kernel).
// On several streams the tasks of passes/streams/TaskTimeline.h decide what
// is ordered. The placement itself is MemoryPlanner's.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "ir/GeOps.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/MemoryPlanner.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/streams/TaskTimeline.h"

#include "mlir/IR/Builders.h"

namespace geflow::passes {

#define GEN_PASS_DEF_PLANMEMORY
#include "passes/Passes.h.inc"

mlir::LogicalResult planMemory(mlir::func::FuncOp func, bool reuse,
                               int64_t alignment) {
  if (alignment <= 0)
    return func.emitOpError()
           << "memory alignment must be positive, got " << alignment;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "memory planning needs a single-block body";
  mlir::Block &body = func.getBody().front();

  llvm::DenseMap<mlir::Operation *, int64_t> position;
  int64_t next = 1;
  for (mlir::Operation &op : body)
    position[&op] = next++;
  const int64_t end = next; // the output copies

  // Several streams: reuse follows the task list's happens-before order
  // (streams and events), read from the same attributes the emitter reads.
  std::optional<TaskTimeline> timeline;
  if (countStreams(func) > 1) {
    mlir::FailureOr<TaskTimeline> built = buildTaskTimeline(func);
    if (mlir::failed(built))
      return mlir::failure();
    timeline = std::move(*built);
  }
  // Per stream, the positions of its tasks in stream order: the horizons
  // (MemoryPlanner.h) that spare the planner comparing every pair.
  std::vector<std::vector<int64_t>> streamPositions;
  if (timeline) {
    const HappensBefore &order = timeline->order;
    std::vector<int64_t> taskPosition(order.numTasks(), 0);
    for (auto &[op, task] : timeline->kernels)
      taskPosition[task] = position.lookup(op);
    for (HappensBefore::TaskId task : timeline->outputCopies)
      taskPosition[task] = end;
    streamPositions.resize(order.numStreams());
    for (HappensBefore::TaskId task = 0; task < order.numTasks(); ++task)
      streamPositions[order.streamOf(task)].push_back(taskPosition[task]);
  }

  std::vector<BufferRequest> requests;
  llvm::SmallVector<mlir::Value> values;
  auto addBuffer = [&](mlir::Value value, int64_t def) -> mlir::LogicalResult {
    int64_t bytes = tensorBytes(value.getType());
    if (bytes < 0)
      return mlir::emitError(value.getLoc())
             << "memory planning needs a static tensor shape and a GE dtype, "
                "got "
             << value.getType();
    BufferRequest request;
    request.size = static_cast<uint64_t>(bytes);
    request.def = def;
    request.lastUse = def;
    if (timeline) {
      auto arg = llvm::dyn_cast<mlir::BlockArgument>(value);
      request.writer = arg ? timeline->inputCopies[arg.getArgNumber()]
                           : timeline->kernels.lookup(value.getDefiningOp());
      request.horizon =
          orderedHorizon(timeline->order, request.writer, streamPositions);
    } else {
      request.horizon = def;
    }
    for (mlir::OpOperand &use : value.getUses()) {
      mlir::Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      bool isResult = !user || user->hasTrait<mlir::OpTrait::IsTerminator>();
      int64_t at = isResult ? end : position.lookup(user);
      request.lastUse = std::max(request.lastUse, at);
      if (timeline)
        request.readers.push_back(
            isResult ? timeline->outputCopies[use.getOperandNumber()]
                     : timeline->kernels.lookup(user));
    }
    requests.push_back(request);
    values.push_back(value);
    return mlir::success();
  };

  for (mlir::BlockArgument arg : body.getArguments())
    if (mlir::failed(addBuffer(arg, 0)))
      return mlir::failure();
  for (mlir::Operation &op : body) {
    // Its result aliases %self, whose readers it would hide.
    if (llvm::isa<mlir::ge::NpuWaitTensorOp>(op))
      return op.emitOpError() << "memory planning runs after "
                                 "ge-insert-events, which erases it";
    if (!isComputeOp(&op))
      continue;
    if (op.getNumRegions() > 0)
      return op.emitOpError() << "memory planning runs after annotation "
                                 "scopes are lowered";
    for (mlir::Value result : op.getResults())
      if (mlir::failed(addBuffer(result, position[&op])))
        return mlir::failure();
  }

  MemoryPlanOptions options;
  options.reuse = reuse;
  options.alignment = static_cast<uint64_t>(alignment);
  // Pipeline step 8: across streams, memory passes on only when stream
  // order or an event orders every use before the new writer.
  if (timeline)
    options.orderedBefore = orderedByHappensBefore(timeline->order);
  MemoryPlanResult plan = planBuffers(requests, options);

  mlir::Builder builder(func.getContext());
  llvm::SmallVector<int64_t> inputOffsets;
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<int64_t>> outputOffsets;
  for (size_t i = 0; i < values.size(); ++i) {
    int64_t offset = static_cast<int64_t>(plan.offsets[i]);
    if (auto result = llvm::dyn_cast<mlir::OpResult>(values[i])) {
      auto &list = outputOffsets[result.getOwner()];
      list.resize(result.getOwner()->getNumResults(), 0);
      list[result.getResultNumber()] = offset;
    } else {
      inputOffsets.push_back(offset);
    }
  }
  for (mlir::Operation &op : body) {
    auto it = outputOffsets.find(&op);
    if (it != outputOffsets.end())
      op.setAttr(kOutputOffsetsAttr, builder.getDenseI64ArrayAttr(it->second));
  }
  func->setAttr(kInputOffsetsAttr, builder.getDenseI64ArrayAttr(inputOffsets));
  func->setAttr(
      kWorkspaceSizeAttr,
      builder.getI64IntegerAttr(static_cast<int64_t>(plan.workspaceSize)));
  func->setAttr(kWorkspaceSizeNoReuseAttr,
                builder.getI64IntegerAttr(
                    static_cast<int64_t>(plan.workspaceSizeWithoutReuse)));
  return mlir::success();
}

namespace {

struct PlanMemoryPass : impl::PlanMemoryBase<PlanMemoryPass> {
  using PlanMemoryBase::PlanMemoryBase;

  void runOnOperation() override {
    if (mlir::failed(planMemory(getOperation(), reuse, alignment)))
      signalPassFailure();
  }
};

} // namespace
} // namespace geflow::passes
