/*===- acl_mdl.h - AscendCL model API on geflow's simulated NPU -----------===*
 *
 * The aclmdl* subset geflow implements, with AscendCL's names and signatures:
 * load an OM file onto the current device (aclrtSetDevice), describe its
 * inputs and outputs, and execute it synchronously or on a caller's stream.
 *
 *   uint32_t id;  aclmdlLoadFromFile("model.om", &id);
 *   aclmdlDesc *desc = aclmdlCreateDesc();  aclmdlGetDesc(desc, id);
 *   size_t bytes = aclmdlGetInputSizeByIndex(desc, 0);
 *   aclmdlDataset *in = aclmdlCreateDataset();
 *   aclmdlAddDatasetBuffer(in, aclCreateDataBuffer(devPtr, bytes));
 *   ...
 *   aclmdlExecute(id, in, out);            (or aclmdlExecuteAsync + sync)
 *
 * Buffers are device memory (aclrtMalloc); in the simulation any host memory
 * works. A dataset does not own its buffers, as in AscendCL. Unload models
 * before aclrtResetDevice / aclFinalize.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_ACL_MDL_H
#define GEFLOW_ACL_MDL_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef GEFLOW_ACL_DATA_TYPE_DEFINED
#define GEFLOW_ACL_DATA_TYPE_DEFINED
/* AscendCL's aclDataType numbering. */
typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_BF16 = 27,
} aclDataType;
#endif

#define ACL_MAX_DIM_CNT 128
#define ACL_MAX_TENSOR_NAME_LEN 128

typedef struct aclmdlDataset aclmdlDataset;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclmdlDesc aclmdlDesc;

typedef struct aclmdlIODims {
  char name[ACL_MAX_TENSOR_NAME_LEN];
  size_t dimCount;
  int64_t dims[ACL_MAX_DIM_CNT];
} aclmdlIODims;

/* --- load and execute ----------------------------------------------------- */
/* Validates the file (one-line reason in aclGetRecentErrMsg on failure) and
 * prepares it on the current device. */
aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
/* Waits for the model's streams, then releases it. */
aclError aclmdlUnload(uint32_t modelId);
aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
                       aclmdlDataset *output);
/* Runs after the work already on `stream`; outputs are ready once `stream` is
 * synchronized, which also reports a kernel failure of this execution. */
aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
                            aclmdlDataset *output, aclrtStream stream);

/* --- description ---------------------------------------------------------- */
aclmdlDesc *aclmdlCreateDesc(void);
aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc);
aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId);
size_t aclmdlGetNumInputs(aclmdlDesc *modelDesc);
size_t aclmdlGetNumOutputs(aclmdlDesc *modelDesc);
/* 0 for an index out of range. */
size_t aclmdlGetInputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *modelDesc, size_t index);
/* "" for an index out of range. */
const char *aclmdlGetInputNameByIndex(const aclmdlDesc *modelDesc,
                                      size_t index);
const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *modelDesc,
                                       size_t index);
aclError aclmdlGetInputIndexByName(const aclmdlDesc *modelDesc,
                                   const char *name, size_t *index);
aclError aclmdlGetOutputIndexByName(const aclmdlDesc *modelDesc,
                                    const char *name, size_t *index);
aclError aclmdlGetInputDims(const aclmdlDesc *modelDesc, size_t index,
                            aclmdlIODims *dims);
aclError aclmdlGetOutputDims(const aclmdlDesc *modelDesc, size_t index,
                             aclmdlIODims *dims);
/* ACL_DT_UNDEFINED for an index out of range. */
aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);

/* --- datasets and data buffers -------------------------------------------- */
aclmdlDataset *aclmdlCreateDataset(void);
/* Does not destroy the buffers it holds. */
aclError aclmdlDestroyDataset(const aclmdlDataset *dataset);
aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                aclDataBuffer *dataBuffer);
size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset);
/* NULL for an index out of range. */
aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset,
                                      size_t index);
aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);
size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

#ifdef __cplusplus
}
#endif

#endif /* GEFLOW_ACL_MDL_H */
