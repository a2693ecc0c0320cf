//===- MemoryPages.h - huge-page mappings, and pages given back -*- C++ -*-===//
//
// A model's weights and activations are touched on every run. In 4 KiB
// pages, first touching them costs a page fault per page (11 us each in
// the VMs we run on: 1.5 s for 512 MiB), and in such a VM a process's
// first runs and then odd runs long after took two to four times as long
// (ResNet-50: 284 ms against 38); in 2 MiB pages neither happened.
// Mappings from here start on a 2 MiB boundary and are advised as
// transparent huge pages (MADV_HUGEPAGE: the kernel falls back to small
// pages when it has none). They come zeroed.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SUPPORT_MEMORYPAGES_H
#define GEFLOW_RUNTIME_SUPPORT_MEMORYPAGES_H

#include <cstddef>

namespace geflow::rt {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;

/// `bytes` rounded up to a whole number of huge pages.
size_t hugePageExtent(size_t bytes);

/// False under AddressSanitizer: callers then keep malloc, whose redzones
/// it guards.
bool hugePageMappingsEnabled();

/// hugePageExtent(bytes) of zeroed memory at a huge page boundary; null
/// when the system has no such mapping to give, or !hugePageMappingsEnabled().
void *mapHugePages(size_t bytes);

/// Gives back a mapping of mapHugePages(bytes).
void unmapHugePages(void *p, size_t bytes);

/// Gives the pages wholly inside [p, p + bytes) back to the system
/// (MADV_DONTNEED): anonymous memory reads back as zeros, a private file
/// mapping as the file's bytes. The caller no longer needs what they hold.
void dropPagesWithin(const void *p, size_t bytes);

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SUPPORT_MEMORYPAGES_H
