//===- AclRt.cpp - aclrt* over geflow::rt::Device -------------------------===//
//
// A thin layer: check handles, translate enums, call the Device, turn the
// Status into an aclError. Devices and contexts: capi/AclState.h.
//
//===----------------------------------------------------------------------===//
#include "acl/acl_rt.h"
#include "runtime/AclError.h"
#include "runtime/Device.h"
#include "runtime/capi/AclHandles.h"
#include "runtime/capi/AclState.h"

#include <nlohmann/json.hpp>
#include <pthread.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

using geflow::rt::Device;
using geflow::rt::Event;
using geflow::rt::Stream;
using geflow::rt::capi::AclContext;
using geflow::rt::capi::AclState;
using geflow::rt::capi::aclState;
using geflow::rt::capi::adopt;
using geflow::rt::capi::disown;
using geflow::rt::capi::failWith;
using geflow::rt::capi::kMaxDevices;
using geflow::rt::capi::toAclError;
namespace rt = geflow::rt;

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

/// The integer a C caller passed for an enum parameter. C may pass any
/// value; reading one outside the enum's range as the enum is undefined in
/// C++, so its bytes are read instead.
template <typename Enum> int32_t rawValue(const Enum &e) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "a C enum is an int");
  int32_t raw;
  std::memcpy(&raw, &e, sizeof raw);
  return raw;
}

bool validKind(const aclrtMemcpyKind &k) {
  int32_t raw = rawValue(k);
  return raw >= ACL_MEMCPY_HOST_TO_HOST && raw <= ACL_MEMCPY_DEVICE_TO_DEVICE;
}

/// CANN's acl.json: a JSON object whose keys configure dump, profiling and
/// error reporting. geflow has none of those switches, so every key is
/// ignored; a file that is not a JSON object is an error naming where.
aclError readAclConfig(const char *path) {
  std::ifstream in(path);
  if (!in)
    return failWith(ACL_ERROR_INVALID_FILE,
                    std::string("aclInit: cannot read config '") + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  if (text.str().find_first_not_of(" \t\r\n") == std::string::npos)
    return ACL_SUCCESS; // an empty file configures nothing
  nlohmann::json config;
  try {
    config = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error &e) {
    return failWith(ACL_ERROR_PARSE_FILE, std::string("aclInit: config '") +
                                              path + "': malformed JSON (" +
                                              e.what() + ")");
  }
  if (!config.is_object())
    return failWith(ACL_ERROR_PARSE_FILE,
                    std::string("aclInit: config '") + path +
                        "': expected a JSON object, found " +
                        config.type_name());
  return ACL_SUCCESS;
}

/// Ends device `deviceId` once its aclrtSetDevice count has dropped to 0,
/// or at once when `force`.
aclError resetDevice(int32_t deviceId, bool force, const char *fn) {
  AclState &st = aclState();
  geflow::rt::capi::DeviceSlot doomed;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    auto it = st.devices.find(deviceId);
    if (it == st.devices.end())
      return failWith(ACL_ERROR_RT_INVALID_DEVICEID,
                      std::string(fn) + ": device " + std::to_string(deviceId) +
                          " is not set");
    if (!force && --it->second.setCount > 0)
      return ACL_SUCCESS;
    doomed = std::move(it->second);
    st.devices.erase(it);
    for (auto o = st.owners.begin(); o != st.owners.end();)
      o = o->second.context->device == doomed.device.get() ? st.owners.erase(o)
                                                           : std::next(o);
    if (st.lastSet && st.lastSet->device == doomed.device.get())
      st.lastSet = st.devices.empty()
                       ? nullptr
                       : st.devices.begin()->second.defaultContext.get();
    st.generation.fetch_add(1, std::memory_order_release);
  }
  return ACL_SUCCESS; // the device drains and dies here, outside the lock
}

} // namespace

extern "C" {

aclError aclInit(const char *configPath) {
  AclState &st = aclState();
  std::lock_guard<std::mutex> lock(st.mu);
  if (st.initialized)
    return failWith(ACL_ERROR_REPEAT_INITIALIZE,
                    "aclInit: already initialized");
  if (configPath && *configPath) {
    aclError err = readAclConfig(configPath);
    if (err != ACL_SUCCESS)
      return err;
  }
  st.initialized = true;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  AclState &st = aclState();
  std::map<int32_t, geflow::rt::capi::DeviceSlot> doomed;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!st.initialized)
      return failWith(ACL_ERROR_UNINITIALIZE,
                      "aclFinalize: aclInit not called");
    st.initialized = false;
    doomed.swap(st.devices);
    st.owners.clear();
    st.lastSet = nullptr;
    st.generation.fetch_add(1, std::memory_order_release);
  }
  geflow::rt::capi::makeCurrent(nullptr);
  return ACL_SUCCESS; // devices drain and die here, outside the lock
}

aclError aclrtSetDevice(int32_t deviceId) {
  AclState &st = aclState();
  AclContext *def = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    aclError err = ACL_SUCCESS;
    def = geflow::rt::capi::setUpDeviceLocked(deviceId, &err);
    if (!def)
      return failWith(err,
                      std::string("aclrtSetDevice: ") + aclGetRecentErrMsg());
    ++st.devices[deviceId].setCount;
    st.lastSet = def;
  }
  geflow::rt::capi::makeCurrent(def);
  return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
  return resetDevice(deviceId, /*force=*/false, "aclrtResetDevice");
}

aclError aclrtResetDeviceForce(int32_t deviceId) {
  return resetDevice(deviceId, /*force=*/true, "aclrtResetDeviceForce");
}

aclError aclrtGetDevice(int32_t *deviceId) {
  if (!deviceId)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: null");
  AclContext *c = geflow::rt::capi::currentContext();
  if (!c)
    return failWith(ACL_ERROR_RT_CONTEXT_NULL,
                    "no device is set: call aclrtSetDevice first");
  *deviceId = c->deviceId;
  return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  if (!count)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: null");
  *count = kMaxDevices;
  return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  if (!runMode)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetRunMode: null");
  *runMode = ACL_HOST;
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
  if (err == ACL_SUCCESS)
    adopt(s, geflow::rt::capi::Owned::kStream);
  return err;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  if (!stream)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: null stream");
  GEFLOW_DEVICE_OR_FAIL(dev);
  disown(stream);
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
  if (err == ACL_SUCCESS)
    adopt(e, geflow::rt::capi::Owned::kEvent);
  return err;
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  disown(event);
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
  aclError err = toAclError(dev->malloc(size, devPtr));
  if (err == ACL_SUCCESS)
    adopt(*devPtr, geflow::rt::capi::Owned::kAllocation);
  return err;
}

aclError aclrtFree(void *devPtr) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  disown(devPtr);
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
  return toAclError(dev->memcpySync(dst, destMax, src, count, toKind(kind)));
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

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value,
                     size_t count) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(dev->memsetSync(devPtr, maxCount, value, count));
}

aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value,
                          size_t count, aclrtStream stream) {
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(
      dev->memsetAsync(asStream(stream), devPtr, maxCount, value, count));
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total) {
  if (!free || !total)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: null");
  if (rawValue(attr) < ACL_DDR_MEM || rawValue(attr) > ACL_HBM_MEM_P2P_NORMAL)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetMemInfo: invalid attr");
  GEFLOW_DEVICE_OR_FAIL(dev);
  uint64_t limit = dev->memoryStats().limitBytes;
  if (limit == 0)
    limit = uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGESIZE));
  uint64_t used = dev->memoryStats().inUseBytes;
  *total = static_cast<size_t>(limit);
  *free = static_cast<size_t>(used < limit ? limit - used : 0);
  return ACL_SUCCESS;
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
  if (!fn)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtLaunchCallback: null fn");
  int32_t block = rawValue(blockType);
  if (block != ACL_CALLBACK_NO_BLOCK && block != ACL_CALLBACK_BLOCK)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    "aclrtLaunchCallback: invalid block type " +
                        std::to_string(block));
  GEFLOW_DEVICE_OR_FAIL(dev);
  if (!dev->hasReportThread(asStream(stream)))
    return failWith(ACL_ERROR_RT_STREAM_NO_CB_REG,
                    "aclrtLaunchCallback: no thread is subscribed to the "
                    "stream (aclrtSubscribeReport); aclrtLaunchHostFunc "
                    "needs none");
  return toAclError(dev->launchCallback(
      asStream(stream), [fn, userData] { fn(userData); },
      block == ACL_CALLBACK_BLOCK));
}

aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) {
  if (!fn)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtLaunchHostFunc: null fn");
  GEFLOW_DEVICE_OR_FAIL(dev);
  return toAclError(
      dev->launchHostFunc(asStream(stream), [fn, args] { fn(args); }));
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
  if (timeout == 0 || timeout < -1)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    "aclrtProcessReport: timeout " + std::to_string(timeout) +
                        " ms: expected > 0, or -1 to wait for ever");
  GEFLOW_DEVICE_OR_FAIL(dev);
  rt::Status st =
      dev->processReport(static_cast<uint64_t>(pthread_self()), timeout);
  if (st.code() == rt::StatusCode::kFailedPrecondition)
    return failWith(ACL_ERROR_RT_THREAD_SUBSCRIBE, st.message());
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
  AclState &st = aclState();
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
