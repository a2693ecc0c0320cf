//===- MappedTensors.h - large initializers read in place ---*- C++ -*-===//
//
// Parsing a ModelProto copies every initializer's raw_data into a std::string,
// and the importer then copies it again into the MLIR context: two fresh
// copies of all the weights (45 MB for ResNet-18), whose page faults were a
// third of `geflow compile`. Here the serialized model is rewritten without
// the raw_data of large initializers, which stay in the file's mapping: the
// imported weights point at them there (dense_resource blobs), never copied.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_MAPPEDTENSORS_H
#define GEFLOW_FRONTENDS_ONNX_MAPPEDTENSORS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <optional>
#include <string>

namespace geflow::onnxfe {

/// An initializer's raw_data kept outside the proto, and what keeps those
/// bytes alive: the importer hands both to the MLIR context, whose weights
/// then point at them instead of holding a copy.
struct ExternalBytes {
  llvm::ArrayRef<char> bytes;
  std::shared_ptr<const void> owner;
};

/// The raw_data of the large initializers, by name, inside the mapped file.
struct MappedTensors {
  /// Initializers whose raw_data has at least this many bytes stay mapped;
  /// smaller ones (shapes, axes, scales that shape inference reads) are parsed
  /// as usual.
  static constexpr size_t kMinBytes = 64 * 1024;

  std::shared_ptr<llvm::MemoryBuffer> file;
  llvm::StringMap<llvm::ArrayRef<char>> rawData;

  /// The bytes cut out of initializer `name`, if it was; they keep the whole
  /// file mapped.
  std::optional<ExternalBytes> lookup(llvm::StringRef name) const {
    auto it = rawData.find(name);
    if (it == rawData.end())
      return std::nullopt;
    return ExternalBytes{it->second, file};
  }
};

/// `model` (a serialized ModelProto inside `mapped.file`) without the raw_data
/// of every graph initializer of at least kMinBytes, which `mapped.rawData`
/// records. None when the bytes are not a well-formed ModelProto as far as
/// the rewrite looks, or two cut initializers share a name: the caller then
/// parses the original bytes, whose parser reports what is wrong.
std::optional<std::string> cutLargeRawData(llvm::StringRef model,
                                           MappedTensors &mapped);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_MAPPEDTENSORS_H
