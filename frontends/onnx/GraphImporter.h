//===- GraphImporter.h - walk a prepared ONNX graph into ge ops ---*- C++
//-*-===//
#ifndef GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H
#define GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H

#include "frontends/onnx/ConvertedInitializers.h"
#include "frontends/onnx/MappedTensors.h"
#include "frontends/onnx/OnnxImportOptions.h"

#include "onnx/onnx_pb.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace geflow::onnxfe {

/// Builds `func.func @main` from a model that prepareModel() has converted and
/// shape-inferred (and, when folding, refineShapesByFolding() has completed),
/// runs the dialect's folders, verifies, and checks that every tensor is
/// static. Consumes initializer data (raw_data is freed once copied).
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importPreparedModel(mlir::MLIRContext &context, onnx::ModelProto &model,
                    llvm::StringRef sourceName,
                    const OnnxImportOptions &options,
                    const MappedTensors *mapped = nullptr,
                    const ConvertedInitializers *converted = nullptr);

/// What a probe import learnt: whether some node still lacks a static output
/// type, and the values that folding computed for those nodes' inputs.
struct ProbeResult {
  bool anySkipped = false;
  std::vector<std::pair<std::string, mlir::DenseElementsAttr>> constants;
};

/// Imports the part of the graph whose types are static, folds it, and returns
/// the inputs of the remaining nodes that folded to constants (ONNX's data
/// propagation stops at ops such as Div; the dialect's folders do not). Large
/// initializers enter as function arguments so the probe neither copies nor
/// folds weights.
llvm::Expected<ProbeResult> probeFoldedInputs(mlir::MLIRContext &context,
                                              onnx::ModelProto &model,
                                              llvm::StringRef sourceName);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTER_H
