//===- AclRtTest.cpp - The aclrt* C API end to end ------------------------===//
#include "acl/acl_rt.h"
#include "tests/unit/runtime/AclSession.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <pthread.h>
#include <string>
#include <thread>
#include <vector>

namespace {

int32_t doubleIt(uint32_t blockIdx, uint32_t blockDim, void *user) {
  auto *v = static_cast<std::vector<float> *>(user);
  for (size_t i = blockIdx; i < v->size(); i += blockDim)
    (*v)[i] *= 2;
  return 0;
}

void countCall(void *user) { ++*static_cast<int *>(user); }

} // namespace

TEST(AclRt, CopyComputeCopyBack) {
  AclSession session;
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B-sim");
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float> host(1024, 1.5f);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, host.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, host.size() * 4, host.data(), host.size() * 4,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  std::vector<float> view(host.size());
  geflowrtKernelDesc k{};
  k.name = "double";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 8;
  k.flops = 1024;
  k.bytes = 8192;
  k.func = doubleIt;
  k.userData = &view; // the kernel works on a host mirror of `dev`
  ASSERT_EQ(aclrtMemcpyAsync(view.data(), view.size() * 4, dev, view.size() * 4,
                             ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
  ASSERT_EQ(geflowrtLaunchKernel(&k, stream), ACL_SUCCESS);
  int calls = 0;
  ASSERT_EQ(aclrtLaunchHostFunc(stream, countCall, &calls), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(view[0], 3.0f);
  EXPECT_EQ(view[1023], 3.0f);
  EXPECT_EQ(calls, 1);
  double us = 0;
  ASSERT_EQ(geflowrtGetDeviceTimeUs(&us), ACL_SUCCESS);
  EXPECT_GT(us, 0.0);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(AclRt, EventsAcrossStreamsAndElapsedTime) {
  AclSession session;
  aclrtStream s1, s2;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&s1, 0, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStreamWithConfig(&s2, 3, 0), ACL_SUCCESS);
  aclrtEvent start, done;
  ASSERT_EQ(aclrtCreateEvent(&start), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(start, s1), ACL_SUCCESS);
  geflowrtKernelDesc k{};
  k.engine = GEFLOW_ENGINE_AIC;
  k.blockDim = 24;
  k.flops = 24 * 8192.0 * 1800 * 100; // 100 us per block on the 910B preset
  ASSERT_EQ(geflowrtLaunchKernel(&k, s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(done, s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s2, done), ACL_SUCCESS);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ASSERT_EQ(aclrtQueryEventStatus(done, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
  float ms = 0;
  ASSERT_EQ(aclrtEventElapsedTime(&ms, start, done), ACL_SUCCESS);
  EXPECT_NEAR(ms, 0.101, 1e-4); // 100 us + 1 us launch latency
  ASSERT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(start), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
}

TEST(AclRt, WaitOnAnUnrecordedEventIsADeadlockWithinASecond) {
  AclSession session;
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  aclrtEvent never;
  ASSERT_EQ(aclrtCreateEvent(&never), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(s, never), ACL_SUCCESS);
  auto t0 = std::chrono::steady_clock::now();
  aclError err = aclrtSynchronizeStream(s);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  EXPECT_EQ(err, GEFLOW_ERROR_RT_DEADLOCK);
  EXPECT_LT(secs, 1.0);
  EXPECT_STREQ(geflowrtGetErrorName(err), "GEFLOW_ERROR_RT_DEADLOCK");
  std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("stream 1 waits on event 0"), std::string::npos) << msg;
}

TEST(AclRt, ErrorsAreAclIntegersWithNames) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE);
  AclSession session;
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_STREQ(geflowrtGetErrorName(ACL_ERROR_RT_MEMORY_ALLOCATION),
               "ACL_ERROR_RT_MEMORY_ALLOCATION");
  EXPECT_STREQ(geflowrtGetErrorName(12345), "UNKNOWN");
  ASSERT_EQ(geflowrtSetMemoryLimit(4u << 20), ACL_SUCCESS);
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 64u << 20, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("limit 4.000 MiB"),
            std::string::npos);
  EXPECT_EQ(geflowrtSetSoc("no-such-chip"), ACL_ERROR_INVALID_FILE);
  EXPECT_EQ(aclrtProcessReport(1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  // A failing kernel surfaces at the next synchronize of its stream.
  geflowrtKernelDesc k{};
  k.name = "bad";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 1;
  k.func = [](uint32_t, uint32_t, void *) -> int32_t { return 7; };
  ASSERT_EQ(geflowrtLaunchKernel(&k, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()),
            "kernel 'bad' on stream 0 failed in block 0/1: returned 7");
}

TEST(AclRt, SmallPresetIsSelectableByName) {
  ASSERT_EQ(geflowrtSetSoc("ascend310p-sim"), ACL_SUCCESS);
  {
    AclSession session;
    EXPECT_STREQ(aclrtGetSocName(), "Ascend310P-sim");
  }
  ASSERT_EQ(geflowrtSetSoc("ascend910b-sim"), ACL_SUCCESS);
}

extern "C" int geflowCApiHeaderIsC(void);

TEST(AclRt, HeaderCompilesAsC) {
  EXPECT_EQ(geflowCApiHeaderIsC(), GEFLOW_ENGINE_MIX +
                                       ACL_MEMCPY_DEVICE_TO_DEVICE +
                                       ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST(AclRt, CallbacksRunOnTheThreadThatProcessesReports) {
  AclSession session;
  aclrtStream s;
  ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  std::atomic<bool> stop{false};
  std::atomic<int> processed{0};
  pthread_t reporterId{};
  std::thread reporter([&] {
    while (!stop.load())
      if (aclrtProcessReport(10) == ACL_SUCCESS)
        ++processed;
  });
  reporterId = reporter.native_handle();
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(reporterId), s),
            ACL_SUCCESS);
  struct Seen {
    pthread_t thread{};
    int calls = 0;
  } seen;
  auto record = [](void *user) {
    auto *p = static_cast<Seen *>(user);
    p->thread = pthread_self();
    ++p->calls;
  };
  ASSERT_EQ(aclrtLaunchCallback(record, &seen, ACL_CALLBACK_BLOCK, s),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
  stop.store(true);
  reporter.join();
  EXPECT_EQ(seen.calls, 1);
  EXPECT_TRUE(pthread_equal(seen.thread, reporterId));
  EXPECT_GE(processed.load(), 1);
  ASSERT_EQ(aclrtUnSubscribeReport(static_cast<uint64_t>(reporterId), s),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}
