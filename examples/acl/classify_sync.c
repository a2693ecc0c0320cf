/*===- classify_sync.c - One image through a classification model ---------===*
 *
 * classify_sync ACL_JSON MODEL.om IMAGE.npy EXPECTED.npy
 *
 * The synchronous classification flow of a CANN program: aclInit with an
 * acl.json, a device, a context and a stream of its own, the run mode (on
 * the host, results are copied back), load, describe, execute, print the
 * top 5, then release everything in reverse order. Exit 0 when the output
 * matches EXPECTED.npy.
 *
 *===----------------------------------------------------------------------===*/
#include "sample_common.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: classify_sync ACL_JSON MODEL.om IMAGE.npy "
                    "EXPECTED.npy\n");
    return 2;
  }
  const int32_t deviceId = 0;
  CHECK_ACL(aclInit(argv[1]));
  CHECK_ACL(aclrtSetDevice(deviceId));
  aclrtContext context = NULL;
  CHECK_ACL(aclrtCreateContext(&context, deviceId));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  aclrtRunMode runMode;
  CHECK_ACL(aclrtGetRunMode(&runMode));

  uint32_t modelId = 0;
  CHECK_ACL(aclmdlLoadFromFile(argv[2], &modelId));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, modelId));
  size_t inputSize = aclmdlGetInputSizeByIndex(desc, 0);
  size_t outputSize = aclmdlGetOutputSizeByIndex(desc, 0);
  aclmdlIODims dims;
  CHECK_ACL(aclmdlGetInputDims(desc, 0, &dims));
  printf("input '%s': %zu dims, %zu bytes, format %d, type %d\n", dims.name,
         dims.dimCount, inputSize, (int)aclmdlGetInputFormat(desc, 0),
         (int)aclmdlGetInputDataType(desc, 0));

  size_t imageBytes = 0, expectedBytes = 0;
  void *image = sampleReadNpy(argv[3], &imageBytes);
  float *expected = (float *)sampleReadNpy(argv[4], &expectedBytes);
  if (imageBytes != inputSize || expectedBytes != outputSize) {
    fprintf(stderr,
            "input has %zu bytes (model: %zu), expected output %zu "
            "(model: %zu)\n",
            imageBytes, inputSize, expectedBytes, outputSize);
    return 1;
  }
  void *inputDev = NULL, *outputDev = NULL;
  CHECK_ACL(aclrtMalloc(&inputDev, inputSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&outputDev, outputSize, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemcpy(inputDev, inputSize, image, inputSize,
                        runMode == ACL_HOST ? ACL_MEMCPY_HOST_TO_DEVICE
                                            : ACL_MEMCPY_DEVICE_TO_DEVICE));
  aclmdlDataset *input = aclmdlCreateDataset();
  aclDataBuffer *inputBuffer = aclCreateDataBuffer(inputDev, inputSize);
  CHECK_ACL(aclmdlAddDatasetBuffer(input, inputBuffer));
  aclmdlDataset *output = aclmdlCreateDataset();
  aclDataBuffer *outputBuffer = aclCreateDataBuffer(outputDev, outputSize);
  CHECK_ACL(aclmdlAddDatasetBuffer(output, outputBuffer));

  CHECK_ACL(aclmdlExecute(modelId, input, output));

  float *scores = NULL;
  CHECK_ACL(aclrtMallocHost((void **)&scores, outputSize));
  CHECK_ACL(aclrtMemcpy(scores, outputSize, outputDev, outputSize,
                        ACL_MEMCPY_DEVICE_TO_HOST));
  samplePrintTop5(scores, outputSize / sizeof(float), "classify_sync");
  int mismatch = sampleCompare(scores, expected, outputSize / sizeof(float),
                               "classify_sync");

  CHECK_ACL(aclrtFreeHost(scores));
  sampleDestroyDataset(output);
  sampleDestroyDataset(input);
  CHECK_ACL(aclrtFree(outputDev));
  CHECK_ACL(aclrtFree(inputDev));
  CHECK_ACL(aclrtFreeHost(expected));
  CHECK_ACL(aclrtFreeHost(image));
  CHECK_ACL(aclmdlDestroyDesc(desc));
  CHECK_ACL(aclmdlUnload(modelId));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtDestroyContext(context));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  if (!mismatch)
    printf("classify_sync: output matches\n");
  return mismatch;
}
