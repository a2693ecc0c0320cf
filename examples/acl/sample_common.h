/*===- sample_common.h - What the AscendCL sample programs share ----------===*
 *
 * The programs in this folder are written the way CANN's own samples are
 * (every acl* call checked, resources released in reverse order), against
 * geflow's installed acl/ headers and libgeflow_acl.so. This header holds
 * what they all need: .npy input, result comparison, the top-5 print and
 * the end of a dataset. Header-only, so each program builds from its one file.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_EXAMPLES_ACL_SAMPLE_COMMON_H
#define GEFLOW_EXAMPLES_ACL_SAMPLE_COMMON_H

#include "AclCheck.h" /* examples/AclCheck.h: CHECK_ACL */
#include "acl/acl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void sampleDie(const char *what, const char *path) {
  fprintf(stderr, "error: %s '%s'\n", what, path);
  exit(1);
}

/* The data of a version-1 .npy file (header length at bytes 8-9), in host
 * memory from aclrtMallocHost; *bytes is its size. */
static inline void *sampleReadNpy(const char *path, size_t *bytes) {
  FILE *f = fopen(path, "rb");
  if (!f)
    sampleDie("cannot open", path);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char head[10];
  if (size < 10 || fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6))
    sampleDie("not a .npy file:", path);
  long dataAt = 10 + (head[8] | (head[9] << 8));
  if (dataAt > size)
    sampleDie("truncated .npy file:", path);
  *bytes = (size_t)(size - dataAt);
  void *data = NULL;
  CHECK_ACL(aclrtMallocHost(&data, *bytes ? *bytes : 1));
  fseek(f, dataAt, SEEK_SET);
  if (fread(data, 1, *bytes, f) != *bytes)
    sampleDie("cannot read", path);
  fclose(f);
  return data;
}

/* 0 when every element of `got` is within 1e-4 (relative to the larger of
 * 1 and |want|) of `want`; prints the first mismatch otherwise. */
static inline int sampleCompare(const float *got, const float *want, size_t n,
                                const char *what) {
  for (size_t i = 0; i < n; ++i) {
    float scale = fabsf(want[i]) > 1.f ? fabsf(want[i]) : 1.f;
    if (!(fabsf(got[i] - want[i]) <= 1e-4f * scale)) {
      fprintf(stderr, "%s: element %zu is %g, expected %g\n", what, i,
              (double)got[i], (double)want[i]);
      return 1;
    }
  }
  return 0;
}

/* "top 1: index[207] value[0.153]" ... as CANN's classification samples
 * print it. */
static inline void samplePrintTop5(const float *scores, size_t n,
                                   const char *title) {
  size_t best[5];
  size_t count = n < 5 ? n : 5;
  for (size_t k = 0; k < count; ++k) {
    size_t arg = (size_t)-1;
    for (size_t i = 0; i < n; ++i) {
      int taken = 0;
      for (size_t j = 0; j < k; ++j)
        taken |= best[j] == i;
      if (!taken && (arg == (size_t)-1 || scores[i] > scores[arg]))
        arg = i;
    }
    best[k] = arg;
  }
  printf("=========== %s ===========\n", title);
  for (size_t k = 0; k < count; ++k)
    printf("top %zu: index[%zu] value[%f]\n", k + 1, best[k],
           (double)scores[best[k]]);
}

/* Destroys `ds` and the data buffers it holds (not their memory). */
static inline void sampleDestroyDataset(aclmdlDataset *ds) {
  for (size_t i = 0; i < aclmdlGetDatasetNumBuffers(ds); ++i)
    CHECK_ACL(aclDestroyDataBuffer(aclmdlGetDatasetBuffer(ds, i)));
  CHECK_ACL(aclmdlDestroyDataset(ds));
}

#endif /* GEFLOW_EXAMPLES_ACL_SAMPLE_COMMON_H */
