//===- ModelExecutor.h - Load an OM artifact and run it on a device -*- C++
//-*-===//
//
// LoadedModel is one OM file loaded onto one device: validated, every compiled
// program prepared once (GearProgram: kernels, constants read in place from
// the mapped WEIGHTS), the model's streams (with their priorities) and events
// created on the device. It may be executed any number of times, from any
// number of host threads at once.
//
// A model with gears (om.proto GearTable) has one program per gear; the
// streams and events are created once and shared, since the compiler numbers
// them across gears. One execution runs one gear, chosen by the caller (by
// index, or findGear on its inputs' shapes). A static model is gear 0.
//
// One execution: a workspace is taken from the runtime's stream-ordered
// allocator on the caller's stream (its caching pool: after the first
// execution no memory comes from the host); the model's streams wait for the
// caller's stream, run the tasks of TASK_INFO (KERNEL, EVENT_RECORD /
// EVENT_WAIT, MEMCPY_ASYNC for inputs in and results out) in TaskDef order, and
// the caller's stream waits for every model stream before the workspace goes
// back to the pool. An execution's operand views and kernel closures are built
// once and kept for the next execution of the same gear (ExecutionCache), so
// a steady-state execution builds nothing but its task list. Concurrent
// executions each get their own workspace; their tasks are enqueued one
// execution at a time (enqueueMu_), so every event wait binds to the record of
// its own execution.
//
// Executions that should run side by side rather than in turn (concurrent
// decode requests) each take a context: createContext() gives a LoadedModel
// sharing this one's weights and compiled programs (loaded once, read-only)
// with streams and events of its own, so the hardware scheduler interleaves
// the contexts' tasks. Each execution's workspace still comes from the
// stream-ordered pool on its caller's stream.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H
#define GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H

#include "executor/kernels/Kernel.h"
#include "executor/model/OmModel.h"
#include "executor/runner/DeviceTarget.h"
#include "executor/runner/GearProgram.h"
#include "executor/runner/GearSelection.h"
#include "runtime/Task.h" // rt::StreamId
#include "runtime/soc/CostModel.h"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace geflow::rt {
class Device;
}

namespace geflow::exec {

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

struct LoadOptions {
  /// Creates each compute op's kernel; empty = kernels::createKernel.
  KernelFactory kernelFactory;
  /// Test hook: the TASK_INFO tasks (by index in the running gear's task
  /// list) this returns true for are left out of every execution, to seed a
  /// broken task list (e.g. a dropped event wait for the stream sanitizer to
  /// catch).
  std::function<bool(int taskIndex)> skipTask;
  /// Memory the caller placed for the workspace (aclmdlLoadFromFileWithMem),
  /// at least workspaceSize() bytes, alive until the model is unloaded.
  /// Every execution then uses it, so executions run one after another;
  /// null = each execution takes its own from the stream-ordered pool.
  void *workspace = nullptr;
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
  /// Another execution context of this model: the same weights and compiled
  /// programs (shared, not copied: the context keeps them alive after this
  /// model is gone), its own streams, events and execution cache. Its
  /// executions run alongside this model's instead of after them. Its
  /// streams take `priority` (lower is served first) or, when negative,
  /// the compiled priorities.
  rt::Status createContext(int32_t priority,
                           std::unique_ptr<LoadedModel> *out) const;
  /// Waits for the model's streams, then releases them and their events.
  ~LoadedModel();
  LoadedModel(const LoadedModel &) = delete;
  LoadedModel &operator=(const LoadedModel &) = delete;

  /// ModelDef.name, or the file name when that is empty.
  const std::string &name() const { return name_; }
  /// Gear `gear`'s inputs and outputs (gear < gearCount()).
  const std::vector<TensorInfo> &inputs(size_t gear = 0) const {
    return gears_[gear]->inputs();
  }
  const std::vector<TensorInfo> &outputs(size_t gear = 0) const {
    return gears_[gear]->outputs();
  }
  const om::LoadedOm &om() const { return *om_; }
  /// The largest gear's workspace (the only one of a static model).
  uint64_t workspaceSize() const;

  /// Compiled programs: the gears of a model with gears, 1 for a static one.
  size_t gearCount() const { return gears_.size(); }
  /// Whether the model has a gear table (a static model has not).
  bool hasGears() const;
  /// GE's batch label of gear `gear` ("Batch_1"); "" for a static model.
  std::string gearLabel(size_t gear) const;
  /// The gear whose inputs have exactly these shapes (one per input, in
  /// inputs() order), or -1.
  int findGear(const Shapes &inputShapes) const;
  /// Every gear's input shapes, by gear: what GearSelection.h works on.
  std::vector<Shapes> gearInputShapes() const;
  std::vector<Shapes> gearOutputShapes() const;
  /// "Batch_0 [1,4], Batch_1 [2,4]": every gear with its input shapes, for
  /// errors that must list them.
  std::string describeGears() const;
  /// The runtime's id of each model stream, indexed by the OM's stream id, so
  /// a trace can be read in the model's numbering.
  std::vector<rt::StreamId> streamIds() const;

  /// Runs gear `gear` once and waits for it. `inputs` / `outputs` follow
  /// inputs(gear) / outputs(gear); each buffer holds at least the tensor's
  /// bytes.
  rt::Status execute(const std::vector<Buffer> &inputs,
                     const std::vector<Buffer> &outputs,
                     ExecutionStats *stats = nullptr, size_t gear = 0);
  /// Enqueues one execution of gear `gear` after the work already on
  /// `stream` (null = the default stream) and returns; the outputs are ready
  /// once `stream` is synchronized, which also reports a kernel failure of
  /// this execution.
  rt::Status executeAsync(const std::vector<Buffer> &inputs,
                          const std::vector<Buffer> &outputs,
                          rt::Stream *stream, size_t gear = 0);

  struct Execution; // one execution's buffers and closures (ModelExecution.cpp)
  struct ExecutionCache; // idle Executions, by gear (ModelExecution.cpp)

private:
  LoadedModel(); // ModelExecution.cpp: it knows the ExecutionCache
  rt::Status prepare(const LoadOptions &options);
  /// `priority` < 0: each stream's compiled priority. `label` names the
  /// streams for the sanitizer ("model stream 3", "model context 2 stream 3").
  rt::Status createStreamsAndEvents(int32_t priority, const std::string &label);
  /// An idle Execution of gear `gear` from the cache, or a new one.
  std::shared_ptr<Execution> takeExecution(size_t gear);
  rt::Status checkBuffers(const GearProgram &program,
                          const std::vector<Buffer> &inputs,
                          const std::vector<Buffer> &outputs) const;
  /// One execution to enqueue: what the caller passed, and how the
  /// execution joins the caller's stream.
  struct EnqueueRequest {
    size_t gear;
    const std::vector<Buffer> &inputs;
    const std::vector<Buffer> &outputs;
    rt::Stream *caller;
    /// An asynchronous execution: a kernel failure fails `caller`, and the
    /// execution goes back to the cache once `caller` reaches it. A
    /// synchronous one reads its error and hands it back itself.
    bool relayErrors = false;
    /// Recorded on `caller` before the model's streams start (may be null).
    rt::Event *t0 = nullptr;
    /// Replace endEvents_ as the events each model stream records when it
    /// is done (may be null).
    const std::vector<rt::Event *> *ends = nullptr;
  };
  /// Enqueues everything on the model's streams and on `request.caller`.
  rt::Status enqueue(const EnqueueRequest &request,
                     std::shared_ptr<Execution> *out);
  // enqueue's steps, in order.
  rt::Status checkGear(size_t gear) const;
  rt::Status allocateWorkspace(const GearProgram &program, rt::Stream *caller,
                               Execution &exec);
  void bindViews(const GearProgram &program, Execution &exec);
  rt::Status startModelStreams(const EnqueueRequest &request);
  rt::Status enqueueTasks(const GearProgram &program,
                          const EnqueueRequest &request, Execution &exec);
  /// `accesses` (null unless the sanitizer runs) receives the task's
  /// memory accesses.
  rt::Status launchKernelTask(rt::Stream *stream, const KernelTask &task,
                              int taskIndex, Execution &exec,
                              std::vector<rt::MemoryAccess> *accesses);
  rt::Status enqueueCopy(rt::Stream *stream, const om::TaskDef &task,
                         const EnqueueRequest &request, Execution &exec);
  rt::Status joinCallerStream(const EnqueueRequest &request);
  rt::Status finishOnCallerStream(const EnqueueRequest &request,
                                  const std::shared_ptr<Execution> &exec);

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
  // Immutable after load; shared by the contexts of one model.
  std::shared_ptr<const om::LoadedOm> om_;
  std::string name_;
  std::vector<std::shared_ptr<const GearProgram>> gears_; // by gear index
  // Contexts made so far from this model and its contexts, to number them.
  std::shared_ptr<std::atomic<int>> contextCount_;
  std::function<bool(int)> skipTask_; // LoadOptions::skipTask
  std::vector<rt::Stream *> streams_;
  std::vector<rt::Event *> events_;
  rt::Event *startEvent_ = nullptr;
  std::vector<rt::Event *> endEvents_; // one per model stream
  // LoadOptions::workspace, and, with it, each model stream's end of the
  // latest execution, which the next one waits for.
  uint8_t *placedWorkspace_ = nullptr;
  std::vector<rt::Event *> placedEnds_;
  bool placedEndsRecorded_ = false; // guarded by enqueueMu_

  // Held while one execution's tasks are enqueued; also guards the shared
  // events above, whose records only this lock's holder enqueues.
  std::mutex enqueueMu_;
  // Shared with the callbacks that hand an asynchronous execution back, which
  // may run after the model is gone.
  std::shared_ptr<ExecutionCache> executions_;
  std::mutex slotMu_; // guards freeSlots_, allSlots_
  std::vector<SyncSlot> freeSlots_, allSlots_;
};

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_MODELEXECUTOR_H
