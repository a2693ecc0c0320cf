//===- StreamPlanApplier.h - a stream plan onto the imported graph -*- C++
//-*-===//
//
// A plan names ONNX nodes and tensors, which only the importer still knows, so
// it is applied during import: each op built for a selected node gets the
// scheduling attributes the node annotations would give it (ge.stream_label,
// ...; the plan wins key by key), and each wait_tensor entry becomes
//   %a2 = ge.npu_wait_tensor %a, %b
// with every consumer of %a switched to %a2.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_STREAMPLANAPPLIER_H
#define GEFLOW_FRONTENDS_ONNX_STREAMPLANAPPLIER_H

#include "frontends/streamplan/StreamPlan.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

namespace geflow::onnxfe {

class StreamPlanApplier {
public:
  explicit StreamPlanApplier(const streamplan::StreamPlan &plan) : plan(plan) {}

  /// Gives `op`, one of the ops built for node `nodeName`, what the plan says
  /// about that node.
  void annotate(llvm::StringRef nodeName, mlir::Operation *op);

  /// Once every node is built into `body` (before its terminator exists):
  /// checks that every glob selects one of `nodeNames`, inserts the waits over
  /// the ONNX tensor names in `tensors`, and reorders `body` so that each
  /// consumer follows its wait. Errors name the plan's line and key.
  llvm::Error finish(mlir::Block &body,
                     llvm::ArrayRef<llvm::StringRef> nodeNames,
                     const llvm::StringMap<mlir::Value> &tensors);

private:
  llvm::Error insertWait(mlir::Block &body, const streamplan::WaitTensor &wait,
                         const llvm::StringMap<mlir::Value> &tensors);

  const streamplan::StreamPlan &plan;
};

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_STREAMPLANAPPLIER_H
