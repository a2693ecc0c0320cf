//===- PanelStorageTest.cpp - storage of packed operands
//-------------------===//
//
// Packed weights share huge-page chunks (PanelStorage.h): each storage must
// come zeroed and 64-byte aligned, never overlap another one in the same
// chunk, keep its values when it shrinks, and give its chunk back when the
// last storage in it goes.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/gemm/PanelStorage.h"
#include "runtime/support/MemoryPages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

using geflow::kernels::nn::PanelStorage;

namespace {

bool allZero(const PanelStorage &s) {
  for (float v : s)
    if (v != 0.0f)
      return false;
  return true;
}

bool aligned64(const float *p) {
  return reinterpret_cast<uintptr_t>(p) % 64 == 0;
}

TEST(PanelStorage, ComesZeroedAndAlignedAtEverySize) {
  // Below the arena's 64 KiB, one storage in a chunk, several in one chunk,
  // and one larger than a chunk.
  for (size_t count : {size_t(1), size_t(1000), size_t(16) << 10,
                       size_t(600) << 10, size_t(9) << 20}) {
    PanelStorage s(count);
    ASSERT_EQ(s.size(), count);
    EXPECT_TRUE(aligned64(s.data())) << count;
    EXPECT_TRUE(allZero(s)) << count;
  }
}

TEST(PanelStorage, StoragesInOneChunkDoNotOverlap) {
  // Many mid-sized storages, as a model's layers have, each filled with its
  // own index: a storage overlapping its neighbour overwrites its values.
  std::vector<PanelStorage> layers;
  for (int i = 0; i < 40; ++i) {
    layers.emplace_back(size_t(100000 + 4096 * i));
    for (float &v : layers.back())
      v = static_cast<float>(i + 1);
  }
  for (int i = 0; i < 40; ++i) {
    EXPECT_TRUE(aligned64(layers[i].data())) << i;
    for (float v : layers[i])
      ASSERT_EQ(v, static_cast<float>(i + 1)) << "storage " << i;
  }
}

TEST(PanelStorage, FreedChunksAreMappedAgainZeroed) {
  // Filling storages, dropping them all, and allocating again must give
  // zeros, not the old values (a reused chunk would still hold them).
  for (int round = 0; round < 3; ++round) {
    std::vector<PanelStorage> layers;
    for (int i = 0; i < 12; ++i) {
      layers.emplace_back(size_t(3) << 20); // 12 MiB each: a chunk apiece
      EXPECT_TRUE(allZero(layers.back())) << "round " << round << " " << i;
      for (float &v : layers.back())
        v = 7.0f;
    }
  }
}

TEST(PanelStorage, ResizeKeepsValuesWithinCapacityAndRegrowsZeroed) {
  PanelStorage s(size_t(50) << 10);
  for (float &v : s)
    v = 3.0f;
  float *before = s.data();
  s.resize(size_t(20) << 10);
  EXPECT_EQ(s.data(), before);
  EXPECT_EQ(s.size(), size_t(20) << 10);
  for (float v : s)
    ASSERT_EQ(v, 3.0f);
  s.resize(size_t(1) << 20);
  EXPECT_EQ(s.size(), size_t(1) << 20);
  EXPECT_TRUE(allZero(s));
}

TEST(PanelStorage, MoveHandsOverTheStorage) {
  PanelStorage a(size_t(200) << 10);
  a.data()[5] = 2.0f;
  const float *p = a.data();
  PanelStorage b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.data()[5], 2.0f);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.size(), 0u);
  PanelStorage c(10);
  c = std::move(b);
  EXPECT_EQ(c.data(), p);
  EXPECT_EQ(c.size(), size_t(200) << 10);
  EXPECT_EQ(b.data(), nullptr);
}

/// How many of the 4 KiB pages wholly inside [p, p + bytes) are resident.
size_t residentPages(const void *p, size_t bytes) {
  const uintptr_t page = 4096;
  const uintptr_t begin =
      (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) / page * page;
  std::vector<unsigned char> in((end - begin) / page);
  EXPECT_EQ(::mincore(reinterpret_cast<void *>(begin), end - begin, in.data()),
            0);
  size_t resident = 0;
  for (unsigned char c : in)
    resident += c & 1;
  return resident;
}

TEST(PanelStorage, ReleasedStorageLeavesMemoryWhileItsChunkLives) {
  // A model's weights released beside a storage that keeps their chunk
  // (another model's, a thread's scratch) must not stay resident.
  PanelStorage keeper(size_t(32) << 10); // 128 KiB: in the arena
  PanelStorage weights(size_t(1) << 20); // 4 MiB after it, same chunk
  if (!geflow::rt::hugePageMappingsEnabled()) {
    EXPECT_FALSE(weights.inHugePages()); // malloc, for ASan's redzones
    return;
  }
  ASSERT_TRUE(keeper.inHugePages());
  ASSERT_TRUE(weights.inHugePages());
  for (float &v : weights)
    v = 1.0f;
  const float *p = weights.data();
  const size_t bytes = weights.size() * sizeof(float);
  EXPECT_GT(residentPages(p, bytes), 1000u);
  weights = PanelStorage();
  EXPECT_EQ(residentPages(p, bytes), 0u);
  keeper.data()[0] = 2.0f; // the chunk is still mapped
  EXPECT_EQ(keeper.data()[0], 2.0f);
}

} // namespace
