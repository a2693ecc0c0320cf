//===- OnnxImportOptions.h - what a caller asks of an import ----*- C++ -*-===//
//
// The options and limits of an import, apart from the entry points
// (OnnxImporter.h) so that the layers below them (ModelLoader.h) can read the
// options without depending on the entry points that call them.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_ONNXIMPORTOPTIONS_H
#define GEFLOW_FRONTENDS_ONNX_ONNXIMPORTOPTIONS_H

#include "frontends/onnx/AtcModelEdits.h"
#include "frontends/streamplan/StreamPlan.h"

#include "mlir/Support/Timing.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace geflow {

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
  /// ATC's input and output options (`atc --input_fp16_nodes`, --out_nodes,
  /// --output_type), made on the model as it is read from its file.
  AtcModelEdits atcEdits;
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

} // namespace geflow

#endif // GEFLOW_FRONTENDS_ONNX_ONNXIMPORTOPTIONS_H
