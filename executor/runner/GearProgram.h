//===- GearProgram.h - One compiled program of a model, ready to run -*- C++
//-*-===//
//
// A model with gears (ATC's dynamic batch / image size / dims) holds one
// compiled program per gear; a static model is its own single program. A
// GearProgram is one of them prepared once at load: its kernels (constants
// read in place from the shared WEIGHTS), the kernel tasks with where each
// operand lives, and its inputs and outputs as the caller sees them. It holds
// no streams or events: those are the model's, shared by every gear (the
// compiler numbers them across gears), so running another gear creates,
// plans and allocates nothing beyond what one execution always does.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_GEARPROGRAM_H
#define GEFLOW_EXECUTOR_RUNNER_GEARPROGRAM_H

#include "executor/kernels/Kernel.h"
#include "executor/model/OmModel.h"
#include "runtime/Task.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace geflow::exec {

/// One graph input or output as the caller sees it.
struct TensorInfo {
  std::string name;
  om::DataType dtype = om::DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::string layout;
  uint64_t bytes = 0;
};

using KernelFactory = std::function<rt::Status(
    const kernels::KernelSpec &, std::unique_ptr<kernels::Kernel> *)>;

/// Where one kernel operand lives during an execution.
struct TensorBinding {
  enum Where : uint8_t { kAbsent, kWorkspace, kWeight } where = kAbsent;
  uint64_t offset = 0;
  const om::TensorDescriptor *desc = nullptr;
};

/// A KERNEL task of TASK_INFO, prepared.
struct KernelTask {
  const kernels::Kernel *kernel = nullptr; // null: not a KERNEL task
  rt::KernelLaunch launch;                 // everything but fn
  std::vector<TensorBinding> bindings;     // inputs, then outputs
  size_t numInputs = 0;
  size_t viewBase = 0; // first of this task's views in an execution
};

class GearProgram {
public:
  /// Prepares `om` (a static model, or one gear's view of a model with
  /// gears), which must outlive the program. Errors start with `modelName`.
  static rt::Status create(const om::LoadedOm &om, const KernelFactory &factory,
                           const std::string &modelName,
                           std::unique_ptr<GearProgram> *out);

  const om::ModelTaskDef &taskDef() const { return om_.taskDef(); }
  const std::vector<TensorInfo> &inputs() const { return inputs_; }
  const std::vector<TensorInfo> &outputs() const { return outputs_; }
  /// By task index; a non-kernel task's entry has no kernel.
  const std::vector<KernelTask> &kernelTasks() const { return kernelTasks_; }
  /// Operand views one execution binds, over every kernel task.
  size_t viewCount() const { return viewCount_; }
  uint64_t workspaceSize() const { return om_.memoryPlan().workspace_size(); }

private:
  explicit GearProgram(const om::LoadedOm &om) : om_(om) {}
  void describeInputsAndOutputs();
  rt::Status prepareKernels(const KernelFactory &factory,
                            const std::string &modelName);

  const om::LoadedOm &om_;
  std::vector<TensorInfo> inputs_, outputs_;
  std::vector<std::unique_ptr<kernels::Kernel>> kernels_; // by op index
  std::vector<KernelTask> kernelTasks_;                   // by task index
  size_t viewCount_ = 0;
};

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_GEARPROGRAM_H
