//===- ElementsBytes.cpp - a constant's bytes, however it is stored -------===//

#include "ir/ElementsBytes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;

int64_t mlir::ge::storedElementBytes(ShapedType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat())
    return -1;
  int64_t bits = element.getIntOrFloatBitWidth();
  return bits % 8 == 0 ? bits / 8 : -1;
}

std::optional<ArrayRef<char>> mlir::ge::getStoredBytes(ElementsAttr value) {
  ShapedType type = value.getShapedType();
  int64_t width = storedElementBytes(type);
  if (width < 0 || !type.hasStaticShape())
    return std::nullopt;
  // A splat of several elements stores one: the caller expands it.
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat() && type.getNumElements() != 1)
      return std::nullopt;
    return dense.getRawData();
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (!resource)
    return std::nullopt;
  // Text IR may name a resource that it does not define, or give a blob of
  // another size: no bytes then, rather than a read past the blob.
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob || static_cast<int64_t>(blob->getData().size()) !=
                   type.getNumElements() * width)
    return std::nullopt;
  return blob->getData();
}
