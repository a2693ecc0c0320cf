//===- KernelSupport.cpp --------------------------------------------------===//

#include "executor/kernels/support/KernelSupport.h"

#include "runtime/HostWorkers.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;

size_t kernels::dtypeSize(om::DataType dtype) {
  switch (dtype) {
  case om::DT_FLOAT:
  case om::DT_INT32:
  case om::DT_UINT32:
    return 4;
  case om::DT_FLOAT16:
  case om::DT_BF16:
  case om::DT_INT16:
  case om::DT_UINT16:
    return 2;
  case om::DT_INT8:
  case om::DT_UINT8:
  case om::DT_BOOL:
    return 1;
  case om::DT_INT64:
  case om::DT_UINT64:
  case om::DT_DOUBLE:
    return 8;
  default:
    return 0;
  }
}

const char *kernels::dtypeName(om::DataType dtype) {
  switch (dtype) {
  case om::DT_FLOAT:
    return "float32";
  case om::DT_FLOAT16:
    return "float16";
  case om::DT_BF16:
    return "bfloat16";
  case om::DT_DOUBLE:
    return "float64";
  case om::DT_INT8:
    return "int8";
  case om::DT_INT16:
    return "int16";
  case om::DT_INT32:
    return "int32";
  case om::DT_INT64:
    return "int64";
  case om::DT_UINT8:
    return "uint8";
  case om::DT_UINT16:
    return "uint16";
  case om::DT_UINT32:
    return "uint32";
  case om::DT_UINT64:
    return "uint64";
  case om::DT_BOOL:
    return "bool";
  default:
    return "undefined";
  }
}

int64_t kernels::numElements(const om::TensorDescriptor &desc) {
  int64_t n = 1;
  for (int64_t d : desc.shape())
    n *= d;
  return n;
}

std::vector<int64_t> kernels::shapeOf(const om::TensorDescriptor &desc) {
  return {desc.shape().begin(), desc.shape().end()};
}

static const om::AttrDef *findAttr(const om::OpDef &op,
                                   const std::string &name) {
  auto it = op.attr().find(name);
  return it == op.attr().end() ? nullptr : &it->second;
}

bool kernels::hasAttr(const om::OpDef &op, const std::string &name) {
  return findAttr(op, name) != nullptr;
}

int64_t kernels::attrInt(const om::OpDef &op, const std::string &name,
                         int64_t fallback) {
  const om::AttrDef *a = findAttr(op, name);
  if (!a)
    return fallback;
  if (a->value_case() == om::AttrDef::kB)
    return a->b();
  return a->value_case() == om::AttrDef::kI ? a->i() : fallback;
}

float kernels::attrFloat(const om::OpDef &op, const std::string &name,
                         float fallback) {
  const om::AttrDef *a = findAttr(op, name);
  return a && a->value_case() == om::AttrDef::kF ? a->f() : fallback;
}

std::string kernels::attrString(const om::OpDef &op, const std::string &name,
                                const std::string &fallback) {
  const om::AttrDef *a = findAttr(op, name);
  return a && a->value_case() == om::AttrDef::kS ? a->s() : fallback;
}

std::vector<int64_t> kernels::attrInts(const om::OpDef &op,
                                       const std::string &name) {
  const om::AttrDef *a = findAttr(op, name);
  if (!a || a->value_case() != om::AttrDef::kList)
    return {};
  return {a->list().i().begin(), a->list().i().end()};
}

std::vector<float> kernels::attrFloats(const om::OpDef &op,
                                       const std::string &name) {
  const om::AttrDef *a = findAttr(op, name);
  if (!a || a->value_case() != om::AttrDef::kList)
    return {};
  return {a->list().f().begin(), a->list().f().end()};
}

std::vector<std::string> kernels::attrStrings(const om::OpDef &op,
                                              const std::string &name) {
  const om::AttrDef *a = findAttr(op, name);
  if (!a || a->value_case() != om::AttrDef::kList)
    return {};
  return {a->list().s().begin(), a->list().s().end()};
}

BlockRange kernels::blockRange(int64_t total, uint32_t blockIdx,
                               uint32_t blockDim) {
  int64_t base = total / blockDim, extra = total % blockDim;
  int64_t begin = blockIdx * base + std::min<int64_t>(blockIdx, extra);
  int64_t size = base + (static_cast<int64_t>(blockIdx) < extra ? 1 : 0);
  return {begin, begin + size};
}

HostGroup kernels::hostGroup(uint32_t blockIdx, uint32_t blockDim) {
  const uint32_t groups = std::min(blockDim, rt::hostThreadsOfKernel());
  const uint32_t group = blockIdx * groups / blockDim;
  const bool first =
      blockIdx == 0 || (blockIdx - 1) * groups / blockDim != group;
  return {group, groups, first};
}

uint32_t kernels::blocksForWork(int64_t total, int64_t grain) {
  if (total <= 0 || grain <= 0)
    return 1;
  int64_t blocks = (total + grain - 1) / grain;
  return static_cast<uint32_t>(std::clamp<int64_t>(blocks, 1, 1 << 16));
}

rt::Status kernels::opError(const om::OpDef &op, const std::string &what) {
  return rt::makeStatus(rt::StatusCode::kInvalidArgument,
                        "node '" + op.name() + "' (" + op.type() +
                            "): " + what);
}
