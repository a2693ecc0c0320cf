//===- TypeConversion.h - ONNX types, tensors, attributes -> MLIR -*- C++
//-*-===//
//
// The type mapping of ir/README.md: ONNX element types to builtin types, value
// types to ranked tensor types, TensorProtos to elements attributes and node
// attributes to the ODS attribute kinds (INT -> I64Attr, FLOAT -> F32Attr,
// STRING -> StrAttr, INTS -> DenseI64ArrayAttr, FLOATS -> DenseF32ArrayAttr,
// TENSOR -> ElementsAttr).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_TYPECONVERSION_H
#define GEFLOW_FRONTENDS_ONNX_TYPECONVERSION_H

#include "frontends/onnx/MappedTensors.h"

#include "onnx/onnx_pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

#include <optional>

namespace geflow::onnxfe {

/// ONNX TensorProto::DataType -> element type. Errors name the ONNX type.
llvm::Expected<mlir::Type> convertElementType(mlir::MLIRContext &context,
                                              int32_t dataType);

/// Bytes per element of an ONNX data type convertElementType accepts; 0 for
/// every other (STRING, COMPLEX64, UNDEFINED, an unknown number).
size_t elementByteWidth(int32_t dataType);

/// The ONNX name of a data type ("FLOAT", "INT64", ...), for messages.
llvm::StringRef dataTypeName(int32_t dataType);

/// A value's TypeProto -> ranked tensor type; unknown or symbolic dims become
/// ShapedType::kDynamic. An unranked or non-tensor type is an error.
llvm::Expected<mlir::RankedTensorType>
convertTensorType(mlir::MLIRContext &context, const onnx::TypeProto &type);

/// A TensorProto -> ElementsAttr. Data in the proto is copied once, by
/// DenseElementsAttr::getFromRawBuffer. `external`, when given, is the
/// tensor's raw_data kept outside the proto (MappedTensors): it becomes a
/// DenseResourceElementsAttr whose blob points at those bytes and keeps their
/// owner alive, with no copy (bool tensors, bit-packed in MLIR, are copied).
llvm::Expected<mlir::ElementsAttr>
convertTensor(mlir::MLIRContext &context, const onnx::TensorProto &tensor,
              std::optional<ExternalBytes> external = std::nullopt);

/// One node attribute -> the ODS attribute kind of its ONNX type.
llvm::Expected<mlir::Attribute>
convertAttribute(mlir::MLIRContext &context, const onnx::AttributeProto &attr);

/// Renders a type for messages: `tensor<?x3xf32>`.
std::string typeToString(mlir::Type type);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_TYPECONVERSION_H
