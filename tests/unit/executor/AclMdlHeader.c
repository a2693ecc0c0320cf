/* acl_mdl.h compiles as C, beside the runtime's headers. */
#include "acl/acl.h"
#include "acl/acl_mdl.h"

size_t geflowAclMdlHeaderCheck(uint32_t modelId);

size_t geflowAclMdlHeaderCheck(uint32_t modelId) {
  aclmdlDesc *desc = aclmdlCreateDesc();
  aclmdlIODims dims;
  size_t n = 0;
  aclmdlBatch batch;
  aclmdlHW hw;
  if (aclmdlGetDesc(desc, modelId) == ACL_SUCCESS &&
      aclmdlGetInputDims(desc, 0, &dims) == ACL_SUCCESS &&
      aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS &&
      aclmdlGetDynamicHW(desc, (size_t)-1, &hw) == ACL_SUCCESS)
    n = dims.dimCount + batch.batchCount + hw.hwCount;
  aclmdlDestroyDesc(desc);
  return n;
}
