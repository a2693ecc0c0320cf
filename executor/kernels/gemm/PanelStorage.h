//===- PanelStorage.h - float storage for packed GEMM operands --*- C++ -*-===//
//
// A model's packed weights are its largest buffers (ViT-B/16: 346 MB) and
// every run reads all of them. In 4 KiB pages that is 88k page faults at
// load, each of which costs 11 us in the VMs we run on (a 512 MiB memset:
// 1.5 s), and 88k translations for the hypervisor to build again in each
// new process (ViT's first runs took 230-800 ms against 187). Storage of
// 64 KiB or more is therefore carved from 32 MiB chunks mapped 2 MiB
// aligned and advised as transparent huge pages (MADV_HUGEPAGE; the kernel
// falls back to small pages when it has none); the chunks come zeroed, so
// no memset touches them first, and many layers share a huge page instead
// of each rounding up to one. Smaller storage is a 64-byte aligned
// allocation, zero-filled.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_GEMM_PANELSTORAGE_H
#define GEFLOW_EXECUTOR_KERNELS_GEMM_PANELSTORAGE_H

#include <cstddef>

namespace geflow::kernels::nn {

/// A zero-filled float array that owns its memory; move-only.
class PanelStorage {
public:
  PanelStorage() = default;
  explicit PanelStorage(size_t count) { allocate(count); }
  PanelStorage(PanelStorage &&other) noexcept;
  PanelStorage &operator=(PanelStorage &&other) noexcept;
  PanelStorage(const PanelStorage &) = delete;
  PanelStorage &operator=(const PanelStorage &) = delete;
  ~PanelStorage() { release(); }

  /// `count` floats; what was stored is kept only when count fits the
  /// current capacity (per-run scratch reuses its storage), else all zeros.
  void resize(size_t count);

  float *data() { return data_; }
  const float *data() const { return data_; }
  size_t size() const { return size_; }
  float *begin() { return data_; }
  float *end() { return data_ + size_; }
  const float *begin() const { return data_; }
  const float *end() const { return data_ + size_; }
  /// Whether the storage is in the huge-page arena (not under ASan).
  bool inHugePages() const { return chunk_ != nullptr; }

private:
  void allocate(size_t count);
  void release();

  float *data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  void *chunk_ = nullptr; // the arena chunk data_ is in; null: malloc
};

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_GEMM_PANELSTORAGE_H
