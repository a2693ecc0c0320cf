//===- AclState.h - Devices, contexts and what each context owns ----------===//
//
// The process-wide state behind the aclrt* C API. Devices are per process
// (up to kMaxDevices); each has a default context, made current by
// aclrtSetDevice, and any number of contexts made by aclrtCreateContext.
// A context owns the streams and events created and the memory aclrtMalloc'ed
// while it was current, so aclrtDestroyContext can end them. The current
// context is per thread; a thread that never chose one (a report thread)
// uses the default context of the device set last.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_CAPI_ACLSTATE_H
#define GEFLOW_RUNTIME_CAPI_ACLSTATE_H

#include "runtime/Device.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace geflow::rt::capi {

inline constexpr int32_t kMaxDevices = 8;

struct AclContext {
  int32_t deviceId = 0;
  Device *device = nullptr;
  bool isDefault = false;
};

struct DeviceSlot {
  int setCount = 0; // aclrtSetDevice calls not yet reset
  std::unique_ptr<Device> device;
  std::unique_ptr<AclContext> defaultContext;
  std::vector<std::unique_ptr<AclContext>> createdContexts;
};

/// What a context owns, and so ends with it.
enum class Owned { kStream, kEvent, kAllocation };
struct Owner {
  AclContext *context = nullptr;
  Owned kind = Owned::kAllocation;
};

struct AclState {
  std::mutex mu; // guards every field but generation
  bool initialized = false;
  std::map<int32_t, DeviceSlot> devices;
  // Streams, events and aclrtMalloc'ed memory, by handle.
  std::unordered_map<const void *, Owner> owners;
  std::string soc;
  AclContext *lastSet = nullptr; // default context of the device set last
  // Bumped (release) whenever a context or device goes away, so threads
  // check their cached context again (acquire) without taking `mu` on every
  // call.
  std::atomic<uint64_t> generation{1};
};

/// Never destroyed: a program that skips aclFinalize must still exit cleanly.
AclState &aclState();

/// The calling thread's current context, else the default context of the
/// device set last; null if no device is set.
AclContext *currentContext();
/// Makes `context` (live, or null) current on the calling thread.
void makeCurrent(AclContext *context);

/// Creates device `deviceId` and its default context if needed; `st.mu`
/// held. Returns the default context, or null with the failure in `*err`.
AclContext *setUpDeviceLocked(int32_t deviceId, aclError *err);

/// Records that the current context owns `handle`; forgets it again.
void adopt(const void *handle, Owned kind);
void disown(const void *handle);

/// Whether `handle` names a context of a device still set; `st.mu` held.
bool isLiveContextLocked(const void *handle);

} // namespace geflow::rt::capi

#endif // GEFLOW_RUNTIME_CAPI_ACLSTATE_H
