/*===- contexts_threads.c - Contexts on several threads, placed memory ----===*
 *
 * contexts_threads MODEL.om IMAGE.npy EXPECTED.npy THREADS
 *
 * THREADS host threads share two contexts (one per device, made by the
 * main thread): each makes its context current, loads the model from bytes
 * into memory it placed itself (aclmdlQuerySizeFromMem, then
 * aclmdlLoadFromMemWithMem, after checking that too little memory is
 * refused), runs it on a stream of its own a few times and checks the
 * output. Exit 0 when every thread's every output matched.
 *
 *===----------------------------------------------------------------------===*/
#include "sample_common.h"

#include <pthread.h>

enum { kRuns = 3 };

static struct {
  aclrtContext contexts[2];
  const char *modelBytes;
  size_t modelSize;
  void *image;
  size_t imageBytes;
  float *expected;
  size_t expectedBytes;
} g;

typedef struct {
  int index;
  int failures;
} Worker;

static void *work(void *arg) {
  Worker *w = (Worker *)arg;
  CHECK_ACL(aclrtSetCurrentContext(g.contexts[w->index % 2]));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));

  size_t workSize = 0, weightSize = 0;
  CHECK_ACL(aclmdlQuerySizeFromMem(g.modelBytes, g.modelSize, &workSize,
                                   &weightSize));
  void *workMem = NULL, *weightMem = NULL;
  CHECK_ACL(aclrtMalloc(&workMem, workSize + 1, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&weightMem, weightSize + 1, ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t modelId = 0;
  if (weightSize > 0 &&
      aclmdlLoadFromMemWithMem(g.modelBytes, g.modelSize, &modelId, workMem,
                               workSize, weightMem,
                               weightSize - 1) != ACL_ERROR_INVALID_PARAM) {
    fprintf(stderr, "thread %d: too small weight memory was not refused\n",
            w->index);
    w->failures++;
  }
  CHECK_ACL(aclmdlLoadFromMemWithMem(g.modelBytes, g.modelSize, &modelId,
                                     workMem, workSize, weightMem, weightSize));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, modelId));
  size_t outputSize = aclmdlGetOutputSizeByIndex(desc, 0);
  void *inputDev = NULL, *outputDev = NULL;
  CHECK_ACL(aclrtMalloc(&inputDev, g.imageBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&outputDev, outputSize, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemcpyAsync(inputDev, g.imageBytes, g.image, g.imageBytes,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream));
  aclmdlDataset *input = aclmdlCreateDataset();
  aclDataBuffer *inBuf = aclCreateDataBuffer(inputDev, g.imageBytes);
  CHECK_ACL(aclmdlAddDatasetBuffer(input, inBuf));
  aclmdlDataset *output = aclmdlCreateDataset();
  aclDataBuffer *outBuf = aclCreateDataBuffer(outputDev, outputSize);
  CHECK_ACL(aclmdlAddDatasetBuffer(output, outBuf));
  float *scores = NULL;
  CHECK_ACL(aclrtMallocHost((void **)&scores, outputSize));
  for (int r = 0; r < kRuns; ++r) {
    CHECK_ACL(aclrtMemsetAsync(outputDev, outputSize, 0, outputSize, stream));
    CHECK_ACL(aclmdlExecuteAsync(modelId, input, output, stream));
    CHECK_ACL(aclrtMemcpyAsync(scores, outputSize, outputDev, outputSize,
                               ACL_MEMCPY_DEVICE_TO_HOST, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    w->failures += sampleCompare(scores, g.expected, outputSize / sizeof(float),
                                 "contexts_threads");
  }
  int32_t device = -1;
  CHECK_ACL(aclrtGetDevice(&device));
  printf("thread %d: device %d, %d runs, %s\n", w->index, (int)device, kRuns,
         w->failures ? "MISMATCH" : "outputs match");

  CHECK_ACL(aclrtFreeHost(scores));
  sampleDestroyDataset(output);
  sampleDestroyDataset(input);
  CHECK_ACL(aclmdlDestroyDesc(desc));
  CHECK_ACL(aclmdlUnload(modelId));
  CHECK_ACL(aclrtFree(outputDev));
  CHECK_ACL(aclrtFree(inputDev));
  CHECK_ACL(aclrtFree(weightMem));
  CHECK_ACL(aclrtFree(workMem));
  CHECK_ACL(aclrtDestroyStream(stream));
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: contexts_threads MODEL.om IMAGE.npy EXPECTED.npy "
                    "THREADS\n");
    return 2;
  }
  int threads = atoi(argv[4]);
  if (threads < 1 || threads > 16) {
    fprintf(stderr, "contexts_threads: THREADS must be 1..16\n");
    return 2;
  }
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtCreateContext(&g.contexts[0], 0));
  CHECK_ACL(aclrtCreateContext(&g.contexts[1], 1));

  FILE *f = fopen(argv[1], "rb");
  if (!f)
    sampleDie("cannot open", argv[1]);
  fseek(f, 0, SEEK_END);
  g.modelSize = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  char *bytes = (char *)malloc(g.modelSize);
  if (fread(bytes, 1, g.modelSize, f) != g.modelSize)
    sampleDie("cannot read", argv[1]);
  fclose(f);
  g.modelBytes = bytes;
  g.image = sampleReadNpy(argv[2], &g.imageBytes);
  g.expected = (float *)sampleReadNpy(argv[3], &g.expectedBytes);

  pthread_t ids[16];
  Worker workers[16];
  for (int t = 0; t < threads; ++t) {
    workers[t].index = t;
    workers[t].failures = 0;
    pthread_create(&ids[t], NULL, work, &workers[t]);
  }
  int failures = 0;
  for (int t = 0; t < threads; ++t) {
    pthread_join(ids[t], NULL);
    failures += workers[t].failures;
  }
  free(bytes);
  CHECK_ACL(aclrtFreeHost(g.image));
  CHECK_ACL(aclrtFreeHost(g.expected));
  CHECK_ACL(aclrtDestroyContext(g.contexts[1]));
  CHECK_ACL(aclrtDestroyContext(g.contexts[0]));
  CHECK_ACL(aclrtResetDevice(1));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return failures != 0;
}
