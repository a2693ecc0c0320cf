/*===- model_exec.c - Load an OM model and execute it, in C ---------------===*
 *
 * model_exec MODEL.om INPUT.npy EXPECTED.npy: the aclmdl* sequence a CANN
 * user writes (load, describe, datasets, execute, unload) against the
 * installed libgeflow_acl.so. The model's one input is read from a float32
 * .npy file; its first output is compared with EXPECTED.npy (1e-4). Exit 0
 * when they match.
 *
 *===----------------------------------------------------------------------===*/
#include "acl/acl.h"
#include "acl/acl_mdl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(expr)                                                            \
  do {                                                                         \
    aclError e_ = (expr);                                                      \
    if (e_ != ACL_SUCCESS) {                                                   \
      fprintf(stderr, "model_exec: %s failed: %s: %s\n", #expr,                \
              geflowrtGetErrorName(e_), aclGetRecentErrMsg());                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

/* The data of a version-1 .npy file (header length at bytes 8-9). */
static void *readNpy(const char *path, size_t *bytes) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "model_exec: cannot open '%s'\n", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  unsigned char *file = malloc(size);
  fseek(f, 0, SEEK_SET);
  if (size < 10 || fread(file, 1, size, f) != (size_t)size) {
    fprintf(stderr, "model_exec: cannot read '%s'\n", path);
    exit(1);
  }
  fclose(f);
  size_t header = 10 + (file[8] | file[9] << 8);
  *bytes = size - header;
  void *data = malloc(*bytes);
  memcpy(data, file + header, *bytes);
  free(file);
  return data;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: model_exec MODEL.om INPUT.npy EXPECTED.npy\n");
    return 2;
  }
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  uint32_t id = 0;
  CHECK(aclmdlLoadFromFile(argv[1], &id));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK(aclmdlGetDesc(desc, id));

  size_t inBytes = 0, expectedBytes = 0;
  void *input = readNpy(argv[2], &inBytes);
  float *expected = readNpy(argv[3], &expectedBytes);
  if (inBytes != aclmdlGetInputSizeByIndex(desc, 0)) {
    fprintf(stderr, "model_exec: '%s' has %zu bytes, the input needs %zu\n",
            argv[2], inBytes, aclmdlGetInputSizeByIndex(desc, 0));
    return 1;
  }
  size_t outBytes = aclmdlGetOutputSizeByIndex(desc, 0);
  void *inDev = NULL, *outDev = NULL;
  CHECK(aclrtMalloc(&inDev, inBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&outDev, outBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(inDev, inBytes, input, inBytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
  aclDataBuffer *inBuf = aclCreateDataBuffer(inDev, inBytes);
  aclDataBuffer *outBuf = aclCreateDataBuffer(outDev, outBytes);
  CHECK(aclmdlAddDatasetBuffer(in, inBuf));
  CHECK(aclmdlAddDatasetBuffer(out, outBuf));
  CHECK(aclmdlExecute(id, in, out));

  float *result = malloc(outBytes);
  CHECK(aclrtMemcpy(result, outBytes, outDev, outBytes,
                    ACL_MEMCPY_DEVICE_TO_HOST));
  aclmdlIODims dims;
  CHECK(aclmdlGetOutputDims(desc, 0, &dims));
  size_t n = outBytes / sizeof(float), mismatches = 0;
  for (size_t i = 0; i < n; ++i)
    mismatches +=
        expectedBytes != outBytes || fabsf(result[i] - expected[i]) > 1e-4f;
  printf("model_exec: %s output '%s' (%zu floats), %zu mismatches\n", argv[1],
         dims.name, n, mismatches);

  CHECK(aclDestroyDataBuffer(inBuf));
  CHECK(aclDestroyDataBuffer(outBuf));
  CHECK(aclmdlDestroyDataset(in));
  CHECK(aclmdlDestroyDataset(out));
  CHECK(aclmdlDestroyDesc(desc));
  CHECK(aclmdlUnload(id));
  CHECK(aclrtFree(inDev));
  CHECK(aclrtFree(outDev));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  free(input);
  free(expected);
  free(result);
  return mismatches == 0 ? 0 : 1;
}
