//===- ElementsBytes.h - a constant's bytes, however stored -*- C++ -*-===//
//
// A `ge.constant` holds a DenseElementsAttr (values copied into the context
// and hashed there) or, for the large weights of an imported model, a
// DenseResourceElementsAttr whose blob points at the model file's mapping:
// no copy, no hashing. Code that reads constant values (constant folding,
// BatchNorm folding, task emission) reads them through getStoredBytes, so it
// works with either.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_IR_ELEMENTSBYTES_H
#define GEFLOW_IR_ELEMENTSBYTES_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"

#include <optional>

namespace mlir::ge {

/// The bytes of `type`'s elements in the layout the kernels and the OM
/// WEIGHTS use (row-major, little-endian, bit width / 8 bytes each), or -1
/// when the elements have no such layout (i1 is bit-packed by MLIR, one byte
/// per element in ONNX and the kernels).
int64_t storedElementBytes(ShapedType type);

/// The bytes of `value` in that layout when the attribute stores them so: a
/// DenseElementsAttr that is not a splat, or a DenseResourceElementsAttr whose
/// blob is present and has exactly the size of its type. None otherwise;
/// a DenseElementsAttr's values are then read with getValues.
std::optional<ArrayRef<char>> getStoredBytes(ElementsAttr value);

} // namespace mlir::ge

#endif // GEFLOW_IR_ELEMENTSBYTES_H
