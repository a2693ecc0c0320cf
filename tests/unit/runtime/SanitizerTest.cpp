//===- SanitizerTest.cpp - The stream sanitizer on hand-built programs ----===//
//
// Two streams, a few kernels declaring what they read and write: the correct
// program is clean, and each seeded multi-stream bug is caught with both
// tasks, their streams, the buffer and the byte range named.
//
//===----------------------------------------------------------------------===//
#include "RuntimeTestUtil.h"

#include "acl/acl_rt.h"

#include <cstdlib>
#include <gmock/gmock.h>

namespace geflow::rt::test {
namespace {

using ::testing::HasSubstr;

constexpr size_t kBytes = 4096;

std::unique_ptr<Device> makeSanitizedDevice() {
  DeviceOptions opts;
  opts.spec = roundSpec();
  opts.workerThreads = 1;
  opts.sanitize = true;
  std::unique_ptr<Device> dev;
  Status st = Device::create(opts, &dev);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return dev;
}

/// A vector kernel declaring its accesses.
KernelLaunch touching(std::string name, std::vector<MemoryAccess> accesses) {
  KernelLaunch k = kernel(std::move(name), Engine::kAiv, 2, 1.0);
  k.accesses = std::move(accesses);
  return k;
}
MemoryAccess reads(void *p, uint64_t bytes = kBytes) {
  return {p, bytes, AccessMode::kRead};
}
MemoryAccess writes(void *p, uint64_t bytes = kBytes) {
  return {p, bytes, AccessMode::kWrite};
}

class SanitizerTest : public ::testing::Test {
protected:
  void SetUp() override {
    dev = makeSanitizedDevice();
    ASSERT_TRUE(createTwoStreamsAndEvent(*dev, &a, &b, &e).isOk());
    ASSERT_TRUE(dev->malloc(kBytes, &in).isOk());
    ASSERT_TRUE(dev->malloc(kBytes, &mid).isOk());
    ASSERT_TRUE(dev->malloc(kBytes, &out).isOk());
    host.assign(kBytes, 1);
    // The graph input arrives by copy, as the executor's input memcpy does.
    ASSERT_TRUE(dev->memcpyAsync(a, in, kBytes, host.data(), kBytes,
                                 MemcpyKind::kHostToDevice)
                    .isOk());
  }

  /// 'producer' on stream a writes mid; 'consumer' on stream b reads it.
  void produce() {
    ASSERT_TRUE(
        dev->launchKernel(a, touching("producer", {reads(in), writes(mid)}))
            .isOk());
  }
  void consume() {
    ASSERT_TRUE(
        dev->launchKernel(b, touching("consumer", {reads(mid), writes(out)}))
            .isOk());
  }
  std::vector<std::string> findings() { return dev->sanitizer()->findings(); }

  // Declared before the device so it outlives it: the device runs a test's
  // unsynchronized copy from it when it is destroyed.
  std::vector<uint8_t> host;
  std::unique_ptr<Device> dev;
  Stream *a = nullptr, *b = nullptr;
  Event *e = nullptr;
  void *in = nullptr, *mid = nullptr, *out = nullptr;
};

TEST_F(SanitizerTest, CorrectTwoStreamProgramIsClean) {
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  consume();
  Status st = dev->synchronizeDevice();
  EXPECT_TRUE(st.isOk()) << st.toString();
  EXPECT_TRUE(findings().empty());
  SanitizerStats stats = dev->sanitizer()->stats();
  EXPECT_EQ(stats.findings, 0u);
  EXPECT_EQ(stats.accessesChecked, 6u); // memcpy src+dst, 2 + 2 kernel ranges
}

TEST_F(SanitizerTest, DroppedWaitIsAReadAfterWrite) {
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  consume(); // no wait
  Status st = dev->synchronizeDevice();
  ASSERT_EQ(st.code(), StatusCode::kDataRace) << st.toString();
  EXPECT_THAT(st.message(), HasSubstr("stream sanitizer: 1 finding(s); first: "
                                      "read-after-write: 'consumer' (stream "));
  EXPECT_EQ(st.message().find('\n'), std::string::npos);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0],
              ::testing::MatchesRegex(
                  "read-after-write: 'consumer' \\(stream 2, task 1\\) reads "
                  "buffer 0x[0-9a-f]+ bytes \\[0, 4096\\) written by "
                  "'producer' \\(stream 1, task 2\\); no event orders them"));
  // Reported once: the next synchronize is clean again.
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
}

TEST_F(SanitizerTest, WaitOnTheWrongEventIsCaught) {
  Event *early = nullptr;
  ASSERT_TRUE(dev->createEvent(&early).isOk());
  ASSERT_TRUE(dev->recordEvent(early, a).isOk()); // before the producer
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, early).isOk());
  consume();
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0], HasSubstr("read-after-write: 'consumer'"));
}

TEST_F(SanitizerTest, WaitBindsToTheRecordBeforeIt) {
  // The same event recorded before and after the producer: a wait enqueued
  // between the two records waits for the first one only.
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  consume();
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0], HasSubstr("read-after-write"));
}

TEST_F(SanitizerTest, WaitEnqueuedBeforeItsRecordOrdersOnceTheRecordComes) {
  // b's wait binds to the first record to come; its consumer is checked
  // once a records it, after the producer.
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  consume();
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  Status st = dev->synchronizeDevice();
  EXPECT_TRUE(st.isOk()) << st.toString();
  EXPECT_TRUE(findings().empty());
}

TEST_F(SanitizerTest, WaitEnqueuedBeforeARecordThatPrecedesTheProducer) {
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  consume();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  produce();
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  std::vector<std::string> f = findings();
  ASSERT_FALSE(f.empty());
  EXPECT_THAT(f.back(), HasSubstr("write-after-read: 'producer' (stream 1, "
                                  "task 3) writes buffer"));
}

TEST_F(SanitizerTest, BufferReusedAcrossStreamsWithoutAnEvent) {
  // Stream a reads mid; stream b then overwrites mid (a memory plan reusing
  // it) with nothing ordering the read first.
  ASSERT_TRUE(dev->launchKernel(a, touching("writer", {writes(mid)})).isOk());
  ASSERT_TRUE(
      dev->launchKernel(a, touching("reader", {reads(mid), writes(out)}))
          .isOk());
  ASSERT_TRUE(
      dev->launchKernel(b, touching("reuser", {writes(mid, 1024)})).isOk());
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  std::vector<std::string> f = findings();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_THAT(f[0], ::testing::MatchesRegex(
                        "write-after-write: 'reuser' \\(stream 2, task 1\\) "
                        "writes buffer 0x[0-9a-f]+ bytes \\[0, 1024\\) also "
                        "written by 'writer' \\(stream 1, task 2\\).*"));
  EXPECT_THAT(f[1], HasSubstr("write-after-read: 'reuser' (stream 2, task 1) "
                              "writes buffer"));
  EXPECT_THAT(f[1], HasSubstr("bytes [0, 1024) read by 'reader' (stream 1, "
                              "task 3)"));
}

TEST_F(SanitizerTest, ReuseOrderedByAnEventIsClean) {
  ASSERT_TRUE(dev->launchKernel(a, touching("writer", {writes(mid)})).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("reader", {reads(mid)})).isOk());
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  ASSERT_TRUE(dev->launchKernel(b, touching("reuser", {writes(mid)})).isOk());
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
  EXPECT_TRUE(findings().empty());
}

TEST_F(SanitizerTest, UseAfterFreeAsync) {
  void *tmp = nullptr;
  ASSERT_TRUE(dev->mallocAsync(kBytes, a, &tmp).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("fill", {writes(tmp)})).isOk());
  ASSERT_TRUE(dev->freeAsync(tmp, a).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("late", {reads(tmp)})).isOk());
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0],
              ::testing::MatchesRegex(
                  "use-after-free: 'late' \\(stream 1, task 3\\) reads buffer "
                  "0x[0-9a-f]+ bytes \\[0, 4096\\) after 'freeAsync' \\(stream "
                  "1, task 2\\) freed it"));
}

TEST_F(SanitizerTest, FreeAsyncBeforeAnotherStreamIsDone) {
  void *tmp = nullptr;
  ASSERT_TRUE(dev->mallocAsync(kBytes, a, &tmp).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("fill", {writes(tmp)})).isOk());
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  ASSERT_TRUE(dev->launchKernel(b, touching("use", {reads(tmp)})).isOk());
  // Stream a frees without waiting for b's read.
  ASSERT_TRUE(dev->freeAsync(tmp, a).isOk());
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0],
              HasSubstr("free-while-in-use: 'freeAsync' (stream 1, task 3) "
                        "frees buffer"));
  EXPECT_THAT(findings()[0], HasSubstr("that 'use' (stream 2, task 2) "
                                       "accesses"));
}

TEST_F(SanitizerTest, ReadOfNeverWrittenMemory) {
  ASSERT_TRUE(
      dev->launchKernel(a, touching("reader", {reads(out, 64)})).isOk());
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0],
              ::testing::MatchesRegex(
                  "uninitialized-read: 'reader' \\(stream 1, task 2\\) reads "
                  "buffer 0x[0-9a-f]+ bytes \\[0, 64\\), which nothing wrote "
                  "since it was allocated"));
}

TEST_F(SanitizerTest, PartlyWrittenBufferNamesOnlyTheUnwrittenBytes) {
  ASSERT_TRUE(
      dev->launchKernel(a, touching("half", {writes(out, 1000)})).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("all", {reads(out)})).isOk());
  EXPECT_EQ(dev->synchronizeDevice().code(), StatusCode::kDataRace);
  ASSERT_EQ(findings().size(), 1u);
  EXPECT_THAT(findings()[0], HasSubstr("bytes [1000, 4096), which nothing"));
}

TEST_F(SanitizerTest, HostSynchronizeOrdersLaterTasks) {
  produce();
  ASSERT_TRUE(dev->synchronizeStream(a).isOk());
  consume(); // after the host saw the producer finish
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
  EXPECT_TRUE(findings().empty());
}

TEST_F(SanitizerTest, SynchronizingTheWaitingStreamCarriesTheEventJoin) {
  // b waited for a's producer; synchronizing b alone orders the producer
  // before whatever the host enqueues next, on any stream.
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  consume();
  ASSERT_TRUE(dev->synchronizeStream(b).isOk());
  ASSERT_TRUE(
      dev->launchKernel(b, touching("overwrite", {writes(mid)})).isOk());
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
  EXPECT_TRUE(findings().empty());
}

TEST_F(SanitizerTest, ConcurrentReadsAreNotRaces) {
  produce();
  ASSERT_TRUE(dev->recordEvent(e, a).isOk());
  ASSERT_TRUE(dev->streamWaitEvent(b, e).isOk());
  ASSERT_TRUE(dev->launchKernel(a, touching("r1", {reads(mid)})).isOk());
  ASSERT_TRUE(dev->launchKernel(b, touching("r2", {reads(mid)})).isOk());
  EXPECT_TRUE(dev->synchronizeDevice().isOk());
}

TEST_F(SanitizerTest, OffByDefaultAndOnWithTheEnvironment) {
  ::unsetenv("GEFLOW_SANITIZE"); // the suite may run under it
  std::unique_ptr<Device> plain = makeDevice();
  EXPECT_EQ(plain->sanitizer(), nullptr);
  ::setenv("GEFLOW_SANITIZE", "1", 1);
  std::unique_ptr<Device> fromEnv = makeDevice();
  ::unsetenv("GEFLOW_SANITIZE");
  EXPECT_NE(fromEnv->sanitizer(), nullptr);
}

TEST_F(SanitizerTest, ManyFindingsAreAllCountedAndListedUpToTheCap) {
  for (int i = 0; i < 8; ++i)
    ASSERT_TRUE(
        dev->launchKernel(i % 2 ? a : b,
                          touching("w" + std::to_string(i), {writes(mid, 16)}))
            .isOk());
  Status st = dev->synchronizeDevice();
  EXPECT_THAT(st.message(), HasSubstr("stream sanitizer: 7 finding(s)"));
  EXPECT_EQ(findings().size(), 7u);
}

TEST(SanitizerCApi, DeclaredAccessesOfAProgramWithoutTheWaitAreCaught) {
  // Any runtime program: GEFLOW_SANITIZE=1 when the device is set, kernels
  // declaring geflowrtKernelDesc::accesses, a wait left out.
  ::setenv("GEFLOW_SANITIZE", "1", 1);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  ::unsetenv("GEFLOW_SANITIZE");
  aclrtStream s1 = nullptr, s2 = nullptr;
  ASSERT_EQ(aclrtCreateStream(&s1), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
  void *buf = nullptr;
  ASSERT_EQ(aclrtMalloc(&buf, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  geflowrtMemoryAccess write = {buf, 256, GEFLOW_ACCESS_WRITE};
  geflowrtMemoryAccess read = {buf, 256, GEFLOW_ACCESS_READ};
  geflowrtKernelDesc k{};
  k.name = "fill";
  k.engine = GEFLOW_ENGINE_AIV;
  k.blockDim = 1;
  k.accesses = &write;
  k.numAccesses = 1;
  ASSERT_EQ(geflowrtLaunchKernel(&k, s1), ACL_SUCCESS);
  k.name = "use";
  k.accesses = &read;
  ASSERT_EQ(geflowrtLaunchKernel(&k, s2), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_FAILURE);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("read-after-write: 'use' (stream 2, task 1) reads "
                        "buffer"));
  EXPECT_EQ(aclrtFree(buf), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

} // namespace
} // namespace geflow::rt::test
