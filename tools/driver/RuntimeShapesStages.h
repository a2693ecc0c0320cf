//===- RuntimeShapesStages.h - cutting a graph into static stages -*- C++
//-*-===//
//
// One execution of a RUNTIME_SHAPES model walks its ONNX graph in stages. A
// stage is every node not yet run whose inputs are known (graph inputs,
// initializers, earlier stages' outputs) and whose output shapes libonnx
// infers statically from the known shapes and the values bound as constants:
// the known tensors whose values reach a shape operand. Data-dependent ops
// are never part of a stage; they run between stages.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESSTAGES_H
#define GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESSTAGES_H

#include "tools/geflow/TensorFiles.h"

#include "onnx/onnx_pb.h"

#include "llvm/Support/Error.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace geflow::driver {

using KnownTensors = std::map<std::string, cli::HostTensor>;

/// A stage's ONNX form before compilation.
struct StagePlan {
  std::vector<int> nodes;           // source node indices, in graph order
  std::vector<std::string> inputs;  // run-time inputs, in first-use order
  std::vector<std::string> bound;   // known tensors bound as constants
  std::vector<std::string> outputs; // what later nodes or the graph read
  /// What inputs and bound are split from: every known tensor the nodes
  /// read, in first-use order, and whether its value reaches a shape
  /// operand (bound unless too large).
  std::vector<std::string> consumed;
  std::vector<bool> reachesShape;
  /// The same for the same nodes, whatever the shapes: part of cache keys.
  int id = -1;
};

/// The source graph and what an execution has run and knows.
class StagePlanner {
public:
  explicit StagePlanner(const onnx::ModelProto &source);

  const onnx::ModelProto &source() const { return source_; }
  /// Index of the node producing `tensor`, or -1.
  int producerOf(const std::string &tensor) const;
  bool isInitializer(const std::string &name) const {
    return initializers_.count(name) != 0;
  }
  const onnx::TensorProto &initializer(const std::string &name) const {
    return *initializers_.at(name);
  }

  /// The widest stage: every node not `done`, not data-dependent, whose
  /// inputs are known or produced by the stage. Empty when none is.
  StagePlan widestStage(const std::vector<bool> &done,
                        const KnownTensors &known) const;
  /// The stage of `nodes` (a subset of a stage closed under producers).
  StagePlan restrict(const std::vector<int> &nodes,
                     const std::vector<bool> &done,
                     const KnownTensors &known) const;

  /// The stage as a model: its nodes, the source's initializers they read,
  /// the bound tensors as initializers, inputs of the known shapes.
  onnx::ModelProto buildModel(const StagePlan &plan,
                              const KnownTensors &known) const;
  /// The cache key of `plan`: its nodes, its inputs' types and shapes, the
  /// bound values.
  std::string cacheKey(const StagePlan &plan, const KnownTensors &known) const;

  /// The nodes of `plan` whose output shapes libonnx infers statically (and
  /// whose inputs come from such nodes or are known), in order.
  llvm::Expected<std::vector<int>>
  inferableNodes(const StagePlan &plan, const KnownTensors &known) const;

private:
  StagePlan widestStageOf(const std::vector<bool> &done,
                          const KnownTensors &known) const;
  void completeStage(StagePlan &plan, const std::vector<bool> &done,
                     const KnownTensors &known) const;
  /// plan.inputs and plan.bound from plan.consumed for `known`'s sizes.
  static void splitBound(StagePlan &plan, const KnownTensors &known);

  /// widestStage's plans by what decides them (the nodes run, the names
  /// known), so that an execution like an earlier one plans in O(nodes)
  /// string compares. Callers serialize executions (RuntimeShapesModel).
  mutable std::map<std::string, StagePlan> widest_;

  const onnx::ModelProto &source_;
  std::map<std::string, const onnx::TensorProto *> initializers_;
  std::map<std::string, int> producers_;
  std::set<std::string> graphOutputs_;
};

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESSTAGES_H
