//===- AclHandles.h - From aclrt* handles to the C++ runtime --------------===//
//
// For other C API layers built on the runtime (the executor's aclmdl*): the
// calling thread's current device and the mapping between opaque handles and
// runtime objects. A null aclrtStream is the device's default stream.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_CAPI_ACLHANDLES_H
#define GEFLOW_RUNTIME_CAPI_ACLHANDLES_H

#include "acl/acl_rt.h"
#include "runtime/Device.h"

namespace geflow::rt::capi {

/// The device set by aclrtSetDevice on this thread, else the device set last
/// on any thread; null if none.
Device *currentDevice();

inline Stream *toStream(aclrtStream s) { return static_cast<Stream *>(s); }
inline Event *toEvent(aclrtEvent e) { return static_cast<Event *>(e); }
inline aclrtStream toHandle(Stream *s) { return s; }
inline aclrtEvent toHandle(Event *e) { return e; }

} // namespace geflow::rt::capi

#endif // GEFLOW_RUNTIME_CAPI_ACLHANDLES_H
