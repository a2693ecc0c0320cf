//===- AssignStreams.cpp - ge.stream on every compute op ------------------===//
//
// Pipeline step 6 (docs/architecture.md). The function's compute ops become a
// TaskGraph (op order, engines, task sizes, dependencies through
// npu_wait_tensor edges, user labels); passes/streams/StreamAssignment.cpp
// decides; the result is written back as `ge.stream`.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "ir/GeDialect.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/KernelPlanning.h"
#include "passes/emit/NoTaskOps.h"
#include "passes/emit/OpDefBuilder.h"
#include "passes/streams/LowerBound.h"
#include "passes/streams/StreamAssignment.h"

#include "runtime/soc/CostModel.h"
#include "runtime/soc/SocSpec.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace geflow::passes {

#define GEN_PASS_DEF_ASSIGNSTREAMS
#include "passes/Passes.h.inc"

namespace {

uint32_t intAttrOr(mlir::Operation *op, llvm::StringRef name,
                   int64_t fallback) {
  auto attr = op->getAttrOfType<mlir::IntegerAttr>(name);
  return uint32_t(attr ? attr.getInt() : fallback);
}

double floatAttrOr(mlir::Operation *op, llvm::StringRef name) {
  auto attr = op->getAttrOfType<mlir::FloatAttr>(name);
  return attr ? attr.getValueAsDouble() : 0.0;
}

/// The compute ops of `func` (sized by annotateTasks) as a TaskGraph.
TaskGraph buildTaskGraph(mlir::func::FuncOp func,
                         llvm::SmallVectorImpl<mlir::Operation *> &ops) {
  TaskGraph graph;
  llvm::DenseMap<mlir::Operation *, int> index;
  llvm::StringMap<int> labels;
  // The compute ops a value's availability waits for: its producer, or
  // through npu_wait_tensor both of the edge's ends.
  std::function<void(mlir::Value, std::vector<int> &)> producers =
      [&](mlir::Value value, std::vector<int> &deps) {
        mlir::Operation *def = value.getDefiningOp();
        if (!def)
          return;
        if (auto it = index.find(def); it != index.end()) {
          deps.push_back(it->second);
          return;
        }
        if (def->getName().getStringRef() == "ge.npu_wait_tensor")
          for (mlir::Value operand : def->getOperands())
            producers(operand, deps);
      };

  func.walk([&](mlir::Operation *op) {
    if (op == func.getOperation() || !isComputeOp(op))
      return;
    TaskNode node;
    node.name = nameFromLoc(op->getLoc());
    if (node.name.empty())
      node.name = op->getName().getStringRef().str();
    auto engine =
        op->getAttrOfType<mlir::ge::EngineAttr>(GeDialect::kEngineAttr);
    // HOST work has no core group; the simulator times it as AICPU.
    node.engine =
        engine ? runtimeEngine(engine.getValue()).value_or(rt::Engine::kAiCpu)
               : rt::Engine::kAiv;
    node.blockDim = intAttrOr(op, kBlockDimAttr, 1);
    node.cost.flops = floatAttrOr(op, kFlopsAttr);
    node.cost.bytes = floatAttrOr(op, kBytesAttr);
    node.aicoreNum = intAttrOr(op, GeDialect::kAicoreNumAttr, 0);
    node.vectorcoreNum = intAttrOr(op, GeDialect::kVectorcoreNumAttr, 0);
    for (mlir::Value operand : op->getOperands())
      producers(operand, node.deps);
    if (auto label =
            op->getAttrOfType<mlir::StringAttr>(GeDialect::kStreamLabelAttr)) {
      auto [it, inserted] =
          labels.try_emplace(label.getValue(), int(graph.labels.size()));
      if (inserted)
        graph.labels.push_back(label.getValue().str());
      node.label = it->second;
    }
    if (auto inner =
            op->getAttrOfType<mlir::BoolAttr>(GeDialect::kInnerParallelAttr))
      node.innerParallel = inner.getValue();
    node.priority = intAttrOr(op, GeDialect::kStreamPriorityAttr, 0);
    node.noTask = isNoTaskOp(op);
    index[op] = int(graph.nodes.size());
    graph.nodes.push_back(std::move(node));
    ops.push_back(op);
  });
  return graph;
}

struct AssignStreamsPass : impl::AssignStreamsBase<AssignStreamsPass> {
  using AssignStreamsBase::AssignStreamsBase;

  void runOnOperation() override {
    mlir::func::FuncOp func = getOperation();
    std::optional<StreamMode> streamMode = parseStreamMode(mode);
    if (!streamMode) {
      func.emitError() << "ge-assign-streams: mode '" << mode
                       << "' is not one of single, label, auto";
      return signalPassFailure();
    }
    rt::SocSpec spec;
    if (mlir::failed(loadSocSpecFor(getOperation(), soc, spec)))
      return signalPassFailure();
    // In the pipeline ge-emit-tasks has sized every task; run alone, the
    // pass sizes them itself.
    bool sized = !func.walk([](mlir::Operation *op) {
                        return isComputeOp(op) && !op->hasAttr(kBlockDimAttr)
                                   ? mlir::WalkResult::interrupt()
                                   : mlir::WalkResult::advance();
                      })
                      .wasInterrupted();
    if (!sized && mlir::failed(annotateTasks(func, rt::CostModel(spec),
                                             /*requireKernels=*/false)))
      return signalPassFailure();

    llvm::SmallVector<mlir::Operation *> ops;
    TaskGraph graph = buildTaskGraph(func, ops);
    StreamAssignmentOptions options;
    options.mode = *streamMode;
    options.maxStreams = maxStreams;
    MakespanPredictor predictor(spec, aicoreNum, vectorcoreNum);
    llvm::Expected<StreamAssignment> assignment =
        assignStreams(graph, options, predictor);
    if (!assignment) {
      func.emitError() << llvm::toString(assignment.takeError());
      return signalPassFailure();
    }

    mlir::Builder b(func.getContext());
    for (auto [op, stream] : llvm::zip(ops, assignment->streamOf))
      op->setAttr(GeDialect::kStreamAttr, b.getI64IntegerAttr(stream));
    for (auto [op, blockDim] : llvm::zip(ops, assignment->blockDimOf))
      op->setAttr(kBlockDimAttr, b.getI64IntegerAttr(blockDim));
    // Every mode reports its prediction against the bound; auto has timed
    // the alternatives already.
    if (*streamMode != StreamMode::kAuto) {
      assignment->chosenNs = predictor.predictNs(graph, assignment->streamOf);
      assignment->labelsOnlyNs = assignment->chosenNs;
      assignment->singleNs =
          assignment->streamCount == 1
              ? assignment->chosenNs
              : predictor.predictNs(graph,
                                    std::vector<int>(graph.nodes.size(), 0));
    }
    func->setAttr(GeDialect::kPredictedMakespanAttr,
                  b.getDenseI64ArrayAttr({int64_t(assignment->singleNs),
                                          int64_t(assignment->labelsOnlyNs),
                                          int64_t(assignment->chosenNs)}));
    LowerBound bound = lowerBound(graph, spec, aicoreNum, vectorcoreNum);
    func->setAttr(GeDialect::kLowerBoundAttr,
                  b.getDenseI64ArrayAttr({int64_t(bound.ns()),
                                          int64_t(bound.criticalPathNs),
                                          int64_t(bound.engineWorkNs),
                                          int64_t(bound.segmentsNs)}));
  }
};

} // namespace
} // namespace geflow::passes
