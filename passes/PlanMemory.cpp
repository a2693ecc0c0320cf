//===- PlanMemory.cpp - liveness-based workspace plan ---------------------===//
//
// Pipeline step 8 (docs/architecture.md). Positions: the arguments are written
// at 0 (the executor copies inputs in before any kernel), op k of the body
// at k + 1, and the results read at N + 1 (copied out after every kernel).
// On several streams the tasks of passes/emit/TaskTimeline.h decide what
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
#include "passes/emit/TaskTimeline.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace geflow::passes {

#define GEN_PASS_DEF_PLANMEMORY
#include "passes/Passes.h.inc"

namespace {

/// Task positions: the arguments are written at 0, body op k at k + 1, and
/// the results read at `end` (N + 1).
struct Positions {
  llvm::DenseMap<mlir::Operation *, int64_t> ofOp;
  int64_t end = 0; // the output copies
};

/// On several streams, what orders the tasks: the timeline the emitter will
/// produce and, per stream, the positions of its tasks in stream order (for
/// the horizons of MemoryPlanner.h, which spare comparing every pair).
struct StreamOrder {
  TaskTimeline timeline;
  std::vector<std::vector<int64_t>> streamPositions;
};

/// Views and in-place joins (passes/emit/NoTaskOps.h): a value lives in its
/// home's buffer at an offset; a home is an argument, a kernel's result or an
/// in-place Concat's result.
class Homes {
public:
  std::pair<mlir::Value, int64_t> resolve(mlir::Value value) const {
    auto it = home_.find(value);
    return it == home_.end() ? std::make_pair(value, int64_t(0)) : it->second;
  }
  void place(mlir::Value value, mlir::Value home, int64_t offset) {
    home_[value] = {home, offset};
  }

private:
  llvm::DenseMap<mlir::Value, std::pair<mlir::Value, int64_t>> home_;
};

/// One buffer per home, in the order homes are first met, with every value
/// that lives in it.
using BufferMembers =
    llvm::MapVector<mlir::Value, llvm::SmallVector<mlir::Value, 1>>;

Positions numberPositions(mlir::Block &body) {
  Positions positions;
  int64_t next = 1;
  for (mlir::Operation &op : body)
    positions.ofOp[&op] = next++;
  positions.end = next;
  return positions;
}

/// Several streams: reuse follows the task list's happens-before order
/// (streams and events), read from the same attributes the emitter reads.
/// One stream: none, op order is the order.
mlir::FailureOr<std::optional<StreamOrder>>
readStreamOrder(mlir::func::FuncOp func, const Positions &positions) {
  if (countStreams(func) <= 1)
    return std::optional<StreamOrder>();
  mlir::FailureOr<TaskTimeline> built = buildTaskTimeline(func);
  if (mlir::failed(built))
    return mlir::failure();
  StreamOrder streams{std::move(*built), {}};
  const HappensBefore &order = streams.timeline.order;
  std::vector<int64_t> taskPosition(order.numTasks(), 0);
  for (auto &[op, task] : streams.timeline.kernels)
    taskPosition[task] = positions.ofOp.lookup(op);
  for (HappensBefore::TaskId task : streams.timeline.outputCopies)
    taskPosition[task] = positions.end;
  streams.streamPositions.resize(order.numStreams());
  for (HappensBefore::TaskId task = 0; task < order.numTasks(); ++task)
    streams.streamPositions[order.streamOf(task)].push_back(taskPosition[task]);
  return std::optional<StreamOrder>(std::move(streams));
}

/// The home of every value a no-task op defines (and of an in-place Concat's
/// operands); fails on a no-task op that cannot be one.
mlir::LogicalResult findHomes(mlir::Block &body, Homes &homes) {
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
        homes.place(in.get(), op.getResult(0), parts[in.getOperandNumber()]);
      }
      continue;
    }
    auto [root, offset] = homes.resolve(op.getOperand(0));
    for (mlir::OpResult result : op.getResults())
      homes.place(result, root, offset + parts[result.getResultNumber()]);
  }
  return mlir::success();
}

/// Every argument and compute op result, grouped by home; fails on a value
/// without a static size and on ops memory planning must not meet.
mlir::LogicalResult groupByHome(mlir::Block &body, const Homes &homes,
                                BufferMembers &buffers) {
  auto addValue = [&](mlir::Value value) -> mlir::LogicalResult {
    if (tensorBytes(value.getType()) < 0)
      return mlir::emitError(value.getLoc())
             << "memory planning needs a static tensor shape and a GE dtype, "
                "got "
             << value.getType();
    buffers[homes.resolve(value).first].push_back(value);
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
  return mlir::success();
}

/// The request of one buffer: its size, its writers (the first at `def`),
/// its last reader, and on several streams the tasks that write and read it
/// and its horizon.
BufferRequest describeBuffer(mlir::Block &body, mlir::Value home,
                             llvm::ArrayRef<mlir::Value> members,
                             const Positions &positions,
                             const StreamOrder *streams) {
  BufferRequest request;
  request.size = static_cast<uint64_t>(tensorBytes(home.getType()));
  // (position, task) of every writer, the earliest first.
  llvm::SmallVector<std::pair<int64_t, HappensBefore::TaskId>, 1> writers;
  for (mlir::Value value : members) {
    auto arg = llvm::dyn_cast<mlir::BlockArgument>(value);
    mlir::Operation *producer = value.getDefiningOp();
    if (!arg && isNoTaskOp(producer))
      continue;
    writers.push_back({arg ? 0 : positions.ofOp.lookup(producer),
                       !streams ? 0
                       : arg ? streams->timeline.inputCopies[arg.getArgNumber()]
                             : streams->timeline.kernels.lookup(producer)});
  }
  llvm::sort(writers);
  request.def = writers.front().first;
  request.lastUse = writers.back().first;
  request.writer = writers.front().second;
  for (auto &writer : llvm::drop_begin(writers))
    request.moreWriters.push_back(writer.second);
  request.horizon = request.def;
  if (streams) {
    request.horizon = INT64_MAX;
    for (auto &writer : writers)
      request.horizon =
          std::min(request.horizon,
                   orderedHorizon(streams->timeline.order, writer.second,
                                  streams->streamPositions));
  }
  for (mlir::Value value : members)
    for (mlir::OpOperand &use : value.getUses()) {
      mlir::Operation *user = body.findAncestorOpInBlock(*use.getOwner());
      bool isResult = !user || user->hasTrait<mlir::OpTrait::IsTerminator>();
      int64_t at = isResult ? positions.end : positions.ofOp.lookup(user);
      request.lastUse = std::max(request.lastUse, at);
      if (streams)
        request.readers.push_back(
            isResult ? streams->timeline.outputCopies[use.getOperandNumber()]
                     : streams->timeline.kernels.lookup(user));
    }
  return request;
}

/// ge.output_offsets on every compute op, ge.input_offsets and the workspace
/// sizes on the function.
void writePlan(mlir::func::FuncOp func, const Homes &homes,
               const BufferMembers &buffers, const MemoryPlanResult &plan) {
  mlir::Block &body = func.getBody().front();
  llvm::DenseMap<mlir::Value, uint64_t> homeOffset;
  for (auto [index, buffer] : llvm::enumerate(buffers))
    homeOffset[buffer.first] = plan.offsets[index];
  auto offsetOf = [&](mlir::Value value) {
    auto [root, offset] = homes.resolve(value);
    return static_cast<int64_t>(homeOffset.lookup(root)) + offset;
  };
  mlir::Builder builder(func.getContext());
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
}

} // namespace

mlir::LogicalResult planMemory(mlir::func::FuncOp func, bool reuse,
                               int64_t alignment) {
  if (alignment <= 0)
    return func.emitOpError()
           << "memory alignment must be positive, got " << alignment;
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "memory planning needs a single-block body";
  mlir::Block &body = func.getBody().front();

  Positions positions = numberPositions(body);
  mlir::FailureOr<std::optional<StreamOrder>> streams =
      readStreamOrder(func, positions);
  if (mlir::failed(streams))
    return mlir::failure();
  const StreamOrder *order = *streams ? &**streams : nullptr;

  Homes homes;
  BufferMembers buffers;
  if (mlir::failed(findHomes(body, homes)) ||
      mlir::failed(groupByHome(body, homes, buffers)))
    return mlir::failure();

  std::vector<BufferRequest> requests;
  for (auto &[home, members] : buffers)
    requests.push_back(describeBuffer(body, home, members, positions, order));

  MemoryPlanOptions options;
  options.reuse = reuse;
  options.alignment = static_cast<uint64_t>(alignment);
  // Pipeline step 8: across streams, memory passes on only when stream
  // order or an event orders every use before the new writer.
  if (order)
    options.orderedBefore = orderedByHappensBefore(order->timeline.order);
  writePlan(func, homes, buffers, planBuffers(requests, options));
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
