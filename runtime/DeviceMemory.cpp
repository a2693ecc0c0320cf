//===- DeviceMemory.cpp - Device malloc/free, sync and stream-ordered ----===//
#include "runtime/Device.h"

#include <cstdlib>

namespace geflow::rt {

Status Device::malloc(size_t size, void **out) {
  Status st = pool_.allocate(size, kNoStream, out);
  if (st.isOk() && sanitizer_)
    sanitizer_->onAllocate(*out, size);
  return st;
}

Status Device::free(void *ptr) {
  if (sanitizer_ && pool_.owns(ptr))
    sanitizer_->onFree(ptr, kNoStream);
  return pool_.free(ptr);
}

Status Device::mallocAsync(size_t size, Stream *stream, void **out) {
  Status st = pool_.allocate(size, resolve(stream)->id(), out);
  if (st.isOk() && sanitizer_)
    sanitizer_->onAllocate(*out, size);
  return st;
}

Status Device::freeAsync(void *ptr, Stream *stream) {
  Stream *s = resolve(stream);
  if (sanitizer_ && pool_.owns(ptr))
    sanitizer_->onFree(ptr, s->id());
  // The block is free once the stream's latest task so far has run.
  return pool_.freeOnStream(ptr, s->id(), s->enqueued());
}

Status Device::mallocHost(size_t size, void **out) {
  if (!out || size == 0)
    return makeStatus(StatusCode::kInvalidArgument,
                      "malloc host: null out pointer or size 0");
  if (size > MemoryPool::kMaxAllocation) // rounding up below must not wrap
    return makeStatus(StatusCode::kOutOfMemory,
                      "malloc host: " + std::to_string(size) +
                          " bytes not available");
  void *p = std::aligned_alloc(64, (size + 63) / 64 * 64);
  if (!p)
    return makeStatus(StatusCode::kOutOfMemory,
                      "malloc host: " + std::to_string(size) +
                          " bytes not available");
  std::lock_guard<std::mutex> lock(registryMu_);
  hostAllocs_.insert(p);
  *out = p;
  return Status::ok();
}

Status Device::freeHost(void *ptr) {
  std::lock_guard<std::mutex> lock(registryMu_);
  if (!hostAllocs_.erase(ptr))
    return makeStatus(StatusCode::kInvalidArgument,
                      "free host: pointer was not returned by malloc host");
  std::free(ptr);
  return Status::ok();
}

} // namespace geflow::rt
