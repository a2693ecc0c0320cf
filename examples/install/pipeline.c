/*===- pipeline.c - The three-stage pipeline in C, against the installed lib
 *===*
 *
 * preprocess (vector cores) -> inference (cube cores) -> postprocess (vector
 * cores), one stream per stage ordered by events, over a few batches: the
 * runtime article's pipeline as a user writes it in plain C, built with
 * `cc pipeline.c $(pkg-config --cflags --libs geflow)`. The host functions
 * compute a toy model so the result can be checked; the simulated costs are
 * illustrative. Prints the labels and the simulated makespan; exit 0 when
 * every label is right.
 *
 *===----------------------------------------------------------------------===*/
#include "acl/acl.h"

#include <stdio.h>
#include <stdlib.h>

enum { kBatches = 4, kRows = 8, kFeatures = 16 };

#define CHECK(expr)                                                            \
  do {                                                                         \
    aclError e_ = (expr);                                                      \
    if (e_ != ACL_SUCCESS) {                                                   \
      fprintf(stderr, "pipeline: %s failed: %s: %s\n", #expr,                  \
              geflowrtGetErrorName(e_), aclGetRecentErrMsg());                 \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

typedef struct Batch {
  unsigned char *raw; /* kRows x kFeatures, device */
  float *x;           /* normalised */
  float *score;       /* one per row */
  int *label;         /* one per row */
} Batch;

static int32_t preprocess(uint32_t block, uint32_t blockDim, void *user) {
  Batch *b = user;
  for (uint32_t i = block; i < kRows * kFeatures; i += blockDim)
    b->x[i] = (float)b->raw[i] / 255.0f;
  return 0;
}

/* The "model": a row's score is the mean of its features. */
static int32_t inference(uint32_t block, uint32_t blockDim, void *user) {
  Batch *b = user;
  for (uint32_t r = block; r < kRows; r += blockDim) {
    float sum = 0;
    for (int f = 0; f < kFeatures; ++f)
      sum += b->x[r * kFeatures + f];
    b->score[r] = sum / kFeatures;
  }
  return 0;
}

static int32_t postprocess(uint32_t block, uint32_t blockDim, void *user) {
  Batch *b = user;
  for (uint32_t r = block; r < kRows; r += blockDim)
    b->label[r] = b->score[r] > 0.5f;
  return 0;
}

static void launch(const char *name, geflowrtEngine engine,
                   geflowrtKernelFunc fn, Batch *b, aclrtStream stream) {
  geflowrtKernelDesc k = {0};
  k.name = name;
  k.opType = name;
  k.engine = engine;
  k.blockDim = 4;
  k.flops = 1e6;
  k.bytes = 1e5;
  k.func = fn;
  k.userData = b;
  CHECK(geflowrtLaunchKernel(&k, stream));
}

int main(void) {
  CHECK(aclInit(NULL));
  CHECK(aclrtSetDevice(0));
  aclrtStream streams[3];
  for (int s = 0; s < 3; ++s)
    CHECK(aclrtCreateStream(&streams[s]));

  Batch batches[kBatches];
  unsigned char host[kBatches][kRows * kFeatures];
  aclrtEvent handoff[kBatches][2];
  for (int i = 0; i < kBatches; ++i) {
    Batch *b = &batches[i];
    CHECK(aclrtMalloc((void **)&b->raw, kRows * kFeatures,
                      ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&b->x, sizeof(float) * kRows * kFeatures,
                      ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&b->score, sizeof(float) * kRows,
                      ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc((void **)&b->label, sizeof(int) * kRows,
                      ACL_MEM_MALLOC_HUGE_FIRST));
    /* Even rows bright (label 1), odd rows dark (label 0). */
    for (int j = 0; j < kRows * kFeatures; ++j)
      host[i][j] = (j / kFeatures) % 2 == 0 ? 200 : 40;
    CHECK(aclrtCreateEvent(&handoff[i][0]));
    CHECK(aclrtCreateEvent(&handoff[i][1]));
  }

  double before = 0, after = 0;
  CHECK(geflowrtGetDeviceTimeUs(&before));
  for (int i = 0; i < kBatches; ++i) {
    Batch *b = &batches[i];
    CHECK(aclrtMemcpyAsync(b->raw, kRows * kFeatures, host[i],
                           kRows * kFeatures, ACL_MEMCPY_HOST_TO_DEVICE,
                           streams[0]));
    launch("preprocess", GEFLOW_ENGINE_AIV, preprocess, b, streams[0]);
    CHECK(aclrtRecordEvent(handoff[i][0], streams[0]));
    CHECK(aclrtStreamWaitEvent(streams[1], handoff[i][0]));
    launch("inference", GEFLOW_ENGINE_AIC, inference, b, streams[1]);
    CHECK(aclrtRecordEvent(handoff[i][1], streams[1]));
    CHECK(aclrtStreamWaitEvent(streams[2], handoff[i][1]));
    launch("postprocess", GEFLOW_ENGINE_AIV, postprocess, b, streams[2]);
  }
  CHECK(aclrtSynchronizeDevice());
  CHECK(geflowrtGetDeviceTimeUs(&after));

  int wrong = 0;
  for (int i = 0; i < kBatches; ++i) {
    int labels[kRows];
    CHECK(aclrtMemcpy(labels, sizeof labels, batches[i].label, sizeof labels,
                      ACL_MEMCPY_DEVICE_TO_HOST));
    for (int r = 0; r < kRows; ++r)
      wrong += labels[r] != (r % 2 == 0);
  }
  printf("pipeline: %d batches on 3 streams, makespan %.1f us (simulated), "
         "%d wrong labels\n",
         kBatches, after - before, wrong);

  for (int i = 0; i < kBatches; ++i) {
    CHECK(aclrtFree(batches[i].raw));
    CHECK(aclrtFree(batches[i].x));
    CHECK(aclrtFree(batches[i].score));
    CHECK(aclrtFree(batches[i].label));
    CHECK(aclrtDestroyEvent(handoff[i][0]));
    CHECK(aclrtDestroyEvent(handoff[i][1]));
  }
  for (int s = 0; s < 3; ++s)
    CHECK(aclrtDestroyStream(streams[s]));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return wrong == 0 ? 0 : 1;
}
