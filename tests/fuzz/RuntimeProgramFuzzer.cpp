//===- RuntimeProgramFuzzer.cpp - byte-coded programs against rt::Device
//----===//
//
// Each input is a program: one opcode byte, then the operands it consumes.
// The calls are the ones the aclrt* layer makes (streams, events, records and
// waits, sync and stream-ordered malloc/free, copies, cost-only and failing
// kernels, callbacks, synchronize and query), in whatever order the bytes say:
// destroyed handles, waits nobody records, double frees. Every call must come
// back with a status; a crash, a sanitizer report or a hang is the finding.
//
// The harness keeps the runtime's documented contracts, so what it finds is
// the runtime's fault: copies only touch buffers that live until the Device
// dies, and kernels and callbacks touch nothing.
//
// The Device is the C++ API under aclrt*, because its deadlock grace period is
// an option: the C API's 100 ms per unsatisfiable wait would make a program
// that waits on nothing cost a tenth of a second.
//
//===----------------------------------------------------------------------===//

#include "runtime/Device.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

using namespace geflow::rt;

namespace {

constexpr size_t kCopyBufferBytes = 4096;
constexpr size_t kMaxHandles = 16;

// Values where arithmetic tends to break: zero, one, powers of two around
// page and size-class edges, and the ends of the type.
constexpr std::array<uint64_t, 10> kSizes = {
    0,
    1,
    63,
    64,
    4097,
    1u << 20,
    3u << 21,
    uint64_t(1) << 40,
    std::numeric_limits<uint64_t>::max() / 2,
    std::numeric_limits<uint64_t>::max()};

double pickCost(FuzzedDataProvider &in) {
  switch (in.ConsumeIntegralInRange<int>(0, 6)) {
  case 0:
    return 0;
  case 1:
    return -1;
  case 2:
    return std::numeric_limits<double>::quiet_NaN();
  case 3:
    return std::numeric_limits<double>::infinity();
  case 4:
    return std::numeric_limits<double>::max();
  case 5:
    return 1e30;
  default:
    return in.ConsumeIntegralInRange<uint32_t>(0, 1u << 30);
  }
}

uint64_t pickSize(FuzzedDataProvider &in) {
  if (in.ConsumeBool())
    return in.ConsumeIntegralInRange<uint64_t>(0, 1u << 16);
  return in.PickValueInArray(kSizes);
}

/// Handles ever handed out, destroyed ones included: using those is part of
/// what a program may do wrong. Index past the end means the null handle.
template <typename T> T *pick(FuzzedDataProvider &in, std::vector<T *> &all) {
  size_t i = in.ConsumeIntegralInRange<size_t>(0, all.size());
  return i < all.size() ? all[i] : nullptr;
}

struct Program {
  FuzzedDataProvider &in;
  Device &device;
  std::vector<Stream *> streams;
  std::vector<Event *> events;
  std::vector<void *> blocks; // from malloc / mallocAsync, freed ones kept
  std::vector<void *> hostBlocks;
  // Copy targets: device buffers that are never freed (the Device releases
  // them), and host buffers that outlive the Device.
  std::vector<void *> deviceBuffers;
  std::vector<std::vector<uint8_t>> &hostBuffers;

  void *copyEnd(bool device, size_t *capacity) {
    *capacity = kCopyBufferBytes;
    if (device && !deviceBuffers.empty())
      return in.PickValueInArray<void *>(
          {deviceBuffers.front(), deviceBuffers.back()});
    return hostBuffers[in.ConsumeIntegralInRange<size_t>(0, 1)].data();
  }

  KernelLaunch kernel() {
    KernelLaunch k;
    k.name = "k";
    k.engine =
        static_cast<Engine>(in.ConsumeIntegralInRange<int>(0, kNumEngines - 1));
    k.aicoreNum = in.ConsumeIntegralInRange<uint32_t>(0, 64);
    k.vectorcoreNum = in.ConsumeIntegralInRange<uint32_t>(0, 64);
    k.cost.flops = pickCost(in);
    k.cost.bytes = pickCost(in);
    switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: // cost only: any block_dim a caller may pass
      k.blockDim = in.ConsumeIntegral<uint32_t>();
      break;
    case 1:
      k.blockDim = in.ConsumeIntegralInRange<uint32_t>(0, 64);
      k.fn = [](uint32_t, uint32_t) { return Status::ok(); };
      break;
    default:
      k.blockDim = in.ConsumeIntegralInRange<uint32_t>(0, 64);
      k.fn = [](uint32_t block, uint32_t) {
        return block == 0 ? makeStatus(StatusCode::kInternal, "fuzz kernel")
                          : Status::ok();
      };
      break;
    }
    return k;
  }

  void step() {
    Stream *s = pick(in, streams);
    Event *e = pick(in, events);
    switch (in.ConsumeIntegralInRange<int>(0, 19)) {
    case 0:
      if (streams.size() < kMaxHandles) {
        Stream *created = nullptr;
        if (device
                .createStream(in.ConsumeIntegralInRange<int32_t>(-2, 8),
                              &created)
                .isOk())
          streams.push_back(created);
      }
      break;
    case 1:
      (void)device.destroyStream(s);
      break;
    case 2:
      if (events.size() < kMaxHandles) {
        Event *created = nullptr;
        if (device.createEvent(&created).isOk())
          events.push_back(created);
      }
      break;
    case 3:
      (void)device.destroyEvent(e);
      break;
    case 4:
      (void)device.recordEvent(e, s);
      break;
    case 5:
      (void)device.streamWaitEvent(s, e);
      break;
    case 6:
      (void)device.launchKernel(s, kernel());
      break;
    case 7: {
      void *p = nullptr;
      if (device.malloc(pickSize(in), &p).isOk())
        blocks.push_back(p);
      break;
    }
    case 8:
      (void)device.free(pickBlock());
      break;
    case 9: {
      void *p = nullptr;
      if (device.mallocAsync(pickSize(in), s, &p).isOk())
        blocks.push_back(p);
      break;
    }
    case 10:
      (void)device.freeAsync(pickBlock(), s);
      break;
    case 11: {
      size_t dstMax = 0, srcSize = 0;
      void *dst = copyEnd(in.ConsumeBool(), &dstMax);
      const void *src = copyEnd(in.ConsumeBool(), &srcSize);
      // The source's size is the caller's contract; the destination's is
      // the runtime's to check.
      size_t count = in.ConsumeIntegralInRange<size_t>(0, srcSize);
      dstMax = in.ConsumeIntegralInRange<size_t>(0, dstMax);
      (void)device.memcpyAsync(
          s, dst, dstMax, src, count,
          static_cast<MemcpyKind>(in.ConsumeIntegralInRange<int>(0, 3)));
      break;
    }
    case 12:
      (void)device.synchronizeStream(s);
      break;
    case 13:
      (void)device.synchronizeEvent(e);
      break;
    case 14:
      (void)device.synchronizeDevice();
      break;
    case 15: {
      bool complete = false;
      (void)device.queryEvent(e, &complete);
      break;
    }
    case 16: {
      float ms = 0;
      (void)device.eventElapsedMs(e, pick(in, events), &ms);
      break;
    }
    case 17:
      (void)device.launchCallback(s, [] {});
      break;
    case 18: {
      void *p = nullptr;
      if (device.mallocHost(pickSize(in), &p).isOk())
        hostBlocks.push_back(p);
      break;
    }
    default:
      (void)device.freeHost(pick(in, hostBlocks));
      break;
    }
  }

  /// A block handed out earlier, freed or not, or a pointer inside one.
  void *pickBlock() {
    void *p = pick(in, blocks);
    if (p && in.ConsumeBool())
      p = static_cast<uint8_t *>(p) + 1;
    return p;
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  // Outlive the Device: queued copies may still point into them.
  std::vector<std::vector<uint8_t>> hostBuffers(
      2, std::vector<uint8_t>(kCopyBufferBytes));

  DeviceOptions options;
  options.soc = in.ConsumeBool() ? "ascend910b-sim" : "ascend310p-sim";
  options.memoryLimitBytes = in.ConsumeBool() ? (uint64_t(1) << 24) : 0;
  // Mostly no worker thread (blocks run on the scheduler's thread): starting
  // and joining one per input would dominate the run. TSan covers the threads.
  options.workerThreads = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? 1 : 0;
  options.deadlockGraceMs = 0; // one host thread: nobody else will record
  std::unique_ptr<Device> device;
  if (!Device::create(options, &device).isOk())
    return 0;

  Program program{in, *device, {}, {}, {}, {}, {}, hostBuffers};
  for (int i = 0; i < 2; ++i) {
    void *p = nullptr;
    if (device->malloc(kCopyBufferBytes, &p).isOk())
      program.deviceBuffers.push_back(p);
  }
  for (int steps = 0; steps < 256 && in.remaining_bytes() > 0; ++steps)
    program.step();
  (void)device->synchronizeDevice();
  for (void *p : program.hostBlocks)
    (void)device->freeHost(p);
  return 0;
}
