//===- AclContexts.cpp - aclrt* contexts and what they own ----------------===//
#include "acl/acl_rt.h"
#include "runtime/AclError.h"
#include "runtime/capi/AclHandles.h"
#include "runtime/capi/AclState.h"

#include <cstdlib>

namespace geflow::rt::capi {
namespace {

struct CurrentContext {
  AclContext *context = nullptr;
  uint64_t generation = 0;
};
thread_local CurrentContext tlsCurrent;

} // namespace

AclState &aclState() {
  static AclState *s = new AclState;
  return *s;
}

AclContext *currentContext() {
  AclState &st = aclState();
  uint64_t gen = st.generation.load(std::memory_order_acquire);
  if (tlsCurrent.context && tlsCurrent.generation == gen)
    return tlsCurrent.context;
  std::lock_guard<std::mutex> lock(st.mu);
  AclContext *c = tlsCurrent.context;
  if (!c || !isLiveContextLocked(c)) {
    tlsCurrent.context = nullptr;
    return st.lastSet; // a thread that never chose one
  }
  tlsCurrent.generation = gen;
  return c;
}

void makeCurrent(AclContext *context) {
  tlsCurrent.context = context;
  tlsCurrent.generation = aclState().generation.load(std::memory_order_acquire);
}

Device *currentDevice() {
  AclContext *c = currentContext();
  return c ? c->device : nullptr;
}

AclContext *setUpDeviceLocked(int32_t deviceId, aclError *err) {
  AclState &st = aclState();
  if (!st.initialized) {
    *err = failWith(ACL_ERROR_UNINITIALIZE, "call aclInit first");
    return nullptr;
  }
  if (deviceId < 0 || deviceId >= kMaxDevices) {
    *err = failWith(ACL_ERROR_RT_INVALID_DEVICEID,
                    "device id " + std::to_string(deviceId) +
                        " is outside [0, " + std::to_string(kMaxDevices) + ")");
    return nullptr;
  }
  DeviceSlot &slot = st.devices[deviceId];
  if (!slot.device) {
    DeviceOptions opts;
    const char *env = std::getenv("GEFLOW_SOC");
    if (!st.soc.empty())
      opts.soc = st.soc;
    else if (env && *env)
      opts.soc = env;
    Status s = Device::create(opts, &slot.device);
    if (!s.isOk()) {
      st.devices.erase(deviceId);
      *err = toAclError(s);
      return nullptr;
    }
    slot.defaultContext = std::make_unique<AclContext>();
    slot.defaultContext->deviceId = deviceId;
    slot.defaultContext->device = slot.device.get();
    slot.defaultContext->isDefault = true;
  }
  return slot.defaultContext.get();
}

void adopt(const void *handle, Owned kind) {
  AclContext *c = currentContext();
  if (!c || !handle)
    return;
  AclState &st = aclState();
  std::lock_guard<std::mutex> lock(st.mu);
  st.owners[handle] = Owner{c, kind};
}

void disown(const void *handle) {
  AclState &st = aclState();
  std::lock_guard<std::mutex> lock(st.mu);
  st.owners.erase(handle);
}

bool isLiveContextLocked(const void *handle) {
  for (const auto &[id, slot] : aclState().devices) {
    if (slot.defaultContext.get() == handle)
      return true;
    for (const auto &c : slot.createdContexts)
      if (c.get() == handle)
        return true;
  }
  return false;
}

} // namespace geflow::rt::capi

using namespace geflow::rt::capi;
using geflow::rt::Device;
using geflow::rt::Event;
using geflow::rt::Status;
using geflow::rt::Stream;

namespace {

/// What a context owns, taken out of the owners map.
struct Belongings {
  std::vector<Stream *> streams;
  std::vector<Event *> events;
  std::vector<void *> allocations;
};

/// Takes everything `c` owns out of the owners map; `st.mu` held.
Belongings takeBelongingsLocked(AclState &st, const AclContext *c) {
  Belongings b;
  for (auto it = st.owners.begin(); it != st.owners.end();) {
    if (it->second.context != c) {
      ++it;
      continue;
    }
    void *p = const_cast<void *>(it->first);
    switch (it->second.kind) {
    case Owned::kStream:
      b.streams.push_back(static_cast<Stream *>(p));
      break;
    case Owned::kEvent:
      b.events.push_back(static_cast<Event *>(p));
      break;
    case Owned::kAllocation:
      b.allocations.push_back(p);
      break;
    }
    it = st.owners.erase(it);
  }
  return b;
}

} // namespace

extern "C" {

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  if (!context)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtCreateContext: null");
  AclState &st = aclState();
  AclContext *made = nullptr;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    aclError err = ACL_SUCCESS;
    AclContext *def = setUpDeviceLocked(deviceId, &err);
    if (!def)
      return failWith(err, std::string("aclrtCreateContext: ") +
                               aclGetRecentErrMsg());
    auto c = std::make_unique<AclContext>();
    c->deviceId = deviceId;
    c->device = def->device;
    made = c.get();
    st.devices[deviceId].createdContexts.push_back(std::move(c));
    if (!st.lastSet)
      st.lastSet = def;
  }
  makeCurrent(made);
  *context = made;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  AclState &st = aclState();
  std::unique_ptr<AclContext> doomed;
  Belongings owned;
  {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!context || !isLiveContextLocked(context))
      return failWith(ACL_ERROR_INVALID_RESOURCE_HANDLE,
                      "aclrtDestroyContext: not a live context");
    auto *c = static_cast<AclContext *>(context);
    if (c->isDefault)
      return failWith(ACL_ERROR_INVALID_PARAM,
                      "aclrtDestroyContext: the default context of device " +
                          std::to_string(c->deviceId) +
                          " ends with aclrtResetDevice");
    auto &list = st.devices[c->deviceId].createdContexts;
    for (auto it = list.begin(); it != list.end(); ++it)
      if (it->get() == c) {
        doomed = std::move(*it);
        list.erase(it);
        break;
      }
    owned = takeBelongingsLocked(st, c);
    st.generation.fetch_add(1, std::memory_order_release);
  }
  // Streams first: destroying one waits for its work, which may still use
  // the context's memory.
  Device *dev = doomed->device;
  Status first;
  for (Stream *s : owned.streams) {
    Status r = dev->destroyStream(s);
    if (first.isOk())
      first = r;
  }
  for (Event *e : owned.events)
    (void)dev->destroyEvent(e);
  for (void *p : owned.allocations)
    (void)dev->free(p);
  return toAclError(first);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  AclState &st = aclState();
  {
    std::lock_guard<std::mutex> lock(st.mu);
    if (!context || !isLiveContextLocked(context))
      return failWith(ACL_ERROR_INVALID_RESOURCE_HANDLE,
                      "aclrtSetCurrentContext: not a live context");
  }
  makeCurrent(static_cast<AclContext *>(context));
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  if (!context)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: null");
  AclContext *c = currentContext();
  if (!c)
    return failWith(ACL_ERROR_RT_CONTEXT_NULL,
                    "aclrtGetCurrentContext: no context is current: call "
                    "aclrtSetDevice or aclrtCreateContext first");
  *context = c;
  return ACL_SUCCESS;
}

} // extern "C"
