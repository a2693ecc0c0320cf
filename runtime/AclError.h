//===- AclError.h - Status to aclError for the C APIs -----------*- C++ -*-===//
//
// The aclmdl* API (executor/runner/capi) answers in the runtime's aclError
// codes, and aclGetRecentErrMsg() must explain its failures as it does the
// runtime's own, so it reports through the runtime's functions.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_ACLERROR_H
#define GEFLOW_RUNTIME_ACLERROR_H

#include "acl/acl_base.h"
#include "runtime/support/Status.h"

#include <string>

namespace geflow::rt::capi {

/// The aclError for `st`; remembers a failure's message for the calling
/// thread's aclGetRecentErrMsg().
aclError toAclError(const Status &st);
/// Fails with `code` and `message` (for checks the C layer does itself).
aclError failWith(aclError code, const std::string &message);

} // namespace geflow::rt::capi

#endif // GEFLOW_RUNTIME_ACLERROR_H
