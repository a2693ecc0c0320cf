//===- AclContextTest.cpp - Contexts, run mode, memset, memory, acl.json --===//
#include "acl/acl_rt.h"
#include "tests/unit/runtime/AclSession.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

std::string writeTemp(const std::string &text) {
  char path[] = "/tmp/geflow-acl-json-XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, text.data(), text.size()), ssize_t(text.size()));
  close(fd);
  return path;
}

} // namespace

TEST(AclContext, CreatedContextIsCurrentAndOwnsItsStreamsAndMemory) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext def = nullptr, made = nullptr, cur = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&def), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&made, 0), ACL_SUCCESS);
  EXPECT_NE(made, def);
  ASSERT_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS);
  EXPECT_EQ(cur, made);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void *mem = nullptr;
  ASSERT_EQ(aclrtMalloc(&mem, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(mem, 1 << 20, 1, 1 << 20, stream), ACL_SUCCESS);
  geflowrtMemoryStats before{};
  ASSERT_EQ(geflowrtGetMemoryStats(&before), ACL_SUCCESS);
  // Destroying the context waits for its stream and frees its memory.
  ASSERT_EQ(aclrtDestroyContext(made), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char *>(mem)[(1 << 20) - 1], 1);
  EXPECT_NE(aclrtSetCurrentContext(made), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(def), ACL_SUCCESS);
  geflowrtMemoryStats after{};
  ASSERT_EQ(geflowrtGetMemoryStats(&after), ACL_SUCCESS);
  EXPECT_GE(before.inUseBytes - after.inUseBytes, uint64_t(1) << 20);
  // The default context ends with the device, not with DestroyContext.
  EXPECT_EQ(aclrtDestroyContext(def), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Contexts on two devices used by two threads at once, each thread making
// its context current, as a program with one worker per card does.
TEST(AclContext, ContextsOnSeveralThreads) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  aclrtContext ctx[2] = {nullptr, nullptr};
  ASSERT_EQ(aclrtCreateContext(&ctx[0], 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&ctx[1], 1), ACL_SUCCESS);
  std::vector<std::thread> threads;
  int32_t seen[4] = {-1, -1, -1, -1};
  aclError errs[4] = {-1, -1, -1, -1};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      aclError e = aclrtSetCurrentContext(ctx[t % 2]);
      aclrtStream s = nullptr;
      if (e == ACL_SUCCESS)
        e = aclrtCreateStream(&s);
      std::vector<int> data(1000, 0);
      if (e == ACL_SUCCESS)
        e = aclrtMemsetAsync(data.data(), data.size() * 4, 0x7f,
                             data.size() * 4, s);
      if (e == ACL_SUCCESS)
        e = aclrtSynchronizeStream(s);
      if (e == ACL_SUCCESS)
        e = aclrtDestroyStream(s);
      if (e == ACL_SUCCESS)
        e = aclrtGetDevice(&seen[t]);
      if (e == ACL_SUCCESS && data[999] != 0x7f7f7f7f)
        e = ACL_ERROR_FAILURE;
      errs[t] = e;
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(errs[t], ACL_SUCCESS) << "thread " << t;
    EXPECT_EQ(seen[t], t % 2);
  }
  EXPECT_EQ(aclrtDestroyContext(ctx[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(ctx[1]), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// Each aclrtSetDevice counts; the device ends with the last reset.
TEST(AclContext, ResetDeviceCountsSetDevice) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS); // still alive
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDeviceForce(1), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclContext, RunModeDeviceCountMemsetAndMemInfo) {
  AclSession session;
  aclrtRunMode mode = ACL_DEVICE;
  ASSERT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 8u);
  ASSERT_EQ(geflowrtSetMemoryLimit(64 << 20), ACL_SUCCESS);
  void *mem = nullptr;
  ASSERT_EQ(aclrtMalloc(&mem, 4 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(mem, 4 << 20, 0xab, 4 << 20), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char *>(mem)[12345], 0xab);
  EXPECT_EQ(aclrtMemset(mem, 16, 0, 17), ACL_ERROR_INVALID_PARAM);
  size_t freeBytes = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &freeBytes, &total), ACL_SUCCESS);
  EXPECT_EQ(total, size_t(64) << 20);
  EXPECT_LE(freeBytes, total - (size_t(4) << 20));
  EXPECT_EQ(aclrtFree(mem), ACL_SUCCESS);
}

TEST(AclContext, AclJsonIsReadUnknownKeysIgnoredMalformedRefused) {
  std::string ok = writeTemp(R"({"dump": {"dump_path": "/tmp"}, "x": 1})");
  EXPECT_EQ(aclInit(ok.c_str()), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  std::string empty = writeTemp("");
  EXPECT_EQ(aclInit(empty.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  std::string bad = writeTemp("{\"dump\": ");
  EXPECT_EQ(aclInit(bad.c_str()), ACL_ERROR_PARSE_FILE);
  std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(bad), std::string::npos) << msg;
  EXPECT_NE(msg.find("malformed JSON"), std::string::npos) << msg;
  EXPECT_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
  for (const std::string &p : {ok, empty, bad})
    std::remove(p.c_str());
}
