//===- AclStatus.h - Status to aclError, and the recent error message -----===//
#ifndef GEFLOW_RUNTIME_CAPI_ACLSTATUS_H
#define GEFLOW_RUNTIME_CAPI_ACLSTATUS_H

#include "acl/acl_base.h"
#include "runtime/support/Status.h"

namespace geflow::rt::capi {

/// The aclError for `st`; remembers a failure's message for the calling
/// thread's aclGetRecentErrMsg().
aclError toAclError(const Status &st);
/// Fails with `code` and `message` (for checks the C layer does itself).
aclError failWith(aclError code, const std::string &message);

} // namespace geflow::rt::capi

#endif // GEFLOW_RUNTIME_CAPI_ACLSTATUS_H
