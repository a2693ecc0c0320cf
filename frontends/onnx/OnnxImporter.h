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

#include "frontends/streamplan/StreamPlan.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/Timing.h"
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

/// One `--input-shape` entry: graph input name and its full static shape.
using InputShape = std::pair<std::string, std::vector<int64_t>>;

/// Caps on what a model may declare, checked before anything of that size is
/// allocated: declared sizes in a downloaded file can be anything.
/// The library imposes none by default; geflow's --max-model-bytes,
/// --max-tensor-bytes and --max-nodes set them (tools/geflow/Limits.h).
struct ImportLimits {
  uint64_t maxModelBytes = UINT64_MAX;  // the .onnx file
  uint64_t maxTensorBytes = UINT64_MAX; // one initializer, input or value
  uint64_t maxNodes = UINT64_MAX;       // graph nodes
};

struct OnnxImportOptions {
  /// Shapes that replace the declared (possibly symbolic) shapes of graph
  /// inputs before shape inference. A declared static dim must agree with the
  /// given one.
  std::vector<InputShape> inputShapes;
  /// Every model is converted to this ai.onnx opset before import.
  int64_t targetOpset = 17;
  /// Run the dialect's folders (Shape->Gather->Concat->Reshape chains, ...)
  /// after building. Turning this off is for tests of the raw import only; the
  /// static-shape check still runs.
  bool fold = true;
  /// A stream plan (`--stream-plan`), applied to the nodes and tensors it
  /// names: scheduling attributes on the selected nodes' ops (replacing the
  /// nodes' own annotations key by key) and a ge.npu_wait_tensor per
  /// wait_tensor entry.
  std::optional<streamplan::StreamPlan> streamPlan;
  ImportLimits limits;
  /// Op types prepareModel's checks accept besides the ge ops: run-time
  /// shapes' data-dependent ops, which run outside the compiled stages
  /// (tools/driver/RuntimeShapesCompile.h). The import proper still refuses
  /// them.
  std::function<bool(llvm::StringRef opType)> alsoAccept;
  /// `--time-passes`: the import's phases (read, checks, version conversion,
  /// shape inference, import) are timed as children of this timer. Null: no
  /// timing. The caller owns the timer and keeps it running meanwhile.
  mlir::Timer *timing = nullptr;
};

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

/// The graph inputs of the `.onnx` file at `path`, in input order, without
/// importing it.
llvm::Expected<std::vector<DeclaredInput>>
readOnnxInputSignature(llvm::StringRef path, const ImportLimits &limits = {});

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
