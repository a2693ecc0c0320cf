/*===- CApiHeader.c - acl/acl.h compiles as C --------------------------===*
 * Host programs written for CANN are often C; the header must stay C. */
#include "acl/acl_rt.h"

int geflowCApiHeaderIsC(void) {
  geflowrtKernelDesc k = {0};
  aclrtMemcpyKind kind = ACL_MEMCPY_DEVICE_TO_DEVICE;
  aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  k.engine = GEFLOW_ENGINE_MIX;
  return (int)k.engine + (int)kind + (int)st;
}
