/*===- acl_rt.h - AscendCL runtime API on geflow's simulated NPU ----------===*
 *
 * The aclrt* subset geflow implements, with AscendCL's names and signatures,
 * plus a few geflowrt* calls for what AscendCL has no public call for: a
 * kernel launch with an engine, block_dim, cost and host function; stream-
 * ordered allocation; SoC selection and traces.
 *
 * Semantics worth knowing (see runtime/README.md):
 *  - enqueue calls return at once; the simulated device runs inside
 *    synchronize / query calls, in virtual time;
 *  - a wait binds to the latest record of the event enqueued before it (the
 *    first record to come, if none), so waiting on an event nobody records
 *    makes synchronize return GEFLOW_ERROR_RT_DEADLOCK instead of hanging;
 *  - callbacks run on the thread subscribed to their stream and may call
 *    synchronous APIs; ACL_CALLBACK_BLOCK holds the stream until they return.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_ACL_RT_H
#define GEFLOW_ACL_RT_H

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
} aclrtMemcpyKind;

typedef enum aclrtCallbackBlockType {
  ACL_CALLBACK_NO_BLOCK = 0,
  ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

typedef enum aclrtEventRecordedStatus {
  ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
  ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef void (*aclrtCallback)(void *userData);
typedef void (*aclrtHostFunc)(void *args);

/* Where the program runs: geflow's programs run on the host, beside a
 * simulated device, as on an Atlas 300 card (ACL_HOST). */
typedef enum aclrtRunMode {
  ACL_DEVICE = 0,
  ACL_HOST = 1,
} aclrtRunMode;

/* aclrtGetMemInfo's kinds: the simulated device has one memory (its pool),
 * which every kind reports. */
typedef enum aclrtMemAttr {
  ACL_DDR_MEM = 0,
  ACL_HBM_MEM = 1,
  ACL_DDR_MEM_HUGE = 2,
  ACL_DDR_MEM_NORMAL = 3,
  ACL_HBM_MEM_HUGE = 4,
  ACL_HBM_MEM_NORMAL = 5,
  ACL_DDR_MEM_P2P_HUGE = 6,
  ACL_DDR_MEM_P2P_NORMAL = 7,
  ACL_HBM_MEM_P2P_HUGE = 8,
  ACL_HBM_MEM_P2P_NORMAL = 9,
} aclrtMemAttr;

/* --- init and devices ---------------------------------------------------- */
aclError aclInit(const char *configPath);
aclError aclFinalize(void);
/* Each aclrtSetDevice counts; the device (with its contexts, streams and
 * memory) ends at the aclrtResetDevice that brings the count to 0, or at
 * aclrtResetDeviceForce. */
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtResetDeviceForce(int32_t deviceId);
aclError aclrtGetDevice(int32_t *deviceId);
aclError aclrtSynchronizeDevice(void);
const char *aclrtGetSocName(void);
/* 8: the simulated devices one process may set. */
aclError aclrtGetDeviceCount(uint32_t *count);
/* ACL_HOST. */
aclError aclrtGetRunMode(aclrtRunMode *runMode);

/* --- contexts -------------------------------------------------------------
 * aclrtSetDevice makes the device's default context current on the calling
 * thread. A context made by aclrtCreateContext is current on the calling
 * thread from then on; any thread may make it current (aclrtSetCurrentContext)
 * and use it alongside others. Streams and events are created in the current
 * context, aclrtMalloc'ed memory belongs to it, and aclrtDestroyContext
 * destroys its streams and events and frees that memory. aclrtResetDevice
 * ends every context of the device. */
aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);
aclError aclrtDestroyContext(aclrtContext context);
aclError aclrtSetCurrentContext(aclrtContext context);
aclError aclrtGetCurrentContext(aclrtContext *context);

/* --- streams and events -------------------------------------------------- */
aclError aclrtCreateStream(aclrtStream *stream);
/* Lower priority values are served first; 0 is the highest, and
 * GEFLOWRT_STREAM_PRIORITY_LOWEST (7, as AscendCL's range [0, 7]) the lowest:
 * a larger one is ACL_ERROR_INVALID_PARAM. Within one priority the simulated
 * hardware scheduler serves ready streams round robin. */
#define GEFLOWRT_STREAM_PRIORITY_LOWEST 7
aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority,
                                     uint32_t flag);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtCreateEvent(aclrtEvent *event);
aclError aclrtDestroyEvent(aclrtEvent event);
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
aclError aclrtSynchronizeEvent(aclrtEvent event);
aclError aclrtQueryEventStatus(aclrtEvent event,
                               aclrtEventRecordedStatus *status);
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent,
                               aclrtEvent endEvent);

/* --- memory -------------------------------------------------------------- */
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtFree(void *devPtr);
aclError aclrtMallocHost(void **hostPtr, size_t size);
aclError aclrtFreeHost(void *hostPtr);
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
                          size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream);
/* Fills count bytes with (unsigned char)value. The synchronous one runs on the
 * default stream and waits for it, as aclrtMemcpy. */
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value,
                     size_t count);
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value,
                          size_t count, aclrtStream stream);
/* The current device's memory: total is its limit (geflowrtSetMemoryLimit),
 * or the host's physical memory when it has none; free is what is left. */
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);
/* Stream-ordered allocation: the block is usable by tasks enqueued on
 * `stream` from now on. */
aclError aclrtMallocFromStream(void **devPtr, size_t size, aclrtStream stream);
/* Stream-ordered free: reusable by `stream` at once, by another stream once
 * an event orders it after this point. */
aclError aclrtFreeToStream(void *devPtr, aclrtStream stream);

/* --- host callbacks ------------------------------------------------------
 * A callback runs on the thread subscribed to its stream (aclrtSubscribeReport)
 * when that thread calls aclrtProcessReport; launching one on a stream no
 * thread is subscribed to is ACL_ERROR_RT_STREAM_NO_CB_REG. ACL_CALLBACK_BLOCK
 * holds the stream until it returns; NO_BLOCK on a subscribed stream lets the
 * stream go on. A callback may call synchronous APIs: aclrtMemcpy and
 * aclrtMemset run at once on its thread, and it may synchronize other streams
 * (not its own: that is reported as a deadlock). A synchronize that waits for a
 * callback queued for a thread that is not in aclrtProcessReport, and has not
 * been for 500 ms, fails with GEFLOW_ERROR_RT_DEADLOCK naming the stream and
 * the thread. */
aclError aclrtLaunchCallback(aclrtCallback fn, void *userData,
                             aclrtCallbackBlockType blockType,
                             aclrtStream stream);
/* A host function holding `stream` until it returns, run by the runtime's own
 * threads: no subscription, and never on a report thread. */
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args);
aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream);
aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream);
/* Runs the callbacks of streams subscribed to the calling thread (identified
 * by pthread_self()); timeout in ms (> 0), -1 = wait forever. No stream
 * subscribed to the thread: ACL_ERROR_RT_THREAD_SUBSCRIBE. */
aclError aclrtProcessReport(int32_t timeout);

/* --- geflow extensions -----------------------------------------------------
 */
typedef enum geflowrtEngine {
  GEFLOW_ENGINE_AIC = 0,
  GEFLOW_ENGINE_AIV = 1,
  GEFLOW_ENGINE_MIX = 2,
  GEFLOW_ENGINE_AICPU = 3,
  GEFLOW_ENGINE_DVPP = 4,
} geflowrtEngine;

/* The real work of one block; nonzero marks the kernel (and its stream)
 * failed. */
typedef int32_t (*geflowrtKernelFunc)(uint32_t blockIdx, uint32_t blockDim,
                                      void *userData);

/* A byte range a kernel reads or writes, for the stream sanitizer
 * (GEFLOW_SANITIZE=1); kernels that declare none are not checked. */
typedef enum geflowrtAccessMode {
  GEFLOW_ACCESS_READ = 1,
  GEFLOW_ACCESS_WRITE = 2,
  GEFLOW_ACCESS_READ_WRITE = 3,
} geflowrtAccessMode;

typedef struct geflowrtMemoryAccess {
  const void *ptr;
  uint64_t bytes;
  geflowrtAccessMode mode;
} geflowrtMemoryAccess;

typedef struct geflowrtKernelDesc {
  const char *name;   /* op name for traces; may be NULL */
  const char *opType; /* may be NULL */
  geflowrtEngine engine;
  uint32_t blockDim;
  uint32_t aicoreNum;      /* most cube cores it may hold; 0 = no limit */
  uint32_t vectorcoreNum;  /* most vector cores it may hold; 0 = no limit */
  double flops;            /* whole kernel */
  double bytes;            /* HBM traffic of the whole kernel */
  geflowrtKernelFunc func; /* may be NULL: cost only */
  void *userData;
  const geflowrtMemoryAccess *accesses; /* may be NULL */
  uint32_t numAccesses;
} geflowrtKernelDesc;

aclError geflowrtLaunchKernel(const geflowrtKernelDesc *desc,
                              aclrtStream stream);
/* "ACL_ERROR_RT_MEMORY_ALLOCATION" for 207001; "UNKNOWN" otherwise. */
const char *geflowrtGetErrorName(aclError error);
/* SoC for devices set from now on: a preset name ("ascend910b-sim",
 * "ascend310p-sim") or an INI path. The GEFLOW_SOC variable does the same. */
aclError geflowrtSetSoc(const char *nameOrPath);
/* Device memory limit of the current device, in bytes; 0 = none. */
aclError geflowrtSetMemoryLimit(size_t bytes);
aclError geflowrtEnableTrace(int enable);
/* Chrome/Perfetto trace JSON of everything completed so far. */
aclError geflowrtExportTrace(const char *path);
/* Simulated device time the host has observed, in microseconds. */
aclError geflowrtGetDeviceTimeUs(double *us);

/* The current device's memory pool (aclrtMalloc, aclrtMallocFromStream and
 * every model workspace come from it), for a server to watch that memory
 * stays flat over a long run. */
typedef struct geflowrtMemoryStats {
  uint64_t inUseBytes;       /* handed out now */
  uint64_t reservedBytes;    /* taken from the host: in use + cached */
  uint64_t peakInUseBytes;   /* the most ever handed out at once */
  uint64_t cachedBytes;      /* reserved but free, kept for reuse */
  uint64_t largestFreeBlock; /* of the cached bytes */
  uint64_t numSegments;
  uint64_t numAllocs;
  uint64_t numCacheHits; /* allocations served without a new segment */
  double fragmentation;  /* 1 - largest free block / cached bytes */
} geflowrtMemoryStats;
aclError geflowrtGetMemoryStats(geflowrtMemoryStats *stats);

#ifdef __cplusplus
}
#endif

#endif /* GEFLOW_ACL_RT_H */
