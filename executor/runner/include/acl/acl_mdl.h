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

/* --- gears (ATC's --dynamic-batch-size / -image-size / -dims) -------------
 * A model with gears has one more input after its own, named
 * ACL_DYNAMIC_TENSOR_NAME: an int64 buffer the caller allocates
 * (aclmdlGetInputSizeByIndex), adds to the input dataset last, and fills with
 * aclmdlSetDynamicBatchSize / aclmdlSetDynamicHWSize /
 * aclmdlSetInputDynamicDims; the execution runs the gear it names. The other
 * inputs' dims are as compiled (-1 where a gear fills in); input and output
 * sizes and output dims are the largest gear's, so buffers of those sizes
 * serve every gear; aclmdlGetCurOutputDims gives the outputs' dims of the gear
 * last set. */
#define ACL_MAX_BATCH_NUM 128
#define ACL_MAX_HW_NUM 128
#define ACL_DYNAMIC_TENSOR_NAME "ascend_mbatch_shape_data"

typedef struct aclmdlBatch {
  size_t batchCount;
  uint64_t batch[ACL_MAX_BATCH_NUM];
} aclmdlBatch;

typedef struct aclmdlHW {
  size_t hwCount;
  uint64_t hw[ACL_MAX_HW_NUM][2];
} aclmdlHW;

/* --- load and execute ----------------------------------------------------- */
/* Validates the file (one-line reason in aclGetRecentErrMsg on failure) and
 * prepares it on the current device. */
aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId);
aclError aclmdlLoadFromMem(const void *model, size_t modelSize,
                           uint32_t *modelId);
/* The model's workspace and weights in memory the caller placed
 * (aclrtMalloc), of at least the sizes aclmdlQuerySize gives; a null pointer
 * leaves that part to geflow, and a smaller size is ACL_ERROR_INVALID_PARAM
 * with a one-line message. The weights are copied in at load; every
 * execution uses the one workspace, so executions of such a model run one
 * after another. The memory must stay allocated until aclmdlUnload. */
aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId,
                                   void *workPtr, size_t workSize,
                                   void *weightPtr, size_t weightSize);
aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize,
                                  uint32_t *modelId, void *workPtr,
                                  size_t workSize, void *weightPtr,
                                  size_t weightSize);
/* The workspace one execution needs (the largest gear's) and the bytes of
 * the weights. */
aclError aclmdlQuerySize(const char *fileName, size_t *workSize,
                         size_t *weightSize);
aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize,
                                size_t *workSize, size_t *weightSize);
/* geflow: another execution context of a loaded model, as a model id of its
 * own. It shares the weights and compiled programs of `modelId` (loaded once;
 * they stay alive until every context sharing them is unloaded) and has
 * streams of its own, at `priority` (0 highest .. 7 lowest; -1 keeps the
 * compiled priorities). aclmdlExecuteAsync of different contexts on
 * different user streams run side by side on the device instead of in turn:
 * one context per concurrent request (examples/decode). */
aclError geflowmdlLoadSharedWeights(uint32_t modelId, int32_t priority,
                                    uint32_t *contextModelId);
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
/* ACL_FORMAT_NCHW for a 4-D tensor, ACL_FORMAT_ND otherwise (geflow keeps
 * the model's layout); ACL_FORMAT_UNDEFINED for an index out of range. */
aclFormat aclmdlGetInputFormat(const aclmdlDesc *modelDesc, size_t index);
aclFormat aclmdlGetOutputFormat(const aclmdlDesc *modelDesc, size_t index);
/* ACL_DT_UNDEFINED for an index out of range. */
aclDataType aclmdlGetInputDataType(const aclmdlDesc *modelDesc, size_t index);
aclDataType aclmdlGetOutputDataType(const aclmdlDesc *modelDesc, size_t index);

/* --- gears ----------------------------------------------------------------
 * The Get* calls report a count of 0 for a model without gears of that kind.
 * `index` of aclmdlGetDynamicHW, aclmdlGetInputDynamicGearCount and
 * aclmdlGetInputDynamicDims is reserved (-1), as in AscendCL. */
aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc, aclmdlBatch *batch);
aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t index,
                            aclmdlHW *hw);
aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc,
                                        size_t index, size_t *gearCount);
/* dims[gearCount]: per gear, every input's full shape in input order, one
 * after the other (dimCount = the sum of the inputs' ranks). */
aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t index,
                                   aclmdlIODims *dims, size_t gearCount);
/* `index` is ACL_DYNAMIC_TENSOR_NAME's (aclmdlGetInputIndexByName); the value
 * must be a compiled gear, else ACL_ERROR_INVALID_PARAM listing the gears. */
aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset,
                                   size_t index, uint64_t batchSize);
aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset,
                                size_t index, uint64_t height, uint64_t width);
/* dims: every input's full shape, as aclmdlGetInputDynamicDims gives them. */
aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset,
                                   size_t index, const aclmdlIODims *dims);
/* The dims of output `index` for the gear last set on the model, or the
 * largest gear's before any; a static model's own. */
aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                aclmdlIODims *dims);

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
