//===- RuntimeTestUtil.h - Small fixtures for runtime tests ---------------===//
#ifndef GEFLOW_TESTS_UNIT_RUNTIME_RUNTIMETESTUTIL_H
#define GEFLOW_TESTS_UNIT_RUNTIME_RUNTIMETESTUTIL_H

#include "runtime/Device.h"

#include <gtest/gtest.h>

namespace geflow::rt::test {

/// A chip with round numbers: 4 cube cores at 1000 FLOP/ns each, 8 vector
/// cores at 100 FLOP/ns each, no launch or event latency, so a test can say
/// "100 us" and mean it.
inline SocSpec roundSpec() {
  SocSpec s;
  s.source = "test-round";
  s.socVersion = "TestRound";
  s.aiCoreCnt = s.cubeCoreCnt = 4;
  s.vectorCoreCnt = 8;
  s.aiCpuCnt = 2;
  s.clockMhz = 1000;
  s.cubeFlopsPerCycle = 1000;
  s.vectorFlopsPerCycle = 100;
  s.aiCpuFlopsPerCycle = 10;
  s.dvppCoreCnt = 2;
  s.dvppFlopsPerCycle = 100;
  s.hbmBandwidthGBps = 1e6;
  s.hostLinkBandwidthGBps = 1; // 1 byte/ns: 1000 bytes take 1 us
  s.launchLatencyUs = 0;
  s.eventLatencyUs = 0;
  return s;
}

inline std::unique_ptr<Device> makeDevice(SocSpec spec = roundSpec(),
                                          uint64_t memLimit = 0) {
  DeviceOptions opts;
  opts.spec = spec;
  opts.memoryLimitBytes = memLimit;
  opts.trace = true;
  opts.workerThreads = 2;
  std::unique_ptr<Device> dev;
  Status st = Device::create(opts, &dev);
  EXPECT_TRUE(st.isOk()) << st.toString();
  return dev;
}

/// Two priority-0 streams and one event on `dev`: how every cross-stream test
/// starts.
inline Status createTwoStreamsAndEvent(Device &dev, Stream **a, Stream **b,
                                       Event **e) {
  GEFLOW_RT_RETURN_IF_ERROR(dev.createStream(0, a));
  GEFLOW_RT_RETURN_IF_ERROR(dev.createStream(0, b));
  return dev.createEvent(e);
}

/// A kernel whose every block takes `usPerBlock` on the round spec.
inline KernelLaunch kernel(std::string name, Engine e, uint32_t blockDim,
                           double usPerBlock, KernelFn fn = nullptr) {
  double perNs = e == Engine::kAic ? 1000 : e == Engine::kAiv ? 100 : 10;
  if (e == Engine::kDvpp)
    perNs = 100;
  KernelLaunch k;
  k.name = std::move(name);
  k.engine = e;
  k.blockDim = blockDim;
  k.cost.flops = blockDim * usPerBlock * 1000.0 * perNs;
  k.fn = std::move(fn);
  return k;
}

inline double us(VirtualNs ns) { return static_cast<double>(ns) / 1000.0; }

/// The trace record of the kernel called `name`.
inline TaskRecord recordOf(Device &dev, const std::string &name) {
  for (const TaskRecord &r : dev.traceRecords())
    if (r.name == name)
      return r;
  ADD_FAILURE() << "no trace record for '" << name << "'";
  return TaskRecord();
}

} // namespace geflow::rt::test

#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    ::geflow::rt::Status _s = (expr);                                          \
    ASSERT_TRUE(_s.isOk()) << _s.toString();                                   \
  } while (false)

#endif
