//===- DeviceTarget.h - What the model executor needs of a device -*- C++
//-*-===//
//
// The executor drives a device through this small face so that one executor
// serves both the C++ API (an rt::Device the caller owns) and aclmdl* (the
// device the aclrt* C API has made current, reached only through aclrt*).
// Streams and events are the runtime's own objects either way.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_DEVICETARGET_H
#define GEFLOW_EXECUTOR_RUNNER_DEVICETARGET_H

#include "runtime/Task.h"
#include "runtime/support/Status.h"

#include <memory>

namespace geflow::rt {
class Device;
class Event;
class Stream;
} // namespace geflow::rt

namespace geflow::exec {

class DeviceTarget {
public:
  virtual ~DeviceTarget();
  virtual rt::Status createStream(int32_t priority, rt::Stream **out) = 0;
  virtual rt::Status destroyStream(rt::Stream *stream) = 0;
  virtual rt::Status createEvent(rt::Event **out) = 0;
  virtual rt::Status destroyEvent(rt::Event *event) = 0;
  /// `launch.fn` is ignored; `fn` (which must outlive the task) runs instead.
  /// `accesses` (may be null) replace `launch.accesses`, so a launch shared
  /// by every execution is not copied to declare one execution's memory.
  virtual rt::Status
  launchKernel(rt::Stream *stream, const rt::KernelLaunch &launch,
               const rt::KernelFn *fn,
               const std::vector<rt::MemoryAccess> *accesses) = 0;
  /// Device to device.
  virtual rt::Status memcpyAsync(rt::Stream *stream, void *dst, size_t dstMax,
                                 const void *src, size_t count) = 0;
  /// A host function holding `stream` until it returns, run by the runtime's
  /// own threads (never a report thread the program subscribed).
  virtual rt::Status launchHostFunc(rt::Stream *stream, rt::HostFn fn) = 0;
  virtual rt::Status recordEvent(rt::Event *event, rt::Stream *stream) = 0;
  virtual rt::Status streamWaitEvent(rt::Stream *stream, rt::Event *event) = 0;
  virtual rt::Status synchronizeStream(rt::Stream *stream) = 0;
  virtual rt::Status mallocAsync(size_t size, rt::Stream *stream,
                                 void **out) = 0;
  virtual rt::Status freeAsync(void *ptr, rt::Stream *stream) = 0;
  virtual rt::Status eventElapsedMs(rt::Event *start, rt::Event *end,
                                    float *ms) = 0;
  /// Whether the device has AICPU cores (a spec may have none).
  virtual bool hasAiCpu() const { return true; }
  /// Whether the device's stream sanitizer is on, so kernel launches should
  /// declare their memory accesses.
  virtual bool sanitizing() const { return false; }
  /// How the sanitizer's findings call `stream`.
  virtual void nameStream(rt::Stream *stream, const std::string &name) {}
};

/// A target over `device`, which must outlive it.
std::shared_ptr<DeviceTarget> makeDeviceTarget(rt::Device &device);

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_DEVICETARGET_H
