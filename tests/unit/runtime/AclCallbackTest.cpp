//===- AclCallbackTest.cpp - Callbacks as CANN runs them ------------------===//
//
// What CANN programs do inside callbacks (copy results back, synchronize
// other streams), the two block types, host functions, and the failures that
// must be reported instead of hanging.
//
//===----------------------------------------------------------------------===//
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

/// A thread that serves report callbacks until stopped, as the samples'
/// ProcessCallback does.
class ReportThread {
public:
  ReportThread()
      : thread_([this] {
          while (!stop_.load())
            (void)aclrtProcessReport(20);
        }) {}
  ~ReportThread() { stop(); }
  void stop() {
    stop_.store(true);
    if (thread_.joinable())
      thread_.join();
  }
  uint64_t id() { return static_cast<uint64_t>(thread_.native_handle()); }

private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// A stream subscribed to a thread that has exited: its callbacks will
/// never be served. *threadId gets the thread's id.
aclrtStream streamOfAnExitedReportThread(uint64_t *threadId) {
  aclrtStream stream = nullptr;
  EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::thread gone([] {});
  *threadId = static_cast<uint64_t>(gone.native_handle());
  gone.join();
  EXPECT_EQ(aclrtSubscribeReport(*threadId, stream), ACL_SUCCESS);
  return stream;
}

struct CopyBack {
  const float *device = nullptr;
  std::vector<float> host;
  aclError err = -1;
  uint64_t thread = 0;
};

void copyBackInCallback(void *user) {
  auto *c = static_cast<CopyBack *>(user);
  c->thread = static_cast<uint64_t>(pthread_self());
  c->err = aclrtMemcpy(c->host.data(), c->host.size() * 4, c->device,
                       c->host.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST);
}

} // namespace

// The async sample's callback: a synchronous device-to-host copy of the
// outputs that were enqueued before it, on the subscribed thread.
TEST(AclCallback, SynchronousCopyInsideASubscribedCallback) {
  AclSession session;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float> src(256);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = float(i);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dev, 1024, src.data(), 1024,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  ReportThread reports;
  ASSERT_EQ(aclrtSubscribeReport(reports.id(), stream), ACL_SUCCESS);
  CopyBack c;
  c.device = static_cast<const float *>(dev);
  c.host.assign(256, -1.f);
  ASSERT_EQ(
      aclrtLaunchCallback(copyBackInCallback, &c, ACL_CALLBACK_BLOCK, stream),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(c.err, ACL_SUCCESS);
  EXPECT_EQ(c.thread, reports.id());
  EXPECT_EQ(c.host, src);
  EXPECT_EQ(aclrtUnSubscribeReport(reports.id(), stream), ACL_SUCCESS);
  reports.stop();
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

namespace {
struct SyncOther {
  aclrtStream other = nullptr;
  void *dst = nullptr;
  aclError err = -1;
};
void synchronizeOtherStream(void *user) {
  auto *s = static_cast<SyncOther *>(user);
  s->err = aclrtSynchronizeStream(s->other);
}
} // namespace

// A callback that waits for another stream's work: the device runs that
// stream while the callback's own stream holds.
TEST(AclCallback, CallbackMaySynchronizeAnotherStream) {
  AclSession session;
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  void *dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(dev, 64, 7, 64, b), ACL_SUCCESS);
  SyncOther s;
  s.other = b;
  ReportThread reports;
  ASSERT_EQ(aclrtSubscribeReport(reports.id(), a), ACL_SUCCESS);
  ASSERT_EQ(
      aclrtLaunchCallback(synchronizeOtherStream, &s, ACL_CALLBACK_BLOCK, a),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtUnSubscribeReport(reports.id(), a), ACL_SUCCESS);
  EXPECT_EQ(s.err, ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(static_cast<unsigned char *>(dev)[63], 7);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// A stream subscribed to a thread that never calls aclrtProcessReport (it
// has exited): the synchronize reports a deadlock naming the thread within
// a second instead of waiting for ever.
TEST(AclCallback, CallbackForAThreadThatNeverServesIsADeadlock) {
  AclSession session;
  uint64_t tid = 0;
  aclrtStream stream = streamOfAnExitedReportThread(&tid);
  int calls = 0;
  ASSERT_EQ(aclrtLaunchCallback([](void *u) { ++*static_cast<int *>(u); },
                                &calls, ACL_CALLBACK_BLOCK, stream),
            ACL_SUCCESS);
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(aclrtSynchronizeStream(stream), GEFLOW_ERROR_RT_DEADLOCK);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
  std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find("waits for host thread " + std::to_string(tid)),
            std::string::npos)
      << msg;
  EXPECT_EQ(calls, 0);
}

// Model-style work (aclrtLaunchHostFunc) on a subscribed stream never waits
// for the report thread: a program that subscribed a thread and then stopped
// serving (the async sample with no callbacks) still synchronizes.
TEST(AclCallback, HostFunctionsDoNotNeedTheReportThread) {
  AclSession session;
  uint64_t tid = 0;
  aclrtStream stream = streamOfAnExitedReportThread(&tid);
  int calls = 0;
  for (int i = 0; i < 4; ++i)
    ASSERT_EQ(aclrtLaunchHostFunc(
                  stream, [](void *u) { ++*static_cast<int *>(u); }, &calls),
              ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(calls, 4);
}

namespace {
struct Gate {
  std::atomic<bool> open{false};
  std::atomic<bool> ran{false};
};
void waitAtGate(void *user) {
  auto *g = static_cast<Gate *>(user);
  while (!g->open.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  g->ran.store(true);
}
} // namespace

// ACL_CALLBACK_NO_BLOCK: the stream goes on while the report thread has not
// run the callback yet; ACL_CALLBACK_BLOCK holds it.
TEST(AclCallback, NonBlockingCallbackLetsTheStreamGoOn) {
  AclSession session;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ReportThread reports;
  ASSERT_EQ(aclrtSubscribeReport(reports.id(), stream), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(
      aclrtLaunchCallback(waitAtGate, &gate, ACL_CALLBACK_NO_BLOCK, stream),
      ACL_SUCCESS);
  char byte = 0;
  ASSERT_EQ(aclrtMemsetAsync(&byte, 1, 5, 1, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(byte, 5);
  EXPECT_FALSE(gate.ran.load());
  gate.open.store(true);
  while (!gate.ran.load())
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(aclrtUnSubscribeReport(reports.id(), stream), ACL_SUCCESS);
}

// CANN's codes: a callback needs a subscribed thread, a thread needs a
// subscribed stream, and a timeout is > 0 or -1.
TEST(AclCallback, ReportErrorsHaveCannsCodes) {
  AclSession session;
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(
      aclrtLaunchCallback([](void *) {}, nullptr, ACL_CALLBACK_BLOCK, stream),
      ACL_ERROR_RT_STREAM_NO_CB_REG);
  EXPECT_EQ(aclrtProcessReport(5), ACL_ERROR_RT_THREAD_SUBSCRIBE);
  EXPECT_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtSubscribeReport(static_cast<uint64_t>(pthread_self()), stream),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtProcessReport(5), ACL_ERROR_RT_REPORT_TIMEOUT);
  EXPECT_EQ(aclrtLaunchCallback([](void *) {}, nullptr,
                                static_cast<aclrtCallbackBlockType>(9), stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(
      aclrtUnSubscribeReport(static_cast<uint64_t>(pthread_self()), stream),
      ACL_SUCCESS);
}

namespace {
struct CopyFromKernel {
  std::vector<float> src = std::vector<float>(1000, 3.f);
  std::vector<float> dst = std::vector<float>(1000, 0.f);
  aclError err = -1;
};
int32_t copyInsideKernel(uint32_t, uint32_t, void *user) {
  auto *c = static_cast<CopyFromKernel *>(user);
  c->err = aclrtMemcpy(c->dst.data(), 4000, c->src.data(), 4000,
                       ACL_MEMCPY_DEVICE_TO_HOST);
  return 0;
}
} // namespace

// A synchronous copy that is refused must leave nothing queued. Refused
// after its task was queued, the copy ran at a later synchronize (at the
// latest, the device's reset) into a host buffer the program had freed on
// seeing the error: the heap corruption that crashed ResNet programs in
// Device::~Device.
TEST(AclCallback, RefusedSynchronousCopyLeavesNothingQueued) {
  AclSession session;
  CopyFromKernel c;
  geflowrtKernelDesc k{};
  k.name = "copies";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 1;
  k.func = copyInsideKernel;
  k.userData = &c;
  ASSERT_EQ(geflowrtLaunchKernel(&k, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(c.err, ACL_ERROR_FAILURE);
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(c.dst[999], 0.f) << "the refused copy ran later";
}
