//===- TaskTimeline.cpp - a scheduled function's tasks, in emission order -===//

#include "passes/emit/TaskTimeline.h"

#include "ir/GeDialect.h"
#include "passes/emit/OpDefBuilder.h"

#include "mlir/IR/BuiltinAttributes.h"

using mlir::ge::GeDialect;

namespace geflow::passes {

int64_t streamOf(mlir::Operation *op) {
  auto stream = op->getAttrOfType<mlir::IntegerAttr>(GeDialect::kStreamAttr);
  return stream ? stream.getInt() : 0;
}

uint32_t countStreams(mlir::func::FuncOp func) {
  int64_t maxStream = 0;
  for (mlir::Operation &op : func.getBody().front())
    maxStream = std::max(maxStream, streamOf(&op));
  return uint32_t(maxStream + 1);
}

static llvm::ArrayRef<int64_t> eventIds(mlir::Operation *op,
                                        llvm::StringRef name) {
  auto ids = op->getAttrOfType<mlir::DenseI64ArrayAttr>(name);
  return ids ? ids.asArrayRef() : llvm::ArrayRef<int64_t>();
}

mlir::FailureOr<TaskTimeline> buildTaskTimeline(mlir::func::FuncOp func) {
  mlir::Block &body = func.getBody().front();
  TaskTimeline timeline;
  timeline.order = HappensBefore(countStreams(func));
  HappensBefore &order = timeline.order;

  for (unsigned i = 0; i < body.getNumArguments(); ++i)
    timeline.inputCopies.push_back(order.addTask(0));
  for (int64_t id : eventIds(func, GeDialect::kSendEventsAttr))
    order.recordEvent(0, id);

  for (mlir::Operation &op : body) {
    if (!isComputeOp(&op))
      continue;
    uint32_t stream = uint32_t(streamOf(&op));
    for (int64_t id : eventIds(&op, GeDialect::kRecvEventsAttr))
      if (!order.waitEvent(stream, id))
        return op.emitOpError()
               << "waits for event " << id << ", which no earlier op records";
    timeline.kernels[&op] = order.addTask(stream);
    for (int64_t id : eventIds(&op, GeDialect::kSendEventsAttr))
      order.recordEvent(stream, id);
  }

  for (mlir::Value result : body.getTerminator()->getOperands()) {
    mlir::Operation *producer = result.getDefiningOp();
    timeline.outputCopies.push_back(
        order.addTask(producer ? uint32_t(streamOf(producer)) : 0));
  }
  return timeline;
}

} // namespace geflow::passes
