//===- ModelExecutor.h - Load an OM artifact and run it on a device -*- C++
//-*-===//
//
// LoadedModel is one OM file loaded onto one device: validated, kernels created
// once (constants read in place from the mapped WEIGHTS), the model's streams
// (with their priorities) and events created on the device. It may be
// executed any number of times, from any number of host threads at once.
//
// One execution: a workspace is taken from the runtime's stream-ordered
// allocator on the caller's stream; the model's streams wait for the caller's
// stream, run the tasks of TASK_INFO (KERNEL, EVENT_RECORD / EVENT_WAIT,
// MEMCPY_ASYNC for inputs in and results out) in TaskDef order, and the
// caller's stream waits for every model stream before the workspace goes back
// to the pool. Concurrent executions each get their own workspace; their
// tasks are enqueued one execution at a time (enqueueMu_), so every event
// wait binds to the record of its own execution.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H
#define GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H

#include "executor/kernels/Kernel.h"
#include "executor/model/OmModel.h"
#include "executor/runner/DeviceTarget.h"
#include "runtime/Task.h" // rt::StreamId
#include "runtime/soc/CostModel.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace geflow::rt {
class Device;
}

namespace geflow::exec {

/// One graph input or output as the caller sees it.
struct TensorInfo {
  std::string name;
  om::DataType dtype = om::DT_UNDEFINED;
  std::vector<int64_t> shape;
  std::string layout;
  uint64_t bytes = 0;
};

/// A caller's buffer (device memory; in the simulation, any host memory).
struct Buffer {
  void *data = nullptr;
  size_t size = 0;
};

struct ExecutionStats {
  /// Simulated device time of the execution: from the caller's stream
  /// reaching it to the last model stream finishing, in virtual ns.
  rt::VirtualNs deviceTimeNs = 0;
};

using KernelFactory = std::function<rt::Status(
    const kernels::KernelSpec &, std::unique_ptr<kernels::Kernel> *)>;

struct LoadOptions {
  /// Creates each compute op's kernel; empty = kernels::createKernel.
  KernelFactory kernelFactory;
  /// Test hook: the TASK_INFO tasks (by index) this returns true for are
  /// left out of every execution, to seed a broken task list (e.g. a dropped
  /// event wait for the stream sanitizer to catch).
  std::function<bool(int taskIndex)> skipTask;
};

class LoadedModel {
public:
  /// Loads and validates `path` (see OmModel.h) and prepares it on `device`,
  /// which must outlive the model.
  static rt::Status load(rt::Device &device, const std::string &path,
                         std::unique_ptr<LoadedModel> *out,
                         const LoadOptions &options = {});
  /// Prepares an already loaded artifact on `target`.
  static rt::Status create(std::shared_ptr<DeviceTarget> target,
                           std::unique_ptr<om::LoadedOm> om,
                           const std::string &sourceName,
                           std::unique_ptr<LoadedModel> *out,
                           const LoadOptions &options = {});
  /// Waits for the model's streams, then releases them and their events.
  ~LoadedModel();
  LoadedModel(const LoadedModel &) = delete;
  LoadedModel &operator=(const LoadedModel &) = delete;

  /// ModelDef.name, or the file name when that is empty.
  const std::string &name() const { return name_; }
  const std::vector<TensorInfo> &inputs() const { return inputs_; }
  const std::vector<TensorInfo> &outputs() const { return outputs_; }
  const om::LoadedOm &om() const { return *om_; }
  uint64_t workspaceSize() const;
  /// The runtime's id of each model stream, indexed by the OM's stream id, so
  /// a trace can be read in the model's numbering.
  std::vector<rt::StreamId> streamIds() const;

  /// Runs once and waits for it. `inputs` / `outputs` follow inputs() /
  /// outputs(); each buffer holds at least the tensor's bytes.
  rt::Status execute(const std::vector<Buffer> &inputs,
                     const std::vector<Buffer> &outputs,
                     ExecutionStats *stats = nullptr);
  /// Enqueues one execution after the work already on `stream` (null = the
  /// default stream) and returns; the outputs are ready once `stream` is
  /// synchronized, which also reports a kernel failure of this execution.
  rt::Status executeAsync(const std::vector<Buffer> &inputs,
                          const std::vector<Buffer> &outputs,
                          rt::Stream *stream);

  struct Execution; // one execution's buffers and closures (ModelExecutor.cpp)
  struct KernelTask;

private:
  LoadedModel() = default;
  rt::Status prepare(const LoadOptions &options);
  // prepare's phases. Op indices by name; the loader has checked every name.
  using OpIndexByName = std::map<std::string, int>;
  void describeInputsAndOutputs(OpIndexByName &byName);
  rt::Status prepareKernels(const LoadOptions &options, OpIndexByName &byName);
  rt::Status createStreamsAndEvents();
  rt::Status checkBuffers(const std::vector<Buffer> &inputs,
                          const std::vector<Buffer> &outputs) const;
  /// Enqueues everything on the model's streams and on `caller`. `t0` (may
  /// be null) is recorded on `caller` before the model's streams start;
  /// `ends` (may be null) replace endEvents_ as the events each model stream
  /// records when it is done.
  rt::Status enqueue(const std::vector<Buffer> &inputs,
                     const std::vector<Buffer> &outputs, rt::Stream *caller,
                     bool relayErrors, rt::Event *t0,
                     const std::vector<rt::Event *> *ends,
                     std::shared_ptr<Execution> *out);

  /// What a synchronous execution borrows: a stream, and its own start and
  /// per-stream end events, so its device time is read from its own records
  /// (first task start to last stream end) whatever other threads enqueue.
  struct SyncSlot {
    rt::Stream *stream = nullptr;
    rt::Event *t0 = nullptr;
    std::vector<rt::Event *> ends; // one per model stream
  };
  rt::Status acquireSlot(SyncSlot *out);
  void releaseSlot(const SyncSlot &slot);

  std::shared_ptr<DeviceTarget> target_;
  std::unique_ptr<om::LoadedOm> om_;
  std::string name_;
  std::vector<TensorInfo> inputs_, outputs_;
  // Immutable after load.
  std::vector<std::unique_ptr<kernels::Kernel>> kernels_; // by op index
  std::vector<KernelTask> kernelTasks_;                   // by task index
  std::function<bool(int)> skipTask_; // LoadOptions::skipTask
  size_t viewCount_ = 0;
  std::vector<rt::Stream *> streams_;
  std::vector<rt::Event *> events_;
  rt::Event *startEvent_ = nullptr;
  std::vector<rt::Event *> endEvents_; // one per model stream

  // Held while one execution's tasks are enqueued; also guards the shared
  // events above, whose records only this lock's holder enqueues.
  std::mutex enqueueMu_;
  std::mutex slotMu_; // guards freeSlots_, allSlots_
  std::vector<SyncSlot> freeSlots_, allSlots_;
};

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H
