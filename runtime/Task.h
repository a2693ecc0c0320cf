//===- Task.h - What a stream carries
//--------------------------------------===//
//
// A task is one entry of a stream's FIFO: a kernel, a copy, a host callback, an
// event record or an event wait. The host builds it at enqueue time; from then
// on only the scheduler touches it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_TASK_H
#define GEFLOW_RUNTIME_TASK_H

#include "runtime/soc/CostModel.h"
#include "runtime/support/Status.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace geflow::rt {

class Event;

/// A stream's index on its device; the memory pool and the sanitizer key
/// their per-stream state on it.
using StreamId = uint32_t;
/// No stream: a synchronous allocation or free, not ordered on any stream.
inline constexpr StreamId kNoStream = UINT32_MAX;

enum class TaskKind : uint8_t {
  kKernel = 0,
  kMemcpy,
  kCallback,
  kEventRecord,
  kEventWait,
};
const char *taskKindName(TaskKind k); // "KERNEL", "MEMCPY", ...

/// The real work of a kernel, called once per block. Blocks of one kernel may
/// run concurrently on several worker threads.
using KernelFn = std::function<Status(uint32_t blockIdx, uint32_t blockDim)>;
/// A host callback (aclrtLaunchCallback).
using HostFn = std::function<void()>;

/// How a task touches a byte range of device memory, for the stream
/// sanitizer (sanitizer/StreamSanitizer.h).
enum class AccessMode : uint8_t { kRead = 1, kWrite = 2, kReadWrite = 3 };

/// A byte range a task reads or writes.
struct MemoryAccess {
  const void *ptr = nullptr;
  uint64_t bytes = 0;
  AccessMode mode = AccessMode::kRead;
};

/// Everything the executor says about one kernel launch.
struct KernelLaunch {
  std::string name;   // op name, for traces and error messages
  std::string opType; // op type ("Conv2D"), for profiles; may be empty
  Engine engine = Engine::kAic;
  uint32_t blockDim = 1;
  KernelCost cost;
  /// Per-task core limits, GE's _op_aicore_num / _op_vectorcore_num: the most
  /// cube (AIC, MIX) and vector (AIV, MIX) cores this kernel may hold at once;
  /// 0 = no limit. AICPU and DVPP kernels have no limit.
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  KernelFn fn; // may be empty: a cost-only kernel
  /// The memory the kernel reads and writes. Only the stream sanitizer looks
  /// at it; a kernel that declares nothing is not checked.
  std::vector<MemoryAccess> accesses;
};

struct Task {
  TaskKind kind = TaskKind::kKernel;
  Engine engine = Engine::kAic;
  MemcpyKind copyKind = MemcpyKind::kHostToDevice;
  uint32_t blockDim = 1;
  uint32_t aicoreNum = 0;
  uint32_t vectorcoreNum = 0;
  uint64_t seq = 0;       // 1-based position in its stream
  VirtualNs submitNs = 0; // device time the host last observed
  KernelCost cost;
  KernelFn fn;
  HostFn callback;
  /// A callback's stream waits for it to return (ACL_CALLBACK_BLOCK, and
  /// aclrtLaunchHostFunc); a non-blocking one on a report thread does not.
  bool callbackBlocks = true;
  /// Runs on the thread subscribed to the stream (aclrtLaunchCallback); a
  /// host function (aclrtLaunchHostFunc) always runs on the runtime's own
  /// threads, so work like a model's never depends on a report thread.
  bool callbackOnReportThread = true;
  // Memcpy; with a null src, a fill of `bytes` bytes of `fillByte`
  // (aclrtMemsetAsync).
  void *dst = nullptr;
  const void *src = nullptr;
  uint64_t bytes = 0;
  uint8_t fillByte = 0;
  // Event record: the record's number; event wait: the record it waits for.
  Event *event = nullptr;
  uint64_t eventSeq = 0;
  std::string name;
  std::string opType;
};

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_TASK_H
