//===- AclErrors.cpp - ACL error integers and their names -----------------===//
#include "acl/acl_rt.h"
#include "runtime/AclError.h"

#include <string>

namespace geflow::rt::capi {
namespace {

// Per thread, as AscendCL keeps it.
thread_local std::string recentErrMsg;

aclError codeFor(StatusCode c) {
  switch (c) {
  case StatusCode::kOk:
    return ACL_SUCCESS;
  case StatusCode::kInvalidArgument:
    return ACL_ERROR_INVALID_PARAM;
  case StatusCode::kNotFound:
    return ACL_ERROR_INVALID_FILE;
  case StatusCode::kInvalidSpec:
    return ACL_ERROR_PARSE_FILE;
  case StatusCode::kOutOfMemory:
    return ACL_ERROR_RT_MEMORY_ALLOCATION;
  case StatusCode::kKernelFailed:
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  case StatusCode::kDeadlock:
    return GEFLOW_ERROR_RT_DEADLOCK;
  case StatusCode::kNotReady:
    return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
  case StatusCode::kTimeout:
    return ACL_ERROR_RT_REPORT_TIMEOUT;
  case StatusCode::kFailedPrecondition:
    return ACL_ERROR_FAILURE;
  case StatusCode::kDataRace:
    return ACL_ERROR_FAILURE;
  case StatusCode::kInternal:
    return ACL_ERROR_RT_INTERNAL_ERROR;
  }
  return ACL_ERROR_FAILURE;
}

} // namespace

aclError toAclError(const Status &st) {
  if (st.isOk())
    return ACL_SUCCESS;
  recentErrMsg = st.message();
  return codeFor(st.code());
}

aclError failWith(aclError code, const std::string &message) {
  recentErrMsg = message;
  return code;
}

} // namespace geflow::rt::capi

extern "C" const char *aclGetRecentErrMsg(void) {
  return geflow::rt::capi::recentErrMsg.c_str();
}

extern "C" const char *geflowrtGetErrorName(aclError error) {
  switch (error) {
#define GEFLOW_NAME(x)                                                         \
  case x:                                                                      \
    return #x;
    GEFLOW_NAME(ACL_SUCCESS)
    GEFLOW_NAME(ACL_ERROR_INVALID_PARAM)
    GEFLOW_NAME(ACL_ERROR_UNINITIALIZE)
    GEFLOW_NAME(ACL_ERROR_REPEAT_INITIALIZE)
    GEFLOW_NAME(ACL_ERROR_INVALID_FILE)
    GEFLOW_NAME(ACL_ERROR_PARSE_FILE)
    GEFLOW_NAME(ACL_ERROR_BAD_ALLOC)
    GEFLOW_NAME(ACL_ERROR_API_NOT_SUPPORT)
    GEFLOW_NAME(ACL_ERROR_WRITE_FILE)
    GEFLOW_NAME(ACL_ERROR_INVALID_FILE_SIZE)
    GEFLOW_NAME(ACL_ERROR_INVALID_MODEL_ID)
    GEFLOW_NAME(ACL_ERROR_DESERIALIZE_MODEL)
    GEFLOW_NAME(ACL_ERROR_PARSE_MODEL)
    GEFLOW_NAME(ACL_ERROR_READ_MODEL_FAILURE)
    GEFLOW_NAME(ACL_ERROR_MODEL_SIZE_INVALID)
    GEFLOW_NAME(ACL_ERROR_MODEL_INPUT_NOT_MATCH)
    GEFLOW_NAME(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH)
    GEFLOW_NAME(ACL_ERROR_MODEL_NOT_DYNAMIC)
    GEFLOW_NAME(ACL_ERROR_INVALID_DEVICE)
    GEFLOW_NAME(ACL_ERROR_INVALID_RESOURCE_HANDLE)
    GEFLOW_NAME(ACL_ERROR_FEATURE_UNSUPPORTED)
    GEFLOW_NAME(ACL_ERROR_STORAGE_OVER_LIMIT)
    GEFLOW_NAME(ACL_ERROR_INTERNAL_ERROR)
    GEFLOW_NAME(ACL_ERROR_FAILURE)
    GEFLOW_NAME(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
    GEFLOW_NAME(ACL_ERROR_RT_PARAM_INVALID)
    GEFLOW_NAME(ACL_ERROR_RT_INVALID_DEVICEID)
    GEFLOW_NAME(ACL_ERROR_RT_CONTEXT_NULL)
    GEFLOW_NAME(ACL_ERROR_RT_STREAM_NO_CB_REG)
    GEFLOW_NAME(ACL_ERROR_RT_MEMORY_ALLOCATION)
    GEFLOW_NAME(ACL_ERROR_RT_INTERNAL_ERROR)
    GEFLOW_NAME(ACL_ERROR_RT_EVENT_NOT_COMPLETE)
    GEFLOW_NAME(ACL_ERROR_RT_REPORT_TIMEOUT)
    GEFLOW_NAME(ACL_ERROR_RT_AICORE_EXCEPTION)
    GEFLOW_NAME(GEFLOW_ERROR_RT_DEADLOCK)
#undef GEFLOW_NAME
  }
  return "UNKNOWN";
}

extern "C" size_t aclDataTypeSize(aclDataType dataType) {
  switch (dataType) {
  case ACL_BOOL:
  case ACL_INT8:
  case ACL_UINT8:
    return 1;
  case ACL_FLOAT16:
  case ACL_BF16:
  case ACL_INT16:
  case ACL_UINT16:
    return 2;
  case ACL_FLOAT:
  case ACL_INT32:
  case ACL_UINT32:
    return 4;
  case ACL_INT64:
  case ACL_UINT64:
  case ACL_DOUBLE:
  case ACL_COMPLEX64:
    return 8;
  case ACL_COMPLEX128:
    return 16;
  case ACL_DT_UNDEFINED:
  case ACL_STRING:
    break;
  }
  return 0;
}
