/*===- classify_async.c - Asynchronous executions, callbacks, a pool ------===*
 *
 * classify_async MODEL.om IMAGE.npy EXPECTED.npy EXECUTIONS INTERVAL POOL
 *
 * CANN's asynchronous pattern: POOL input/output dataset pairs prepared up
 * front, EXECUTIONS aclmdlExecuteAsync calls on one stream, and every
 * INTERVAL executions a blocking callback, run on a report thread of the
 * program's own, that copies the finished outputs back with a synchronous
 * aclrtMemcpy, checks them and returns their datasets to the pool. INTERVAL
 * 0 launches no callback: the program checks the outputs itself after
 * synchronizing, though its stream is still subscribed to a report thread
 * that has stopped serving. Exit 0 when every execution's output matched.
 *
 *===----------------------------------------------------------------------===*/
#include "sample_common.h"

#include <pthread.h>
#include <stdatomic.h>

typedef struct {
  aclmdlDataset *input, *output;
  void *outputDev;
} Slot;

static struct {
  pthread_mutex_t mu;
  Slot *slots;
  int *free; /* stack of free slot indices */
  int numFree;
  size_t outputSize;
  float *expected;
  int checked, mismatches;
  aclrtContext context;
  atomic_int exitReports;
} g;

/* The executions a callback checks: slot indices, -1 terminated. */
typedef struct {
  int slots[64];
  int count;
} Batch;

static void checkSlot(int s) {
  float *host = NULL;
  CHECK_ACL(aclrtMallocHost((void **)&host, g.outputSize));
  CHECK_ACL(aclrtMemcpy(host, g.outputSize, g.slots[s].outputDev, g.outputSize,
                        ACL_MEMCPY_DEVICE_TO_HOST));
  int bad = sampleCompare(host, g.expected, g.outputSize / sizeof(float),
                          "classify_async");
  CHECK_ACL(aclrtFreeHost(host));
  pthread_mutex_lock(&g.mu);
  g.checked++;
  g.mismatches += bad;
  g.free[g.numFree++] = s;
  pthread_mutex_unlock(&g.mu);
}

static void onExecutionsDone(void *arg) {
  Batch *b = (Batch *)arg;
  for (int i = 0; i < b->count; ++i)
    checkSlot(b->slots[i]);
  free(b);
}

static void *serveReports(void *arg) {
  (void)arg;
  CHECK_ACL(aclrtSetCurrentContext(g.context));
  while (!atomic_load(&g.exitReports))
    (void)aclrtProcessReport(100);
  return NULL;
}

static void makeSlot(Slot *slot, void *imageDev, size_t inputSize) {
  slot->input = aclmdlCreateDataset();
  CHECK_ACL(aclmdlAddDatasetBuffer(slot->input,
                                   aclCreateDataBuffer(imageDev, inputSize)));
  CHECK_ACL(
      aclrtMalloc(&slot->outputDev, g.outputSize, ACL_MEM_MALLOC_NORMAL_ONLY));
  slot->output = aclmdlCreateDataset();
  CHECK_ACL(aclmdlAddDatasetBuffer(
      slot->output, aclCreateDataBuffer(slot->outputDev, g.outputSize)));
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: classify_async MODEL.om IMAGE.npy EXPECTED.npy "
                    "EXECUTIONS INTERVAL POOL\n");
    return 2;
  }
  int executions = atoi(argv[4]), interval = atoi(argv[5]),
      poolSize = atoi(argv[6]);
  if (executions < 1 || interval < 0 || interval > 64 || poolSize < 1 ||
      (interval == 0 && poolSize < executions)) {
    fprintf(stderr, "classify_async: bad EXECUTIONS/INTERVAL/POOL\n");
    return 2;
  }
  const int32_t deviceId = 0;
  pthread_mutex_init(&g.mu, NULL);
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(deviceId));
  CHECK_ACL(aclrtCreateContext(&g.context, deviceId));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));

  /* The model's workspace and weights in memory of our own. */
  size_t workSize = 0, weightSize = 0;
  CHECK_ACL(aclmdlQuerySize(argv[1], &workSize, &weightSize));
  void *work = NULL, *weights = NULL;
  CHECK_ACL(
      aclrtMalloc(&work, workSize ? workSize : 1, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&weights, weightSize ? weightSize : 1,
                        ACL_MEM_MALLOC_HUGE_FIRST));
  uint32_t modelId = 0;
  CHECK_ACL(aclmdlLoadFromFileWithMem(argv[1], &modelId, work, workSize,
                                      weights, weightSize));
  aclmdlDesc *desc = aclmdlCreateDesc();
  CHECK_ACL(aclmdlGetDesc(desc, modelId));
  size_t inputSize = aclmdlGetInputSizeByIndex(desc, 0);
  g.outputSize = aclmdlGetOutputSizeByIndex(desc, 0);

  size_t imageBytes = 0, expectedBytes = 0;
  void *image = sampleReadNpy(argv[2], &imageBytes);
  g.expected = (float *)sampleReadNpy(argv[3], &expectedBytes);
  if (imageBytes != inputSize || expectedBytes != g.outputSize) {
    fprintf(stderr, "classify_async: input or expected output size differs "
                    "from the model's\n");
    return 1;
  }
  void *imageDev = NULL;
  CHECK_ACL(aclrtMalloc(&imageDev, inputSize, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(imageDev, inputSize, image, inputSize,
                        ACL_MEMCPY_HOST_TO_DEVICE));
  g.slots = (Slot *)calloc((size_t)poolSize, sizeof(Slot));
  g.free = (int *)calloc((size_t)poolSize, sizeof(int));
  for (int s = 0; s < poolSize; ++s) {
    makeSlot(&g.slots[s], imageDev, inputSize);
    g.free[g.numFree++] = s;
  }

  pthread_t reports;
  pthread_create(&reports, NULL, serveReports, NULL);
  CHECK_ACL(aclrtSubscribeReport((uint64_t)reports, stream));
  if (interval == 0) { /* a report thread that has stopped serving */
    atomic_store(&g.exitReports, 1);
    pthread_join(reports, NULL);
  }

  Batch *batch = NULL;
  int issued[1024], numIssued = 0;
  for (int n = 0; n < executions; ++n) {
    int s = -1;
    while (s < 0) { /* wait for a callback to hand a slot back */
      pthread_mutex_lock(&g.mu);
      if (g.numFree > 0)
        s = g.free[--g.numFree];
      pthread_mutex_unlock(&g.mu);
      if (s < 0)
        CHECK_ACL(aclrtSynchronizeStream(stream));
    }
    CHECK_ACL(aclmdlExecuteAsync(modelId, g.slots[s].input, g.slots[s].output,
                                 stream));
    if (interval == 0) {
      if (numIssued < 1024)
        issued[numIssued++] = s;
      continue;
    }
    if (!batch)
      batch = (Batch *)calloc(1, sizeof(Batch));
    batch->slots[batch->count++] = s;
    if ((n + 1) % interval == 0) {
      CHECK_ACL(aclrtLaunchCallback(onExecutionsDone, batch, ACL_CALLBACK_BLOCK,
                                    stream));
      batch = NULL;
    }
  }
  if (batch) /* the last executions' callback */
    CHECK_ACL(aclrtLaunchCallback(onExecutionsDone, batch, ACL_CALLBACK_BLOCK,
                                  stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  for (int i = 0; i < numIssued; ++i)
    checkSlot(issued[i]);
  if (interval != 0) {
    atomic_store(&g.exitReports, 1);
    pthread_join(reports, NULL);
  }
  CHECK_ACL(aclrtUnSubscribeReport((uint64_t)reports, stream));

  printf("classify_async: %d executions, %d checked by %s, %d mismatched\n",
         executions, g.checked, interval ? "callbacks" : "the main thread",
         g.mismatches);
  for (int s = 0; s < poolSize; ++s) {
    sampleDestroyDataset(g.slots[s].input);
    sampleDestroyDataset(g.slots[s].output);
    CHECK_ACL(aclrtFree(g.slots[s].outputDev));
  }
  free(g.slots);
  free(g.free);
  CHECK_ACL(aclrtFree(imageDev));
  CHECK_ACL(aclrtFreeHost(image));
  CHECK_ACL(aclrtFreeHost(g.expected));
  CHECK_ACL(aclmdlDestroyDesc(desc));
  CHECK_ACL(aclmdlUnload(modelId));
  CHECK_ACL(aclrtFree(weights));
  CHECK_ACL(aclrtFree(work));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtDestroyContext(g.context));
  CHECK_ACL(aclrtResetDevice(deviceId));
  CHECK_ACL(aclFinalize());
  pthread_mutex_destroy(&g.mu);
  return g.checked == executions && g.mismatches == 0 ? 0 : 1;
}
