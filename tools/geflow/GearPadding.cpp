//===- GearPadding.cpp - Inputs padded up to a gear, outputs sliced back --===//

#include "tools/geflow/GearPadding.h"

#include <cstring>

namespace geflow::cli {

namespace {

int64_t product(const std::vector<int64_t> &shape, size_t from) {
  int64_t n = 1;
  for (size_t d = from; d < shape.size(); ++d)
    n *= shape[d];
  return n;
}

/// Copies the block both shapes share (the smaller extent in each dimension)
/// from `src` to `dst`, rows of the innermost dimension at a time.
void copyCommonBlock(const uint8_t *src, const std::vector<int64_t> &srcShape,
                     uint8_t *dst, const std::vector<int64_t> &dstShape,
                     size_t elementBytes, size_t dim = 0) {
  int64_t n = std::min(srcShape[dim], dstShape[dim]);
  if (dim + 1 == srcShape.size()) {
    std::memcpy(dst, src, size_t(n) * elementBytes);
    return;
  }
  size_t srcStride = size_t(product(srcShape, dim + 1)) * elementBytes;
  size_t dstStride = size_t(product(dstShape, dim + 1)) * elementBytes;
  for (int64_t i = 0; i < n; ++i)
    copyCommonBlock(src + i * srcStride, srcShape, dst + i * dstStride,
                    dstShape, elementBytes, dim + 1);
}

} // namespace

HostTensor fitTensor(const HostTensor &tensor,
                     const std::vector<int64_t> &shape) {
  HostTensor out;
  out.name = tensor.name;
  out.dtype = tensor.dtype;
  out.shape = shape;
  HostTensor scalar;
  scalar.dtype = tensor.dtype;
  size_t elementBytes = size_t(scalar.byteSize().value_or(0));
  out.bytes.assign(size_t(product(shape, 0)) * elementBytes, 0);
  if (out.bytes.empty() || tensor.numElements() == 0)
    return out;
  if (shape.empty()) {
    out.bytes = tensor.bytes;
    return out;
  }
  copyCommonBlock(tensor.bytes.data(), tensor.shape, out.bytes.data(), shape,
                  elementBytes);
  return out;
}

} // namespace geflow::cli
