//===- DeviceTarget.cpp - DeviceTarget over rt::Device --------------------===//

#include "executor/runner/DeviceTarget.h"
#include "runtime/Device.h"

namespace geflow::exec {

DeviceTarget::~DeviceTarget() = default;

namespace {

class RtDeviceTarget final : public DeviceTarget {
public:
  explicit RtDeviceTarget(rt::Device &d) : d_(d) {}
  rt::Status createStream(int32_t priority, rt::Stream **out) override {
    return d_.createStream(priority, out);
  }
  rt::Status destroyStream(rt::Stream *s) override {
    return d_.destroyStream(s);
  }
  rt::Status createEvent(rt::Event **out) override {
    return d_.createEvent(out);
  }
  rt::Status destroyEvent(rt::Event *e) override { return d_.destroyEvent(e); }
  rt::Status
  launchKernel(rt::Stream *s, const rt::KernelLaunch &launch,
               const rt::KernelFn *fn,
               const std::vector<rt::MemoryAccess> *accesses) override {
    rt::KernelLaunch l = launch;
    if (accesses)
      l.accesses = *accesses;
    l.fn = [fn](uint32_t idx, uint32_t dim) { return (*fn)(idx, dim); };
    return d_.launchKernel(s, std::move(l));
  }
  rt::Status memcpyAsync(rt::Stream *s, void *dst, size_t dstMax,
                         const void *src, size_t count) override {
    return d_.memcpyAsync(s, dst, dstMax, src, count,
                          rt::MemcpyKind::kDeviceToDevice);
  }
  rt::Status launchHostFunc(rt::Stream *s, rt::HostFn fn) override {
    return d_.launchHostFunc(s, std::move(fn));
  }
  rt::Status recordEvent(rt::Event *e, rt::Stream *s) override {
    return d_.recordEvent(e, s);
  }
  rt::Status streamWaitEvent(rt::Stream *s, rt::Event *e) override {
    return d_.streamWaitEvent(s, e);
  }
  rt::Status synchronizeStream(rt::Stream *s) override {
    return d_.synchronizeStream(s);
  }
  rt::Status mallocAsync(size_t size, rt::Stream *s, void **out) override {
    return d_.mallocAsync(size, s, out);
  }
  rt::Status freeAsync(void *p, rt::Stream *s) override {
    return d_.freeAsync(p, s);
  }
  rt::Status eventElapsedMs(rt::Event *a, rt::Event *b, float *ms) override {
    return d_.eventElapsedMs(a, b, ms);
  }
  bool hasAiCpu() const override { return d_.spec().aiCpuCnt > 0; }
  bool sanitizing() const override { return d_.sanitizer() != nullptr; }
  void nameStream(rt::Stream *s, const std::string &name) override {
    d_.nameStream(s, name);
  }

private:
  rt::Device &d_;
};

} // namespace

std::shared_ptr<DeviceTarget> makeDeviceTarget(rt::Device &device) {
  return std::make_shared<RtDeviceTarget>(device);
}

} // namespace geflow::exec
