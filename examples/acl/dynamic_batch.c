/*===- dynamic_batch.c - One model, every batch size it was compiled for --===*
 *
 * dynamic_batch MODEL.om IMAGE.npy EXPECTED.npy
 *
 * A model compiled with gears (atc --dynamic_batch_size "1,2,4") has one
 * more input, ACL_DYNAMIC_TENSOR_NAME; the program sizes its buffers for
 * the largest batch, and before each execution names the batch to run with
 * aclmdlSetDynamicBatchSize. IMAGE.npy is one image and EXPECTED.npy the
 * model's output for it: every image of every batch must match it. Exit 0
 * when they all do.
 *
 *===----------------------------------------------------------------------===*/
#include "sample_common.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: dynamic_batch MODEL.om IMAGE.npy EXPECTED.npy\n");
    return 2;
  }
  const int32_t deviceId = 0;
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(deviceId));
  uint32_t modelId = 0;
  CHECK_ACL(aclmdlLoadFromFile(argv[1], &modelId));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, modelId));
  aclmdlBatch batches;
  CHECK_ACL(aclmdlGetDynamicBatch(desc, &batches));
  if (batches.batchCount == 0) {
    fprintf(stderr, "dynamic_batch: '%s' has no dynamic batch sizes\n",
            argv[1]);
    return 1;
  }
  size_t dynamicIndex = 0;
  CHECK_ACL(
      aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &dynamicIndex));

  size_t imageBytes = 0, expectedBytes = 0;
  void *image = sampleReadNpy(argv[2], &imageBytes);
  float *expected = (float *)sampleReadNpy(argv[3], &expectedBytes);

  /* Inputs and outputs sized for the largest batch, as CANN's are. */
  aclmdlDataset *input = aclmdlCreateDataset();
  void *inputDev[2] = {NULL, NULL};
  for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) {
    size_t bytes = aclmdlGetInputSizeByIndex(desc, i);
    CHECK_ACL(aclrtMalloc(&inputDev[i == dynamicIndex], bytes,
                          ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclmdlAddDatasetBuffer(
        input, aclCreateDataBuffer(inputDev[i == dynamicIndex], bytes)));
  }
  size_t outputSize = aclmdlGetOutputSizeByIndex(desc, 0);
  void *outputDev = NULL;
  CHECK_ACL(aclrtMalloc(&outputDev, outputSize, ACL_MEM_MALLOC_NORMAL_ONLY));
  aclmdlDataset *output = aclmdlCreateDataset();
  CHECK_ACL(aclmdlAddDatasetBuffer(output,
                                   aclCreateDataBuffer(outputDev, outputSize)));
  float *scores = NULL;
  CHECK_ACL(aclrtMallocHost((void **)&scores, outputSize));

  int mismatches = 0;
  for (size_t b = 0; b < batches.batchCount; ++b) {
    uint64_t batch = batches.batch[b];
    for (uint64_t i = 0; i < batch; ++i)
      CHECK_ACL(aclrtMemcpy((char *)inputDev[0] + i * imageBytes, imageBytes,
                            image, imageBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclmdlSetDynamicBatchSize(modelId, input, dynamicIndex, batch));
    CHECK_ACL(aclmdlExecute(modelId, input, output));
    aclmdlIODims dims;
    CHECK_ACL(aclmdlGetCurOutputDims(desc, 0, &dims));
    if (dims.dimCount < 1 || (uint64_t)dims.dims[0] != batch) {
      fprintf(stderr, "dynamic_batch: batch %llu gave output dim 0 = %lld\n",
              (unsigned long long)batch, (long long)dims.dims[0]);
      ++mismatches;
      continue;
    }
    CHECK_ACL(aclrtMemcpy(scores, outputSize, outputDev, batch * expectedBytes,
                          ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint64_t i = 0; i < batch; ++i) {
      char title[64];
      snprintf(title, sizeof title, "batch %llu, picture %llu",
               (unsigned long long)batch, (unsigned long long)i + 1);
      const float *mine = scores + i * (expectedBytes / sizeof(float));
      if (i == 0)
        samplePrintTop5(mine, expectedBytes / sizeof(float), title);
      mismatches +=
          sampleCompare(mine, expected, expectedBytes / sizeof(float), title);
    }
  }
  /* A batch size the model was not compiled for is refused, with the sizes
   * it has. */
  if (aclmdlSetDynamicBatchSize(modelId, input, dynamicIndex, 3) ==
      ACL_SUCCESS) {
    fprintf(stderr, "dynamic_batch: batch 3 was accepted\n");
    ++mismatches;
  } else {
    printf("batch 3 refused: %s\n", aclGetRecentErrMsg());
  }

  CHECK_ACL(aclrtFreeHost(scores));
  sampleDestroyDataset(input);
  sampleDestroyDataset(output);
  CHECK_ACL(aclrtFree(inputDev[0]));
  CHECK_ACL(aclrtFree(inputDev[1]));
  CHECK_ACL(aclrtFree(outputDev));
  CHECK_ACL(aclrtFreeHost(image));
  CHECK_ACL(aclrtFreeHost(expected));
  CHECK_ACL(aclmdlDestroyDesc(desc));
  CHECK_ACL(aclmdlUnload(modelId));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  printf("dynamic_batch: %zu batch sizes, %d mismatch(es)\n",
         batches.batchCount, mismatches);
  return mismatches != 0;
}
