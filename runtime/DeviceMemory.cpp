//===- DeviceMemory.cpp - Allocations, copies and fills -------------------===//
#include "runtime/Device.h"

#include <cstdlib>
#include <cstring>

namespace geflow::rt {
namespace {

Status checkFill(const void *dst, size_t dstMax, size_t count,
                 const char *what = "memset") {
  if (count > dstMax)
    return makeStatus(StatusCode::kInvalidArgument,
                      std::string(what) + ": count " + std::to_string(count) +
                          " exceeds destination size " +
                          std::to_string(dstMax));
  if (count > 0 && !dst)
    return makeStatus(StatusCode::kInvalidArgument,
                      std::string(what) + ": null pointer");
  return Status::ok();
}

Status checkCopy(const void *dst, size_t dstMax, const void *src,
                 size_t count) {
  GEFLOW_RT_RETURN_IF_ERROR(checkFill(dst, dstMax, count, "memcpy"));
  if (count > 0 && !src)
    return makeStatus(StatusCode::kInvalidArgument, "memcpy: null pointer");
  return Status::ok();
}

} // namespace

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

Status Device::memcpyAsync(Stream *stream, void *dst, size_t dstMax,
                           const void *src, size_t count, MemcpyKind kind) {
  GEFLOW_RT_RETURN_IF_ERROR(checkCopy(dst, dstMax, src, count));
  Task t;
  t.kind = TaskKind::kMemcpy;
  t.copyKind = kind;
  t.dst = dst;
  t.src = src;
  t.bytes = count;
  t.submitNs = now();
  enqueue(resolve(stream), std::move(t));
  return Status::ok();
}

Status Device::memsetAsync(Stream *stream, void *dst, size_t dstMax, int value,
                           size_t count) {
  GEFLOW_RT_RETURN_IF_ERROR(checkFill(dst, dstMax, count));
  Task t;
  t.kind = TaskKind::kMemcpy;
  t.copyKind = MemcpyKind::kDeviceToDevice;
  t.dst = dst;
  t.bytes = count;
  t.fillByte = static_cast<uint8_t>(value);
  t.submitNs = now();
  enqueue(resolve(stream), std::move(t));
  return Status::ok();
}

Status Device::memcpySync(void *dst, size_t dstMax, const void *src,
                          size_t count, MemcpyKind kind) {
  if (inKernelWork())
    return refuseInsideKernel("memcpy");
  if (currentCallbackJob()) {
    GEFLOW_RT_RETURN_IF_ERROR(checkCopy(dst, dstMax, src, count));
    if (count)
      std::memmove(dst, src, count);
    return Status::ok();
  }
  GEFLOW_RT_RETURN_IF_ERROR(
      memcpyAsync(nullptr, dst, dstMax, src, count, kind));
  return synchronizeStream(nullptr);
}

Status Device::memsetSync(void *dst, size_t dstMax, int value, size_t count) {
  if (inKernelWork())
    return refuseInsideKernel("memset");
  if (currentCallbackJob()) {
    GEFLOW_RT_RETURN_IF_ERROR(checkFill(dst, dstMax, count));
    if (count)
      std::memset(dst, value, count);
    return Status::ok();
  }
  GEFLOW_RT_RETURN_IF_ERROR(memsetAsync(nullptr, dst, dstMax, value, count));
  return synchronizeStream(nullptr);
}

} // namespace geflow::rt
