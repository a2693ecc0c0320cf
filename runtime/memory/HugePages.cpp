//===- HugePages.cpp - zeroed mappings in transparent huge pages ----------===//
#include "runtime/memory/HugePages.h"

#include <cstdint>

#include <sys/mman.h>

namespace geflow::rt {

size_t hugePageExtent(size_t bytes) {
  return (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

void *mapHugePages(size_t bytes) {
#if defined(__SANITIZE_ADDRESS__) || defined(__has_feature)
#if defined(__SANITIZE_ADDRESS__) || __has_feature(address_sanitizer)
  // Callers fall back to malloc, whose blocks AddressSanitizer guards.
  return nullptr;
#endif
#endif
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

} // namespace geflow::rt
