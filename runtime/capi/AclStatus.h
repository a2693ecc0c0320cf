//===- AclStatus.h - Status to aclError, and the recent error message -----===//
//
// The declarations moved to the public runtime/AclError.h, which the
// executor's aclmdl* layer shares; the C API's own files still include this.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_CAPI_ACLSTATUS_H
#define GEFLOW_RUNTIME_CAPI_ACLSTATUS_H

#include "runtime/AclError.h"

#endif // GEFLOW_RUNTIME_CAPI_ACLSTATUS_H
