//===- ModelLoader.h - parse, convert and infer an ONNX model -----*- C++
//-*-===//
//
// Everything the frontend does on the protobuf before any MLIR exists: parsing,
// external data, initializer-as-input cleanup, --input-shape, the opset upgrade
// with libonnx's version converter and libonnx's shape inference. All of it may
// meet C++ exceptions from libonnx and protobuf; they are caught here and
// become llvm::Error.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_MODELLOADER_H
#define GEFLOW_FRONTENDS_ONNX_MODELLOADER_H

// Its callers report and read opsets alongside loading.
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/MappedTensors.h"
#include "frontends/onnx/OnnxImportOptions.h"
#include "frontends/onnx/Opsets.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace geflow::onnxfe {

/// Parses a serialized ModelProto and checks the minimum every model has.
llvm::Expected<onnx::ModelProto> parseModel(llvm::StringRef bytes,
                                            llvm::StringRef sourceName);

/// Reads and parses a `.onnx` file, then pulls external tensor data next to it
/// into raw_data. With `mapped`, large initializers are parsed without their
/// raw_data, which `mapped` keeps in the file's mapping (MappedTensors.h).
/// A file over `limits.maxModelBytes`, or external data over
/// `limits.maxTensorBytes`, is refused before it is read.
llvm::Expected<onnx::ModelProto> readModelFile(llvm::StringRef path,
                                               MappedTensors *mapped = nullptr,
                                               const ImportLimits &limits = {});

/// readModelFile, then the edits `options.atcEdits` asks for: the model every
/// reader of a file to be compiled sees.
llvm::Expected<onnx::ModelProto>
readModelFileToImport(llvm::StringRef path, MappedTensors *mapped,
                      const OnnxImportOptions &options);

/// Brings `model` to `options.targetOpset` and runs shape inference on it,
/// after dropping initializers from the graph inputs and applying
/// `options.inputShapes`. Unsupported ops and foreign domains are reported
/// before anything else. `sourceName` names the model in messages about the
/// whole graph. `whileInferring` runs during the first inference round as
/// inferShapes says.
llvm::Error prepareModel(onnx::ModelProto &model,
                         const OnnxImportOptions &options,
                         llvm::StringRef sourceName = "<memory>",
                         llvm::function_ref<void()> whileInferring = nullptr);

/// `--input-shape`: replaces the declared shapes of the named graph inputs;
/// a declared static dim must agree.
llvm::Error applyInputShapes(onnx::GraphProto &graph,
                             const std::vector<InputShape> &shapes);

/// Drops value_info and graph-output shapes, which inference recomputes.
void dropShapeHints(onnx::GraphProto &graph);

/// libonnx's shape inference: strict, type-checked, with data propagation.
/// `whileInferring`, when given, runs here while the contained process infers
/// the first round (runContained's whileWaiting): work on the model that
/// needs no shapes and must not change it.
llvm::Error inferShapes(onnx::ModelProto &model,
                        llvm::function_ref<void()> whileInferring = nullptr);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_MODELLOADER_H
