//===- OnnxImporter.h - ONNX model -> ge dialect ------------------*- C++
//-*-===//
//
// The public face of the ONNX frontend. A model is parsed with libonnx's
// protobuf classes, brought to one opset with libonnx's version converter,
// given static shapes by libonnx's shape inference (with data propagation, so
// Shape->Gather->Concat chains feed Reshape), and then walked into one
// `func.func @main` of `ge` ops as described in ir/README.md. The dialect's
// folders run afterwards; the result verifies and every tensor in it has a
// static shape, or the import fails.
//
// Errors are llvm::StringError with one line and no "error: " prefix, e.g.
//   node 'foo' (NonMaxSuppression, opset 17): unsupported op
// Callers print them as `error: <message>`. No exception leaves this library.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_ONNXIMPORTER_H
#define GEFLOW_FRONTENDS_ONNX_ONNXIMPORTER_H

#include "frontends/onnx/OnnxImportOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace onnx {
class ModelProto;
} // namespace onnx

namespace geflow {

namespace onnxfe {
struct MappedTensors;
} // namespace onnxfe

/// Parses the value of `--input-shape`: `name:d0,d1,...`, several entries
/// separated by spaces (a repeated flag gives one value per flag; concatenate
/// the results). `name:` alone is a rank-0 shape. The name is everything before
/// the last ':'. A dim of -1 leaves it open, for the gears (--dynamic-*) to
/// fill; the importer itself needs every dim fixed.
llvm::Expected<std::vector<InputShape>>
parseInputShapeOption(llvm::StringRef value);

/// A graph input as the model declares it (initializers left out), for the
/// callers that compile gears: -1 for a dim the model leaves symbolic or
/// unknown; `hasShape` false when it declares no shape at all.
struct DeclaredInput {
  std::string name;
  bool hasShape = false;
  std::vector<int64_t> dims;
};

/// The graph inputs of the `.onnx` file at `path` (with `options.atcEdits`
/// made), in input order, without importing it.
llvm::Expected<std::vector<DeclaredInput>>
readOnnxInputSignature(llvm::StringRef path,
                       const OnnxImportOptions &options = {});

/// Imports the `.onnx` file at `path`. The path also names the file in
/// locations
/// (`loc("node"("path":0:0))`) and is the base for external tensor data.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxFile(mlir::MLIRContext &context, llvm::StringRef path,
               const OnnxImportOptions &options = {});

/// A `.onnx` file read and parsed but not imported yet, for a caller that
/// looks at the model first (a 100k-node model takes a second to parse).
/// Its large weights stay in the file's mapping.
struct ReadOnnxFile {
  std::string path;
  std::shared_ptr<onnx::ModelProto> model;
  std::shared_ptr<onnxfe::MappedTensors> mapped;
};

/// importOnnxFile's first half: reads and parses `path` (external data
/// included), timed as "read model".
llvm::Expected<ReadOnnxFile>
readOnnxFile(llvm::StringRef path, const OnnxImportOptions &options = {});

/// importOnnxFile's second half, on a file readOnnxFile read; the import
/// rewrites `file.model`.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importReadOnnxFile(mlir::MLIRContext &context, ReadOnnxFile &file,
                   const OnnxImportOptions &options = {});

/// Imports a serialized ModelProto held in memory (tests, fuzzing).
/// `sourceName` is used in locations and messages; external data is not
/// available.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxBytes(mlir::MLIRContext &context, llvm::StringRef bytes,
                llvm::StringRef sourceName = "<memory>",
                const OnnxImportOptions &options = {});

/// Imports a ModelProto built in code. The model is taken by value because
/// conversion and inference rewrite it.
llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
importOnnxModel(mlir::MLIRContext &context, onnx::ModelProto model,
                llvm::StringRef sourceName = "<memory>",
                const OnnxImportOptions &options = {});

/// True when `opType` (an ai.onnx op type such as "Conv") has a `ge` op.
bool isOnnxOpSupported(llvm::StringRef opType);

/// Loads the dialects the importer creates ops of (ge, func) into `context`.
void registerOnnxImportDialects(mlir::MLIRContext &context);

} // namespace geflow

#endif // GEFLOW_FRONTENDS_ONNX_ONNXIMPORTER_H
