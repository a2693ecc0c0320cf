//===- RuntimeShapesControlFlow.h - ONNX If in run-time-shape models -*- C++
//-*-===//
//
// An ONNX If has no ge op: which branch runs is a value, like a shape
// operand, so a RUNTIME_SHAPES execution decides it once the condition is
// known. The taken branch then runs as a nested run-time-shape execution
// of its own graph, whose inputs are the outer-scope tensors it reads (all
// known by then) and whose outputs become the If's. Each branch keeps its
// nested model, and so its compiled stages, across executions.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCONTROLFLOW_H
#define GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCONTROLFLOW_H

#include "tools/driver/RuntimeShapesStages.h"

#include "executor/model/OmModel.h"

#include <map>
#include <memory>

namespace geflow::rt {
class Device;
} // namespace geflow::rt

namespace geflow::driver {

class RuntimeShapesModel;
struct RuntimeShapesStats;

/// The tensors `node`'s subgraphs read from enclosing scopes (nested
/// subgraphs included), in first-use order; none for a node without any.
std::vector<std::string> outerScopeReads(const onnx::NodeProto &node);

/// The If nodes of a RUNTIME_SHAPES model's source graph and their
/// branches' nested models.
class IfBranches {
public:
  /// `outer` is the model's ModelDef (its compile options are the
  /// branches'); `planner` its source graph. Both must outlive this.
  IfBranches(rt::Device &device, const om::LoadedOm &outer,
             const StagePlanner &planner);
  ~IfBranches();

  /// An If node not `done` whose condition and taken branch's outer-scope
  /// reads are known, or -1.
  int readyNode(const std::vector<bool> &done, const KnownTensors &known) const;

  /// Runs the taken branch of If node `node` and sets its outputs in
  /// `known`; the nested execution's figures add to `stats`.
  llvm::Error run(int node, KnownTensors &known, RuntimeShapesStats &stats);

private:
  /// Whether If `node` takes its then branch: its condition, known or an
  /// initializer, must be one bool. Errors start with `where`.
  llvm::Expected<bool> takesThenBranch(const onnx::NodeProto &node,
                                       const KnownTensors &known,
                                       const std::string &where) const;
  llvm::Expected<RuntimeShapesModel *> branchModel(int node, bool thenBranch,
                                                   const KnownTensors &known);

  rt::Device &device_;
  const om::LoadedOm &outer_;
  const StagePlanner &planner_;
  std::map<std::pair<int, bool>, std::unique_ptr<RuntimeShapesModel>> models_;
};

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCONTROLFLOW_H
