//===- KernelSupport.h - what every kernel family needs --------*- C++ -*-===//
//
// Reading attributes and descriptors of an OpDef, element counts, dtype sizes,
// and the block split every kernel uses.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_SUPPORT_KERNELSUPPORT_H
#define GEFLOW_EXECUTOR_KERNELS_SUPPORT_KERNELSUPPORT_H

#include "executor/kernels/Kernel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::kernels {

/// Bytes of one element of `dtype` (bool: 1); 0 for DT_UNDEFINED.
size_t dtypeSize(om::DataType dtype);
/// "float32", "int64", ... for messages.
const char *dtypeName(om::DataType dtype);

int64_t numElements(const om::TensorDescriptor &desc);
std::vector<int64_t> shapeOf(const om::TensorDescriptor &desc);

/// Attribute access with ONNX defaults. Absent attributes give `fallback`.
int64_t attrInt(const om::OpDef &op, const std::string &name, int64_t fallback);
float attrFloat(const om::OpDef &op, const std::string &name, float fallback);
std::string attrString(const om::OpDef &op, const std::string &name,
                       const std::string &fallback);
std::vector<int64_t> attrInts(const om::OpDef &op, const std::string &name);
std::vector<float> attrFloats(const om::OpDef &op, const std::string &name);
std::vector<std::string> attrStrings(const om::OpDef &op,
                                     const std::string &name);
bool hasAttr(const om::OpDef &op, const std::string &name);

/// The half-open range [begin, end) of `total` work items that block
/// `blockIdx` of `blockDim` owns: contiguous, sizes differ by at most one.
struct BlockRange {
  int64_t begin;
  int64_t end;
};
BlockRange blockRange(int64_t total, uint32_t blockIdx, uint32_t blockDim);

/// Block `blockIdx`'s group when a kernel folds its blocks into one group
/// per host thread that runs them (rt::hostThreadsOfKernel: one when the
/// kernel is not shared), of `count` groups, and whether it is the group's
/// first block, the one that does the group's share (the others none): the
/// simulated cores split the work finely, but a host thread running their
/// blocks one by one would repeat what neighbouring blocks share (a conv's
/// columns, a GEMM's weights). Workers take blocks from the first and the
/// joining thread from the last, so the groups still run on different
/// threads.
struct HostGroup {
  int64_t index, count;
  bool active;
};
HostGroup hostGroup(uint32_t blockIdx, uint32_t blockDim);

/// How many blocks `total` items split into when each block should carry at
/// least `grain` items (>= 1, <= total).
uint32_t blocksForWork(int64_t total, int64_t grain);

/// "node 'conv1' (conv): <what>" as a kInvalidArgument status.
rt::Status opError(const om::OpDef &op, const std::string &what);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_SUPPORT_KERNELSUPPORT_H
