//===- RuntimeShapesModel.h - running a RUNTIME_SHAPES OM --------*- C++
//-*-===//
//
// GE's dynamic-shape executor, on geflow's pieces. Per execution the input
// shapes (and the values of inputs that feed shape operands) are known; the
// ONNX graph of ModelDef.source_model is cut into stages
// (RuntimeShapesStages.h), each compiled by the static pipeline
// (multi-stream plan, events, memory plan) and run as an exec::LoadedModel.
// A stage's output that a later stage reads as a shape operand is bound into
// that stage as a constant; a data-dependent op runs between stages on the
// host kernel of executor/kernels/data_dependent/DataDependent.h into an
// upper-bound buffer and reports its real shape. Compiled stages are cached by
// (stage, input shapes, bound values), so executions with shapes seen before
// compile nothing.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESMODEL_H
#define GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESMODEL_H

#include "tools/driver/RuntimeShapesStages.h"

#include "executor/runner/ModelExecutor.h"
#include "passes/Pipeline.h"

#include <chrono>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace geflow::driver {

/// Host work of one execution, for the profile's own track.
struct HostSpan {
  std::string name; // "plan", "compile stage 1", "NonZero 'nz'", ...
  std::chrono::steady_clock::time_point start, end;
};

struct RuntimeShapesStats {
  int stagesRun = 0;
  int stagesCompiled = 0; // cache misses
  int cacheHits = 0;
  int dataDependentOps = 0;
  /// Host time planning, inferring and compiling (not running kernels).
  double hostShapeMs = 0;
  /// Simulated device time of the stages, summed.
  rt::VirtualNs deviceTimeNs = 0;
  std::vector<HostSpan> hostSpans;
};

struct RuntimeShapesOptions {
  /// Compiled stages kept, least recently used dropped first.
  size_t cacheCapacity = 64;
};

class IfBranches;

class RuntimeShapesModel {
public:
  /// `om` must be a RUNTIME_SHAPES model (hasRuntimeShapes); `device` must
  /// outlive the model.
  static llvm::Expected<std::unique_ptr<RuntimeShapesModel>>
  create(rt::Device &device, std::unique_ptr<om::LoadedOm> om,
         const RuntimeShapesOptions &options = {});

  ~RuntimeShapesModel();
  RuntimeShapesModel(const RuntimeShapesModel &) = delete;
  RuntimeShapesModel &operator=(const RuntimeShapesModel &) = delete;

  /// The graph inputs and outputs as declared: -1 for a dim known only at
  /// run time, {-2} for an unknown rank; bytes 0.
  const std::vector<exec::TensorInfo> &inputs() const { return inputs_; }
  const std::vector<exec::TensorInfo> &outputs() const { return outputs_; }
  const std::string &socName() const { return om_->socName(); }
  const std::string &name() const { return om_->modelDef().name(); }

  /// Runs once with `inputs` (in inputs() order, any shape the model
  /// takes) and sets `outputs` to the results in their real shapes. An
  /// input of a shape or type the model cannot take is a one-line error.
  llvm::Error execute(const std::vector<cli::HostTensor> &inputs,
                      std::vector<cli::HostTensor> *outputs,
                      RuntimeShapesStats *stats = nullptr);

  size_t cachedStages() const { return cache_.size(); }
  /// The runtime's ids of the last execution's streams: each stage's, then
  /// the data-dependent ops' (for a profile, in this order).
  std::vector<rt::StreamId> streamIds() const;

private:
  struct CompiledStage {
    StagePlan plan;
    std::unique_ptr<exec::LoadedModel> model; // none: nothing to compute
  };

  RuntimeShapesModel(rt::Device &device, std::unique_ptr<om::LoadedOm> om,
                     const RuntimeShapesOptions &options);
  llvm::Error checkInputs(const std::vector<cli::HostTensor> &inputs) const;
  llvm::Expected<std::shared_ptr<CompiledStage>>
  stageFor(const StagePlan &widest, const std::vector<bool> &done,
           const KnownTensors &known, RuntimeShapesStats &stats);
  llvm::Expected<std::unique_ptr<CompiledStage>>
  compileStage(StagePlan plan, const std::vector<bool> &done,
               const KnownTensors &known);
  llvm::Error runStage(const CompiledStage &stage, KnownTensors &known,
                       RuntimeShapesStats &stats);
  llvm::Error runDataDependent(int node, KnownTensors &known,
                               RuntimeShapesStats &stats);
  bool outputsKnown(const KnownTensors &known) const;

  rt::Device &device_;
  rt::Stream *stream_ = nullptr; // the data-dependent ops', made at first use
  std::unique_ptr<om::LoadedOm> om_;
  RuntimeShapesOptions options_;
  onnx::ModelProto source_;
  std::unique_ptr<StagePlanner> planner_;
  std::unique_ptr<IfBranches> ifs_; // ONNX If nodes' taken branches
  passes::CompileOptions compileOptions_;
  uint64_t maxDataDependentBytes_ = 0; // 0: the kernel's own bound
  std::vector<exec::TensorInfo> inputs_, outputs_;
  /// The stages the last execution ran, kept for its profile even when the
  /// cache has dropped them since.
  std::vector<std::shared_ptr<CompiledStage>> lastStages_;

  std::mutex mu_; // one execution at a time: the cache and lastStages_
  using CacheList =
      std::list<std::pair<std::string, std::shared_ptr<CompiledStage>>>;
  CacheList lru_; // most recently used first
  std::unordered_map<std::string, CacheList::iterator> cache_;
  int compiledCount_ = 0;
};

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESMODEL_H
