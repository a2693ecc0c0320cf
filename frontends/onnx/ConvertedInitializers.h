//===- ConvertedInitializers.h - initializers converted ahead of import -*- C++
//-*-===//
//
// While the contained process infers shapes (ContainedLibOnnx.h), this process
// would only wait; the initializers' values need no shapes, so they are
// converted to attributes then (a tenth of a 100k-node import: 33k small
// weights copied and hashed into the context) and the import picks them up.
// The conversion is the import's own (convertTensor, with a mapped tensor's
// bytes left in the file's mapping) and leaves the proto unchanged, because
// shape refinement may still read it. Initializers whose raw_data the import
// moves out of the proto (large ones of an in-memory model) are left to it.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_CONVERTEDINITIALIZERS_H
#define GEFLOW_FRONTENDS_ONNX_CONVERTEDINITIALIZERS_H

#include "frontends/onnx/MappedTensors.h"

#include "onnx/onnx_pb.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringMap.h"

namespace geflow::onnxfe {

class ConvertedInitializers {
public:
  /// Converts each initializer of `graph` that the import would: one that a
  /// node or graph output reads and no graph input shadows. One that fails
  /// to convert is left to the import, which reports it.
  void convert(mlir::MLIRContext &context, const onnx::GraphProto &graph,
               const MappedTensors *mapped);

  /// The value converted for `tensor`, or null when there is none or the
  /// tensor's dims have changed since.
  mlir::ElementsAttr lookup(const onnx::TensorProto &tensor) const;

private:
  llvm::StringMap<mlir::ElementsAttr> values_;
};

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_CONVERTEDINITIALIZERS_H
