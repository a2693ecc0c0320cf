//===- AclRt.cpp - aclrt* over geflow::rt::Device -------------------------===//
//
// A thin layer: check handles, translate enums, call the Device, turn the
// Status into an aclError. Devices are per process, the current one per
// thread (aclrtSetDevice); a thread that never set one (a report thread)
// uses the device set last.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_rt.h"
#include "runtime/AclError.h"
#include "runtime/Device.h"
#include "runtime/capi/AclHandles.h"

#include <pthread.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>

using geflow::rt::Device;
using geflow::rt::Event;
using geflow::rt::Stream;
using geflow::rt::capi::failWith;
using geflow::rt::capi::toAclError;
namespace rt = geflow::rt;

namespace {

constexpr int32_t kMaxDevices = 8;

struct AclState {
  std::mutex mu; // guards every field but generation
  bool initialized = false;
  std::map<int32_t, std::unique_ptr<Device>> devices;
  std::string soc;
  Device *lastSet = nullptr;
  // Bumped (release) whenever a device goes away, so threads drop cached
  // pointers (acquire) without taking `mu` on every call.
  std::atomic<uint64_t> generation{1};
};

// Never destroyed: a program that skips aclFinalize must still exit cleanly.
AclState &state() {
  static AclState *s = new AclState;
  return *s;
}

struct CurrentDevice {
  Device *device = nullptr;
  int32_t id = -1;
  uint64_t generation = 0;
};
thread_local CurrentDevice tlsCurrent;

} // namespace

Device *geflow::rt::capi::currentDevice() {
  AclState &st = state();
  uint64_t gen = st.generation.load(std::memory_order_acquire);
  if (tlsCurrent.device && tlsCurrent.generation == gen)
    return tlsCurrent.device;
  std::lock_guard<std::mutex> lock(st.mu);
  Device *d = nullptr;
  auto it = st.devices.find(tlsCurrent.id);
  if (it != st.devices.end())
    d = it->second.get();
  else
    d = st.lastSet;
  if (d) {
    tlsCurrent.device = d;
    tlsCurrent.generation = gen;
  }
  return d;
}

namespace {

Device *current() { return geflow::rt::capi::currentDevice(); }

#define GEFLOW_DEVICE_OR_FAIL(dev)                                             \
  Device *dev = current();                                                     \
  if (!dev)                                                                    \
    return failWith(ACL_ERROR_RT_CONTEXT_NULL,                                 \
                    "no device is set: call aclrtSetDevice first");

using geflow::rt::capi::toEvent;
using geflow::rt::capi::toStream;
Stream *asStream(aclrtStream s) { return toStream(s); }
Event *asEvent(aclrtEvent e) { return toEvent(e); }

rt::MemcpyKind toKind(aclrtMemcpyKind k) {
  switch (k) {
  case ACL_MEMCPY_HOST_TO_HOST:
    return rt::MemcpyKind::kHostToHost;
  case ACL_MEMCPY_HOST_TO_DEVICE:
    return rt::MemcpyKind::kHostToDevice;
  case ACL_MEMCPY_DEVICE_TO_HOST:
    return rt::MemcpyKind::kDeviceToHost;
  case ACL_MEMCPY_DEVICE_TO_DEVICE:
    return rt::MemcpyKind::kDeviceToDevice;
  }
  return rt::MemcpyKind::kHostToHost;
}

bool validKind(aclrtMemcpyKind k) {
  return k >= ACL_MEMCPY_HOST_TO_HOST && k <= ACL_MEMCPY_DEVICE_TO_DEVICE;
}

} // namespace

extern "C" {

aclError aclInit(const char *configPath) {
  AclState &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.initialized)
    return failWith(ACL_ERROR_REPEAT_INITIALIZE,
                    "aclInit: already initialized");
  if (configPath && *configPath && !std::ifstream(configPath))
    return failWith(ACL_ERROR_INVALID_FILE,
                    std::string("aclInit: cannot read config '") + configPath +
                        "'");
  st.initialized = true;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  AclState &st = state();
  std::map<int32_t, std::unique_ptr<Device>> doomed;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!st.initialized)
      return failWith(ACL_ERROR_UNINITIALIZE,
                      "aclFinalize: aclInit not called");
    st.initialized = false;
    doomed.swap(st.devices);
    st.lastSet = nullptr;
    st.generation.fetch_add(1, std::memory_order_release);
  }
  tlsCurrent = CurrentDevice();
  return ACL_SUCCESS; // devices drain and die here, outside the lock
}

aclError aclrtSetDevice(int32_t deviceId) {
  AclState &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  if (!st.initialized)
    return failWith(ACL_ERROR_UNINITIALIZE,
                    "aclrtSetDevice: call aclInit first");
  if (deviceId < 0 || deviceId >= kMaxDevices)
    return failWith(ACL_ERROR_RT_INVALID_DEVICEID,
                    "aclrtSetDevice: device id " + std::to_string(deviceId) +
                        " is outside [0, " + std::to_string(kMaxDevices) + ")");
  std::unique_ptr<Device> &slot = st.devices[deviceId];
  if (!slot) {
    rt::DeviceOptions opts;
    const char *env = std::getenv("GEFLOW_SOC");
    if (!st.soc.empty())
      opts.soc = st.soc;
    else if (env && *env)
      opts.soc = env;
    rt::Status s = Device::create(opts, &slot);
    if (!s.isOk()) {
      st.devices.erase(deviceId);
      return toAclError(s);
    }
  }
  st.lastSet = slot.get();
  tlsCurrent.device = slot.get();
  tlsCurrent.id = deviceId;
  tlsCurrent.generation = st.generation.load(std::memory_order_relaxed);
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  AclState &st = state();
  std::unique_ptr<Device> doomed;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto it = st.devices.find(deviceId);
    if (it == st.devices.end())
      return failWith(ACL_ERROR_RT_INVALID_DEVICEID,
                      "aclrtResetDevice: device " + std::to_string(deviceId) +
                          " is not set");
    doomed = std::move(it->second);
    st.devices.erase(it);
    if (st.lastSet == doomed.get())
      st.lastSet =
          st.devices.empty() ? nullptr : st.devices.begin()->second.get();
    st.generation.fetch_add(1, std::memory_order_release);
  }
  if (tlsCurrent.device == doomed.get())
    tlsCurrent = CurrentDevice();
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t *deviceId) {
  if (!deviceId)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: null");
  GEFLOW_DEVICE_OR_FAIL(dev);
  (void)dev;
  *deviceId = tlsCurrent.id < 0 ? 0 : tlsCurrent.id;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->synchronizeDevice());
}

const char *aclrtGetSocName(void) {
  Device *dev = current();
  return dev ? dev->spec().socVersion.c_str() : nullptr;
}

aclError aclrtCreateStream(aclrtStream *stream) {
  return aclrtCreateStreamWithConfig(stream, 0, 0);
}

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority,
                                     uint32_t flag) {
  (void)flag;
  if (!stream)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: null stream");
  if (priority > GEFLOWRT_STREAM_PRIORITY_LOWEST)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    "aclrtCreateStreamWithConfig: priority " +
                        std::to_string(priority) + " out of range [0, " +
                        std::to_string(GEFLOWRT_STREAM_PRIORITY_LOWEST) + "]");
  GEFLOW_DEVICE_OR_FAIL(dev);
  Stream *s = nullptr;
  aclError err =
      toAclError(dev->createStream(static_cast<int32_t>(priority), &s));
  *stream = s;
  return err;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (!stream)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: null stream");
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->destroyStream(asStream(stream)));
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->synchronizeStream(asStream(stream)));
}

aclError aclrtCreateEvent(aclrtEvent *event) {
  if (!event)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent: null event");
  GEFLOW_DEVICE_OR_FAIL(dev);
  Event *e = nullptr;
  aclError err = toAclError(dev->createEvent(&e));
  *event = e;
  return err;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->destroyEvent(asEvent(event)));
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->recordEvent(asEvent(event), asStream(stream)));
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->streamWaitEvent(asStream(stream), asEvent(event)));
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->synchronizeEvent(asEvent(event)));
}

aclError aclrtQueryEventStatus(aclrtEvent event,
                               aclrtEventRecordedStatus *status) {
  if (!status)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    "aclrtQueryEventStatus: null status");
  GEFLOW_DEVICE_OR_FAIL(dev);
  bool complete = false;
  aclError err = toAclError(dev->queryEvent(asEvent(event), &complete));
  *status = complete ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                     : ACL_EVENT_RECORDED_STATUS_NOT_READY;
  return err;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent,
                               aclrtEvent endEvent) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(
      dev->eventElapsedMs(asEvent(startEvent), asEvent(endEvent), ms));
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  (void)policy; // one kind of memory in the simulator
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->malloc(size, devPtr));
}

aclError aclrtFree(void *devPtr) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->free(devPtr));
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->mallocHost(size, hostPtr));
}

aclError aclrtFreeHost(void *hostPtr) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->freeHost(hostPtr));
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind) {
  if (!validKind(kind))
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: invalid kind");
  GEFLOW_DEVICE_OR_FAIL(dev);
  // Synchronous: a copy on the default stream, waited for.
  aclError err = toAclError(
      dev->memcpyAsync(nullptr, dst, destMax, src, count, toKind(kind)));
  if (err != ACL_SUCCESS)
    return err;
  return toAclError(dev->synchronizeStream(nullptr));
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
                          size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
  if (!validKind(kind))
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: invalid kind");
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->memcpyAsync(asStream(stream), dst, destMax, src, count,
                                     toKind(kind)));
}

aclError aclrtMallocFromStream(void **devPtr, size_t size, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->mallocAsync(size, asStream(stream), devPtr));
}

aclError aclrtFreeToStream(void *devPtr, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->freeAsync(devPtr, asStream(stream)));
}

aclError aclrtLaunchCallback(aclrtCallback fn, void *userData,
                             aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  (void)blockType; // both kinds hold the stream in the simulator
  if (!fn)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: null fn");
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(
      dev->launchCallback(asStream(stream), [fn, userData] { fn(userData); }));
}

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->subscribeReport(threadId, asStream(stream)));
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->unsubscribeReport(threadId, asStream(stream)));
}

aclError aclrtProcessReport(int32_t timeout) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  rt::Status st =
      dev->processReport(static_cast<uint64_t>(pthread_self()), timeout);
  if (st.code() == rt::StatusCode::kFailedPrecondition)
    return failWith(ACL_ERROR_RT_STREAM_NO_CB_REG, st.message());
  return toAclError(st);
}

aclError geflowrtLaunchKernel(const geflowrtKernelDesc *desc,
                              aclrtStream stream) {
  if (!desc)
    return failWith(ACL_ERROR_INVALID_PARAM, "geflowrtLaunchKernel: null desc");
  if (desc->engine < GEFLOW_ENGINE_AIC || desc->engine > GEFLOW_ENGINE_DVPP)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    "geflowrtLaunchKernel: invalid engine");
  GEFLOW_DEVICE_OR_FAIL(dev);
  rt::KernelLaunch k;
  if (desc->name)
    k.name = desc->name;
  if (desc->opType)
    k.opType = desc->opType;
  k.engine = static_cast<rt::Engine>(desc->engine);
  k.blockDim = desc->blockDim;
  k.aicoreNum = desc->aicoreNum;
  k.vectorcoreNum = desc->vectorcoreNum;
  k.cost = {desc->flops, desc->bytes};
  if (desc->accesses && dev->sanitizer())
    for (uint32_t i = 0; i < desc->numAccesses; ++i)
      k.accesses.push_back(
          {desc->accesses[i].ptr, desc->accesses[i].bytes,
           static_cast<rt::AccessMode>(desc->accesses[i].mode)});
  if (desc->func) {
    geflowrtKernelFunc func = desc->func;
    void *user = desc->userData;
    k.fn = [func, user](uint32_t idx, uint32_t dim) -> rt::Status {
      int32_t rc = func(idx, dim, user);
      if (rc == 0)
        return rt::Status::ok();
      return rt::makeStatus(rt::StatusCode::kKernelFailed,
                            "returned " + std::to_string(rc));
    };
  }
  return toAclError(dev->launchKernel(asStream(stream), std::move(k)));
}

aclError geflowrtSetSoc(const char *nameOrPath) {
  if (!nameOrPath || !*nameOrPath)
    return failWith(ACL_ERROR_INVALID_PARAM, "geflowrtSetSoc: empty name");
  rt::SocSpec spec; // fail now, not at the next aclrtSetDevice
  rt::Status s = rt::loadSocSpec(nameOrPath, spec);
  if (!s.isOk())
    return toAclError(s);
  AclState &st = state();
  std::lock_guard<std::mutex> lock(st.mu);
  st.soc = nameOrPath;
  return ACL_SUCCESS;
}

aclError geflowrtSetMemoryLimit(size_t bytes) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  dev->memoryPool().setLimit(bytes);
  return ACL_SUCCESS;
}

aclError geflowrtEnableTrace(int enable) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  dev->setTraceEnabled(enable != 0);
  return ACL_SUCCESS;
}

aclError geflowrtExportTrace(const char *path) {
  if (!path)
    return failWith(ACL_ERROR_INVALID_PARAM, "geflowrtExportTrace: null path");
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->exportTrace(path));
}

aclError geflowrtGetDeviceTimeUs(double *us) {
  if (!us)
    return failWith(ACL_ERROR_INVALID_PARAM, "geflowrtGetDeviceTimeUs: null");
  GEFLOW_DEVICE_OR_FAIL(dev);
  *us = static_cast<double>(dev->now()) / 1000.0;
  return ACL_SUCCESS;
}

aclError geflowrtGetMemoryStats(geflowrtMemoryStats *stats) {
  if (!stats)
    return failWith(ACL_ERROR_INVALID_PARAM, "geflowrtGetMemoryStats: null");
  GEFLOW_DEVICE_OR_FAIL(dev);
  rt::PoolStats p = dev->memoryStats();
  stats->inUseBytes = p.inUseBytes;
  stats->reservedBytes = p.reservedBytes;
  stats->peakInUseBytes = p.peakInUseBytes;
  stats->cachedBytes = p.reservedBytes - p.inUseBytes;
  stats->largestFreeBlock = p.largestFreeBlock;
  stats->numSegments = p.numSegments;
  stats->numAllocs = p.numAllocs;
  stats->numCacheHits = p.numCacheHits;
  stats->fragmentation = p.fragmentation;
  return ACL_SUCCESS;
}

} // extern "C"
