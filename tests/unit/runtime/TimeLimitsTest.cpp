//===- TimeLimitsTest.cpp - costs and block_dims at the edge of the model
//--===//
//
// Found by tests/fuzz (geflow-fuzz-runtime): a finite but huge cost priced a
// kernel past int64 nanoseconds (signed overflow in the scheduler), and a
// cost-only kernel with block_dim 4e9 was simulated wave by wave for hours.
//
//===----------------------------------------------------------------------===//
#include "RuntimeTestUtil.h"

using namespace geflow::rt;
using namespace geflow::rt::test;

TEST(TimeLimits, ConversionSaturatesAndDropsNonsense) {
  EXPECT_EQ(toVirtualNs(1.4), 1);
  EXPECT_EQ(toVirtualNs(-5), 0);
  EXPECT_EQ(toVirtualNs(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(toVirtualNs(1e300), kMaxVirtualNs);
  EXPECT_EQ(addNs(kMaxVirtualNs - 1, 2), kMaxVirtualNs);
  EXPECT_EQ(mulNs(kMaxVirtualNs / 2, 3), kMaxVirtualNs);
  EXPECT_EQ(mulNs(7, 6), 42);
}

TEST(TimeLimits, CostPastRepresentableTimeEndsAtTheLastNanosecond) {
  auto dev = makeDevice();
  Stream *s = nullptr;
  ASSERT_OK(dev->createStream(0, &s));
  // 1e30 FLOPs at 1000 FLOP/ns is 1e27 ns, beyond int64; so are four waves.
  KernelLaunch huge = kernel("huge", Engine::kAic, 16, 10);
  huge.cost.flops = 1e30;
  ASSERT_OK(dev->launchKernel(s, huge));
  ASSERT_OK(dev->launchKernel(s, kernel("after", Engine::kAiv, 1, 10)));
  ASSERT_OK(dev->synchronizeStream(s));
  EXPECT_EQ(recordOf(*dev, "huge").endNs, kMaxVirtualNs);
  EXPECT_EQ(recordOf(*dev, "after").endNs, kMaxVirtualNs);
  EXPECT_EQ(dev->now(), kMaxVirtualNs);
}

TEST(TimeLimits, BlockDimBeyondTheLimitIsRejected) {
  auto dev = makeDevice();
  KernelLaunch wide = kernel("wide", Engine::kAic, kMaxBlockDim + 1, 10);
  Status st = dev->launchKernel(nullptr, wide);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "launch kernel 'wide': block_dim 65536 exceeds 65535");
  ASSERT_OK(dev->launchKernel(
      nullptr, kernel("widest", Engine::kAic, kMaxBlockDim, 10)));
  ASSERT_OK(dev->synchronizeStream(nullptr));
}
