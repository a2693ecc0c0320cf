//===- MemoryPagesTest.cpp - huge pages, the pool's, pages given back ----===//
#include "RuntimeTestUtil.h"

#include "runtime/support/MemoryPages.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include <unistd.h>

using namespace geflow::rt;
using namespace geflow::rt::test;

namespace {

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
  if (!hugePageMappingsEnabled()) {
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
  if (!!hugePageMappingsEnabled())
    EXPECT_TRUE(onHugePageBoundary(big));
  std::memset(big, 1, 5 << 20);
  ASSERT_OK(pool.free(big));
  ASSERT_OK(pool.free(small));
  pool.releaseCached();
  EXPECT_EQ(pool.stats().reservedBytes, 0u);
}

TEST(MemoryPages, DropTakesOnlyThePagesWhollyInside) {
  // Anonymous pages given back read as zeros: the bytes of partial pages
  // at either end must keep their values.
  const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> buffer(8 * page, 0xab);
  unsigned char *base = buffer.data();
  unsigned char *aligned = reinterpret_cast<unsigned char *>(
      (reinterpret_cast<uintptr_t>(base) + page - 1) / page * page);
  unsigned char *from = aligned + 100; // ends in the page after the next 4
  const size_t bytes = 4 * page;
  dropPagesWithin(from, bytes);
  for (unsigned char *q = base; q < base + buffer.size(); ++q) {
    const bool inside = q >= aligned + page && q < aligned + 4 * page;
    ASSERT_EQ(*q, inside ? 0 : 0xab) << (q - aligned);
  }
}

} // namespace
