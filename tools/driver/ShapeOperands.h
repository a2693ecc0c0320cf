//===- ShapeOperands.h - operands whose values decide shapes ----*- C++ -*-===//
//
// Which ONNX operands decide a node's result shape by their values (Reshape's
// shape, Slice's starts, TopK's k, ...) and which ops decide it from the data
// itself (NonZero, ...). Run-time shape resolution binds the first as
// constants per execution and runs the second between compiled stages; the
// conformance runner's bound figure binds the first from the test data.
// Plain C++ on op-type strings, so both link it without ONNX or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_SHAPEOPERANDS_H
#define GEFLOW_TOOLS_DRIVER_SHAPEOPERANDS_H

#include <string>

namespace geflow::driver {

/// True when input `position` of an ai.onnx `opType` node decides the shape
/// of its result by its value.
bool isShapeOperand(const std::string &opType, int position);

/// True for an op whose result sizes only its input values decide (GE's
/// third class): NonZero, NonMaxSuppression, Unique, Compress.
bool isDataDependentOnnxOp(const std::string &opType);

/// True for an op whose branch a run-time-shape execution chooses between
/// stages once its condition is known: If (RuntimeShapesControlFlow.h).
bool isControlFlowOnnxOp(const std::string &opType);

/// The executor's type name of such an op ("non_zero", ...), the snake_case
/// ONNX name the kernels' contract uses
/// (executor/kernels/data_dependent/DataDependent.h).
std::string dataDependentKernelType(const std::string &opType);

/// True when an import error says a shape could not be made static (the
/// importer's "no static shape" and "the rank is unknown").
bool isShapeNotStaticError(const std::string &importError);

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_SHAPEOPERANDS_H
