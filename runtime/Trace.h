//===- Trace.h - What ran where and when, in virtual time -----------------===//
//
// With tracing on (GEFLOW_RUNTIME_TRACE=1 or Device::setTraceEnabled), the
// scheduler appends one TaskRecord per completed task. The profiler reads the
// records; exportChromeTrace writes them as Chrome/Perfetto trace JSON with
// one track per stream and one per core group.
//
// CANN's ACL_RUNTIME_TRACE=1 also turns tracing on, and prints each record
// to stderr as its task completes, one line per task (printAclTraceLine):
// any program on the runtime -- geflow run, a C host program, Python --
// shows what ran where and when without code of its own.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_TRACE_H
#define GEFLOW_RUNTIME_TRACE_H

#include "runtime/Task.h"

#include <string>
#include <vector>

namespace geflow::rt {

struct TaskRecord {
  std::string name;   // kernel name, or "" for other kinds
  std::string opType; // kernel op type, may be ""
  TaskKind kind = TaskKind::kKernel;
  Engine engine = Engine::kAic; // kernels only
  StreamId stream = 0;
  uint64_t seq = 0; // position in its stream
  uint32_t blockDim = 0;
  uint32_t coresGranted = 0;       // cores of the engine's main group
  uint32_t vectorCoresGranted = 0; // MIX: the vector cores taken along
  // Cores x time the kernel's waves held, for utilisation: later waves may
  // get fewer cores than the peak above.
  VirtualNs coreTimeNs = 0;       // of the engine's main group
  VirtualNs vectorCoreTimeNs = 0; // MIX: of the vector cores taken along
  uint32_t eventId = UINT32_MAX;  // record / wait
  uint64_t eventSeq = 0;          // which record
  uint64_t bytes = 0;             // memcpy
  MemcpyKind copyKind = MemcpyKind::kHostToDevice;
  bool failed = false;
  VirtualNs submitNs = 0; // device time the host had observed at enqueue
  VirtualNs readyNs = 0;  // became the stream's head with its submit passed
  VirtualNs startNs = 0;  // dispatched
  VirtualNs endNs = 0;
  /// Thread CPU ns the host spent computing the kernel's result, summed
  /// over the threads that ran its blocks (not virtual time: where host
  /// latency goes, per op).
  uint64_t hostNs = 0;
  /// Host wall ns from the kernel's first block's start to its last
  /// block's end: its part of host latency, which hostNs overstates when
  /// several threads run its blocks.
  uint64_t hostWallNs = 0;

  /// Time at the head of the stream before dispatch: waits for events and
  /// for cores (msprof's "Task Wait Time").
  VirtualNs waitNs() const { return startNs - readyNs; }
};

/// Chrome trace JSON ("traceEvents") for `records`. Streams are pid 1, one
/// thread per stream; each core group is a process (pid 10 + group) with one
/// lane thread per concurrent task and a counter of busy cores.
std::string chromeTraceJson(const std::vector<TaskRecord> &records);

/// Writes chromeTraceJson to `path` through a uniquely named temporary beside
/// it (runtime/support/TempFile.h), removed again on any failure.
Status writeChromeTrace(const std::vector<TaskRecord> &records,
                        const std::string &path);

/// Whether ACL_RUNTIME_TRACE is set to anything but "" or "0" (read once).
bool aclRuntimeTraceEnabled();

/// The ACL_RUNTIME_TRACE line of `record`, without the newline:
/// "[ACL_RUNTIME_TRACE] stream 1 task 4 KERNEL conv1 submit 0.000 start
/// 1.250 end 9.500 wait 1.250 (us)", times in virtual microseconds, wait
/// being the time at the head of the stream (events, cores) before start.
std::string aclTraceLine(const TaskRecord &record);

/// Writes aclTraceLine(record) to stderr in one write.
void printAclTraceLine(const TaskRecord &record);

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_TRACE_H
