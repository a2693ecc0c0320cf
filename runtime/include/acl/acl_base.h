/*===- acl_base.h - AscendCL base types and error codes (geflow subset) ---===*
 *
 * Names, values and signatures follow AscendCL so host code written for CANN
 * compiles against geflow's simulated runtime. Codes geflow adds are named
 * GEFLOW_ERROR_*.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_ACL_BASE_H
#define GEFLOW_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;

#define ACL_SUCCESS 0

/* Common errors. */
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_PARSE_FILE 100006
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_API_NOT_SUPPORT 200001
#define ACL_ERROR_FAILURE 500000

/* Runtime errors. */
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_NO_CB_REG 107015
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_INTERNAL_ERROR 507000
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE 507006
#define ACL_ERROR_RT_REPORT_TIMEOUT 507012
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015
/* geflow: a wait that can never be satisfied; the message names the streams
 * and events (aclGetRecentErrMsg). */
#define GEFLOW_ERROR_RT_DEADLOCK 507900

/* The message of the calling thread's latest failed call, or "". */
const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* GEFLOW_ACL_BASE_H */
