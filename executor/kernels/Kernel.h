//===- Kernel.h - The contract between kernels, executor and compiler -*- C++
//-*-===//
//
// A kernel is the host implementation of one op, split into blocks the way an
// NPU kernel splits over cores. Its plan (engine, how finely the work splits,
// cost in FLOPs and bytes) is a function of the op's shapes and attributes
// only, so the compiler (block_dim, stream choice), the simulator (timing) and
// the host (the real work) agree by construction.
//
// Thread safety: a Kernel is immutable after creation. One kernel object serves
// every execution of a loaded model, from any number of host threads, each with
// its own buffers; blocks of one launch run concurrently.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_KERNEL_H
#define GEFLOW_EXECUTOR_KERNELS_KERNEL_H

#include "executor/model/om.pb.h"
#include "runtime/soc/CostModel.h"
#include "runtime/support/Status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace geflow::kernels {

/// One tensor during one execution: its bytes and what they mean.
struct TensorView {
  void *data = nullptr;
  const om::TensorDescriptor *desc = nullptr;
};

/// What the compiler and the simulator need to know of a kernel.
struct KernelPlan {
  rt::Engine engine = rt::Engine::kAiv;
  /// The most blocks the work splits into with each block still worth a launch
  /// (at least 1). Task emission picks block_dim <= this and <= the engine's
  /// cores.
  uint32_t maxBlocks = 1;
  /// Whole-kernel FLOPs and HBM bytes.
  rt::KernelCost cost;
};

class Kernel {
public:
  virtual ~Kernel();

  /// Computes block `blockIdx` of `blockDim` (blockDim may be anything >= 1; a
  /// kernel with less work than blocks leaves the extra blocks idle). `inputs`
  /// and `outputs` follow the OpDef's input_desc / output_desc order.
  virtual rt::Status run(const TensorView *inputs, const TensorView *outputs,
                         uint32_t blockIdx, uint32_t blockDim) const = 0;

  /// Whether run() reads input `input`'s bytes when that input is a
  /// constant. A kernel that packed it at creation says no, and the loader
  /// lets the system take back the model file's pages of it.
  virtual bool readsConstantAtRun(int input) const { return true; }
};

/// Everything a kernel may look at when it is created at model load.
struct KernelSpec {
  const om::OpDef *op = nullptr;
  /// Per input: its bytes when the input is a constant (a weight), else null.
  /// Kernels read shape operands or pack weights once here.
  std::vector<const void *> constantInputs;
};

/// True when there is a kernel for OpDef type `type` ("conv", "relu", ...).
bool hasKernel(const std::string &type);

/// The plan of `op` from its type, attributes and tensor descriptors. An op
/// with no kernel, or attributes the kernel cannot honour, is an error naming
/// the op.
rt::Status planKernel(const om::OpDef &op, KernelPlan *out);

/// Creates the kernel for `spec.op`. Errors name the op and what is wrong.
rt::Status createKernel(const KernelSpec &spec, std::unique_ptr<Kernel> *out);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_KERNEL_H
