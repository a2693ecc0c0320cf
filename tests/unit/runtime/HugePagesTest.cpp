//===- HugePagesTest.cpp - huge-page mappings and the pool's segments
//------===//
#include "RuntimeTestUtil.h"

#include "runtime/memory/HugePages.h"

#include <cstdint>
#include <cstring>

using namespace geflow::rt;
using namespace geflow::rt::test;

namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
constexpr bool kAddressSanitizer = __has_feature(address_sanitizer);
#else
constexpr bool kAddressSanitizer = false;
#endif

bool onHugePageBoundary(const void *p) {
  return reinterpret_cast<uintptr_t>(p) % kHugePageBytes == 0;
}

TEST(HugePages, ExtentIsWholeHugePages) {
  EXPECT_EQ(hugePageExtent(1), kHugePageBytes);
  EXPECT_EQ(hugePageExtent(kHugePageBytes), kHugePageBytes);
  EXPECT_EQ(hugePageExtent(kHugePageBytes + 1), 2 * kHugePageBytes);
}

TEST(HugePages, MappingIsAlignedZeroedAndWritableToItsEnd) {
  const size_t bytes = 3 * kHugePageBytes + 12345;
  auto *p = static_cast<unsigned char *>(mapHugePages(bytes));
  if (kAddressSanitizer) {
    EXPECT_EQ(p, nullptr); // callers fall back to guarded malloc
    return;
  }
  ASSERT_NE(p, nullptr);
  EXPECT_TRUE(onHugePageBoundary(p));
  const size_t extent = hugePageExtent(bytes);
  for (size_t i = 0; i < extent; i += 4096)
    ASSERT_EQ(p[i], 0) << i;
  EXPECT_EQ(p[extent - 1], 0);
  std::memset(p, 0xab, extent);
  EXPECT_EQ(p[extent - 1], 0xab);
  unmapHugePages(p, bytes);
}

TEST(HugePages, PoolSegmentsOfAHugePageOrMoreAreHugePageMappings) {
  MemoryPool pool;
  void *big = nullptr, *small = nullptr;
  ASSERT_OK(pool.allocate(5 << 20, kNoStream, &big));
  ASSERT_OK(pool.allocate(1000, kNoStream, &small));
  if (!kAddressSanitizer)
    EXPECT_TRUE(onHugePageBoundary(big));
  std::memset(big, 1, 5 << 20);
  ASSERT_OK(pool.free(big));
  ASSERT_OK(pool.free(small));
  pool.releaseCached();
  EXPECT_EQ(pool.stats().reservedBytes, 0u);
}

} // namespace
