//===- GraphImporter.h - walk a prepared ONNX graph into ge ops ---*- C++ -*-===//
#ifndef GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H
#define GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H

#include "frontends/onnx/OnnxImporter.h"

#include "onnx/onnx_pb.h"

namespace geflow::onnxfe {

/// Builds `func.func @main` from a model that prepareModel() has converted and
/// shape-inferred, runs the dialect's folders, verifies, and checks that every
/// tensor is static. Consumes initializer data (raw_data is freed once copied).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importPreparedModel(mlir::MLIRContext &context, onnx::ModelProto &model,
                    llvm::StringRef sourceName, const OnnxImportOptions &options);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H
