//===- PanelStorage.cpp - float storage for packed GEMM operands ----------===//

#include "executor/kernels/gemm/PanelStorage.h"

#include "runtime/support/MemoryPages.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>

namespace geflow::kernels::nn {
namespace {

/// Storage of this size or more comes from the arena; below it, malloc.
constexpr size_t kArenaMinBytes = size_t(64) << 10;
/// An arena chunk: many layers' panels share one run of huge pages.
constexpr size_t kChunkBytes = size_t(32) << 20;

size_t roundUp(size_t n, size_t to) { return (n + to - 1) / to * to; }

/// A run of huge pages that storages are carved from in order; it is
/// unmapped when the last of them is released. Space a storage gave back
/// is not reused before then: packed weights live as long as their model.
struct Chunk {
  char *base = nullptr;
  size_t bytes = 0;
  size_t used = 0; // bytes carved so far
  size_t live = 0; // storages still holding a part
};

/// The process's chunks; a bump allocator under one lock (kernels are
/// created on several threads, and packing happens once per model).
class PanelArena {
public:
  static PanelArena &instance() {
    static PanelArena arena;
    return arena;
  }

  /// `bytes` of zeroed memory, 64-byte aligned, and the chunk it is in;
  /// null when no mapping can be had.
  char *allocate(size_t bytes, Chunk **owner) {
    bytes = roundUp(bytes, 64);
    std::lock_guard<std::mutex> lock(mu_);
    if (!current_ || current_->bytes - current_->used < bytes) {
      const size_t size = std::max(kChunkBytes, rt::hugePageExtent(bytes));
      char *base = static_cast<char *>(rt::mapHugePages(size));
      if (!base)
        return nullptr;
      // The chunk it replaces goes with its last storage (release()).
      current_ = new Chunk{base, size, 0, 0};
    }
    char *p = current_->base + current_->used;
    current_->used += bytes;
    ++current_->live;
    *owner = current_;
    return p;
  }

  /// Gives back `bytes` at `p` in `chunk`. While other storages keep the
  /// chunk, the pages wholly inside this one go back to the system (a
  /// model unloaded beside a long-lived storage must not stay resident).
  void release(Chunk *chunk, char *p, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (--chunk->live == 0) {
      if (chunk == current_)
        current_ = nullptr;
      unmap(chunk);
      return;
    }
    rt::dropPagesWithin(p, bytes);
  }

private:
  static void unmap(Chunk *chunk) {
    rt::unmapHugePages(chunk->base, chunk->bytes);
    delete chunk;
  }

  std::mutex mu_;
  Chunk *current_ = nullptr; // guarded by mu_
};

} // namespace

PanelStorage::PanelStorage(PanelStorage &&other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      chunk_(std::exchange(other.chunk_, nullptr)) {}

PanelStorage &PanelStorage::operator=(PanelStorage &&other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    chunk_ = std::exchange(other.chunk_, nullptr);
  }
  return *this;
}

void PanelStorage::resize(size_t count) {
  if (count <= capacity_) {
    size_ = count;
    return;
  }
  release();
  allocate(count);
}

void PanelStorage::allocate(size_t count) {
  if (count == 0)
    return;
  const size_t bytes = count * sizeof(float);
  if (bytes >= kArenaMinBytes) {
    Chunk *chunk = nullptr;
    if (char *p = PanelArena::instance().allocate(bytes, &chunk)) {
      data_ = reinterpret_cast<float *>(p);
      chunk_ = chunk;
    }
  }
  if (!data_) {
    void *p = std::aligned_alloc(64, roundUp(bytes, 64));
    if (!p)
      throw std::bad_alloc();
    std::memset(p, 0, bytes);
    data_ = static_cast<float *>(p);
  }
  size_ = capacity_ = count;
}

void PanelStorage::release() {
  if (chunk_)
    PanelArena::instance().release(static_cast<Chunk *>(chunk_),
                                   reinterpret_cast<char *>(data_),
                                   capacity_ * sizeof(float));
  else
    std::free(data_);
  data_ = nullptr;
  chunk_ = nullptr;
  size_ = capacity_ = 0;
}

} // namespace geflow::kernels::nn
