//===- RuntimeShapesCompile.h - models whose shapes come at run time -*- C++
//-*-===//
//
// GE's dynamic-shape execution, the compile half. A model with symbolic
// input dims (and no --input-shape for them), a shape operand fed by a graph
// input, or an op whose output size depends on data cannot be compiled
// ahead: `geflow compile` then checks what it can (every op supported, the
// model valid) and writes a RUNTIME_SHAPES OM (om.proto): the ONNX model in
// ModelDef.source_model, the compile options as model attrs, and graph[0] a
// description (Data ops and a NetOutput, -1 where a dim is not known) with
// no tasks. RuntimeShapesModel.h runs such a model, compiling its stages per
// execution with these options.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCOMPILE_H
#define GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCOMPILE_H

#include "tools/driver/CompileDriver.h"

#include <string>

namespace onnx {
class GraphProto;
} // namespace onnx

namespace geflow::driver {

/// Why `model` needs its shapes at run time ("node 'r' (Reshape): input 1 is
/// fed by graph input 'shape'"), or empty when it compiles ahead. The
/// `inputShapes` fix declared dims first.
std::string runtimeShapesReason(const onnx::ModelProto &model,
                                const std::vector<InputShape> &inputShapes);

/// `geflow compile`: a static OM when the model's shapes are known ahead,
/// otherwise a RUNTIME_SHAPES OM (also when the static import finds a shape
/// it cannot make static).
llvm::Expected<CompileResult>
compileOnnxFileAnyShapes(llvm::StringRef path,
                         const CompileOptions &options = {});

/// The RUNTIME_SHAPES OM of `path`, whatever its shapes.
llvm::Expected<CompileResult>
compileRuntimeShapesFile(llvm::StringRef path,
                         const CompileOptions &options = {});

/// Adds graph[0] describing `graph` (Data ops, a NetOutput, -1 for a
/// symbolic dim) and the RUNTIME_SHAPES gear mode to `modelDef`.
void describeRuntimeShapesGraph(const onnx::GraphProto &graph,
                                om::ModelDef &modelDef);

/// True for an OM whose shapes are resolved per execution.
bool hasRuntimeShapes(const om::ModelDef &modelDef);

/// The compile options a RUNTIME_SHAPES OM recorded, for its stages.
passes::CompileOptions stageCompileOptions(const om::ModelDef &modelDef,
                                           const std::string &socName);

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_RUNTIMESHAPESCOMPILE_H
