//===- TestKernels.h - Float add/relu kernels for executor tests ----------===//
//
// The executor tests use the real kernels when the kernel library has them
// and these otherwise, so they do not depend on which kernels exist yet.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_UNIT_EXECUTOR_TESTKERNELS_H
#define GEFLOW_TESTS_UNIT_EXECUTOR_TESTKERNELS_H

#include "executor/kernels/Kernel.h"
#include "executor/runner/ModelExecutor.h"

#include <atomic>

namespace geflow::testing {

class FloatKernel : public kernels::Kernel {
public:
  explicit FloatKernel(std::string type) : type_(std::move(type)) {}
  rt::Status run(const kernels::TensorView *in, const kernels::TensorView *out,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    int64_t n = out[0].desc->size() / 4;
    int64_t lo = n * blockIdx / blockDim, hi = n * (blockIdx + 1) / blockDim;
    const float *a = static_cast<const float *>(in[0].data);
    float *y = static_cast<float *>(out[0].data);
    if (type_ == "fail")
      return rt::makeStatus(rt::StatusCode::kKernelFailed,
                            "node 'add' (add): deliberate failure");
    for (int64_t i = lo; i < hi; ++i) {
      if (type_ == "add")
        y[i] = a[i] + static_cast<const float *>(in[1].data)[i];
      else
        y[i] = a[i] > 0 ? a[i] : 0;
    }
    return rt::Status::ok();
  }

private:
  std::string type_;
};

/// Real kernels where they exist; `failOp` gets a kernel that always fails.
inline exec::LoadOptions testLoadOptions(const std::string &failOp = "") {
  exec::LoadOptions o;
  o.kernelFactory = [failOp](const kernels::KernelSpec &spec,
                             std::unique_ptr<kernels::Kernel> *out) {
    const std::string &type = spec.op->type();
    if (type == failOp) {
      *out = std::make_unique<FloatKernel>("fail");
      return rt::Status::ok();
    }
    if (kernels::hasKernel(type))
      return kernels::createKernel(spec, out);
    *out = std::make_unique<FloatKernel>(type);
    return rt::Status::ok();
  };
  return o;
}

} // namespace geflow::testing

#endif // GEFLOW_TESTS_UNIT_EXECUTOR_TESTKERNELS_H
