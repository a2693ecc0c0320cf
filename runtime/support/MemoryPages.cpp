//===- MemoryPages.cpp - huge-page mappings, and pages given back ---------===//
#include "runtime/support/MemoryPages.h"

#include <cstdint>

#include <sys/mman.h>
#include <unistd.h>

namespace geflow::rt {

size_t hugePageExtent(size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

bool hugePageMappingsEnabled() {
#if defined(__SANITIZE_ADDRESS__) // GCC
  return false;
#elif defined(__has_feature)
  return !__has_feature(address_sanitizer); // Clang
#else
  return true;
#endif
}

void *mapHugePages(size_t bytes) {
  if (!hugePageMappingsEnabled())
    return nullptr;
  bytes = hugePageExtent(bytes);
  // mmap promises page alignment only: map one huge page more, then trim.
  void *raw = ::mmap(nullptr, bytes + kHugePageBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED)
    return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = hugePageExtent(start);
  if (aligned > start)
    ::munmap(raw, aligned - start);
  if (const size_t tail = kHugePageBytes - (aligned - start))
    ::munmap(reinterpret_cast<void *>(aligned + bytes), tail);
  void *p = reinterpret_cast<void *>(aligned);
#ifdef MADV_HUGEPAGE
  ::madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

void unmapHugePages(void *p, size_t bytes) {
  if (p)
    ::munmap(p, hugePageExtent(bytes));
}

void dropPagesWithin(const void *p, size_t bytes) {
  const uintptr_t page = uintptr_t(::sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<uintptr_t>(p);
  const uintptr_t begin = (at + page - 1) / page * page;
  const uintptr_t end = (at + bytes) / page * page;
  if (end > begin)
    ::madvise(reinterpret_cast<void *>(begin), end - begin, MADV_DONTNEED);
}

} // namespace geflow::rt
