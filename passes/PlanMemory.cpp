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
#include "passes/emit/NoTaskOps.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/streams/TaskTimeline.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

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

  // Views and in-place joins (passes/emit/NoTaskOps.h): a value lives in its
  // home's buffer at an offset; a home is an argument, a kernel's result or
  // an in-place Concat's result.
  llvm::DenseMap<mlir::Value, std::pair<mlir::Value, int64_t>> home;
  auto resolve = [&](mlir::Value v) {
    auto it = home.find(v);
    return it == home.end() ? std::make_pair(v, int64_t(0)) : it->second;
  };
  for (mlir::Operation &op : body) {
    if (!isComputeOp(&op) || !isNoTaskOp(&op))
      continue;
    llvm::SmallVector<int64_t> parts = partOffsets(&op);
    if (parts.empty())
      return op.emitOpError()
             << "has ge.no_task but is no Reshape, Flatten, Squeeze, "
                "Unsqueeze, Split or Concat";
    if (llvm::isa<mlir::ge::ConcatOp>(op)) {
      for (mlir::OpOperand &in : op.getOpOperands()) {
        mlir::Operation *producer = in.get().getDefiningOp();
        if (!producer || !isComputeOp(producer) || isNoTaskOp(producer) ||
            !in.get().hasOneUse())
          return op.emitOpError()
                 << "is an in-place concat (ge.no_task) but its operand "
                 << in.getOperandNumber()
                 << " is not the only use of a kernel's result";
        home[in.get()] = {op.getResult(0), parts[in.getOperandNumber()]};
      }
      continue;
    }
    auto [root, offset] = resolve(op.getOperand(0));
    for (mlir::OpResult result : op.getResults())
      home[result] = {root, offset + parts[result.getResultNumber()]};
  }

  // One buffer per home, with the writers and readers of every value in it.
  llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Value, 1>> groups;
  auto addValue = [&](mlir::Value value) -> mlir::LogicalResult {
    if (tensorBytes(value.getType()) < 0)
      return mlir::emitError(value.getLoc())
             << "memory planning needs a static tensor shape and a GE dtype, "
                "got "
             << value.getType();
    groups[resolve(value).first].push_back(value);
    return mlir::success();
  };
  for (mlir::BlockArgument arg : body.getArguments())
    if (mlir::failed(addValue(arg)))
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
      if (mlir::failed(addValue(result)))
        return mlir::failure();
  }

  std::vector<BufferRequest> requests;
  llvm::DenseMap<mlir::Value, size_t> requestOf;
  for (auto &[root, members] : groups) {
    BufferRequest request;
    request.size = static_cast<uint64_t>(tensorBytes(root.getType()));
    // (position, task) of every writer, the earliest first.
    llvm::SmallVector<std::pair<int64_t, HappensBefore::TaskId>, 1> writers;
    for (mlir::Value value : members) {
      auto arg = llvm::dyn_cast<mlir::BlockArgument>(value);
      mlir::Operation *producer = value.getDefiningOp();
      if (!arg && isNoTaskOp(producer))
        continue;
      writers.push_back({arg ? 0 : position.lookup(producer),
                         !timeline ? 0
                         : arg     ? timeline->inputCopies[arg.getArgNumber()]
                                   : timeline->kernels.lookup(producer)});
    }
    llvm::sort(writers);
    request.def = writers.front().first;
    request.lastUse = writers.back().first;
    request.writer = writers.front().second;
    for (auto &writer : llvm::drop_begin(writers))
      request.moreWriters.push_back(writer.second);
    request.horizon = request.def;
    if (timeline) {
      request.horizon = INT64_MAX;
      for (auto &writer : writers)
        request.horizon = std::min(
            request.horizon,
            orderedHorizon(timeline->order, writer.second, streamPositions));
    }
    for (mlir::Value value : members)
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
    requestOf[root] = requests.size();
    requests.push_back(std::move(request));
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
  auto offsetOf = [&](mlir::Value value) {
    auto [root, offset] = resolve(value);
    return static_cast<int64_t>(plan.offsets[requestOf.lookup(root)]) + offset;
  };
  llvm::SmallVector<int64_t> inputOffsets;
  for (mlir::BlockArgument arg : body.getArguments())
    inputOffsets.push_back(offsetOf(arg));
  for (mlir::Operation &op : body) {
    if (!isComputeOp(&op))
      continue;
    llvm::SmallVector<int64_t> offsets;
    for (mlir::Value result : op.getResults())
      offsets.push_back(offsetOf(result));
    op.setAttr(kOutputOffsetsAttr, builder.getDenseI64ArrayAttr(offsets));
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
