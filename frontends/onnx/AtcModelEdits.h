//===- AtcModelEdits.h - ATC's model options as model edits -----*- C++ -*-===//
//
// ATC changes a model's inputs and outputs on the way in:
//   --input_shape="data:-1,3,224,224"
//                                    replaces the shape the model declares,
//                                    -1 a dim left open (geflow's
//                                    --input-shape only fixes open dims)
//   --insert_op_conf=insert_op.cfg   static AIPP: the input becomes a uint8
//                                    image, converted by nodes before the
//                                    model (AippPrologue.h)
//   --input_fp16_nodes="data"        a float input becomes float16, cast to
//                                    the model's type where the graph starts
//   --out_nodes="prob:0;fc:1"        the outputs become these node outputs
//   --output_type=FP16 | "prob:0:FP16;..."
//                                    outputs converted where the graph ends
// geflow makes them as a rewrite of the ONNX ModelProto before import
// (OnnxImportOptions::atcEdits, applied by every reader of a model file to be
// compiled), so that the static import, the gears and the run-time-shapes
// path see one model.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_ATCMODELEDITS_H
#define GEFLOW_FRONTENDS_ONNX_ATCMODELEDITS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace geflow {

/// One output of a node as ATC names it: "prob:0" is node 'prob', output 0.
struct NodeOutput {
  std::string node;
  int64_t index = 0;
  std::string text() const { return node + ":" + std::to_string(index); }
  bool operator==(const NodeOutput &other) const {
    return node == other.node && index == other.index;
  }
};

/// What --output_type converts an output to.
enum class AtcOutputType {
  kFp32,  // Cast to float (a float output stays as it is)
  kFp16,  // Cast to float16
  kUint8, // saturated to 0..255, rounded to nearest (ties to even)
};

struct AtcOutputTypeEntry {
  NodeOutput output;
  AtcOutputType type;
};

struct AtcModelEdits {
  /// --input_shape: the shapes of the inputs named, replacing the declared
  /// ones; a -1 is a dim left open (symbolic) for the gears or run-time
  /// shapes to fill.
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputShapes;
  /// --insert_op_conf: ATC's AIPP configuration file ("" for none).
  std::string aippConfigPath;
  /// --input_fp16_nodes: graph inputs that become float16.
  std::vector<std::string> fp16Inputs;
  /// --out_nodes: the model's outputs, in order (empty: the model's own).
  std::vector<NodeOutput> outNodes;
  /// --output_type=TYPE: every output.
  std::optional<AtcOutputType> outputType;
  /// --output_type="node:index:TYPE;...": the outputs named.
  std::vector<AtcOutputTypeEntry> outputTypes;

  bool empty() const {
    return inputShapes.empty() && aippConfigPath.empty() &&
           fp16Inputs.empty() && outNodes.empty() && !outputType &&
           outputTypes.empty();
  }
};

/// Parses ATC's values of --input_fp16_nodes ("a;b"), --out_nodes
/// ("node:0;node:1") and --output_type ("FP16" or "node:0:FP16;..."); an
/// empty value is an option not given. Errors name the option and the entry.
llvm::Expected<AtcModelEdits> parseAtcModelEdits(llvm::StringRef fp16Inputs,
                                                 llvm::StringRef outNodes,
                                                 llvm::StringRef outputType);

/// Rewrites `model`: the input shapes replaced, the AIPP prologues, the
/// float16 inputs with a Cast after each, the outputs
/// of --out_nodes (nodes no output needs any longer removed), then a
/// conversion before each output --output_type names. An output keeps its
/// name (the value it was is renamed inside the graph). A node is named as
/// in the model, or `<OpType>_<index>` when it has no name, as geflow's
/// dumps name it. Errors are one line naming the option and what it named.
llvm::Error applyAtcModelEdits(onnx::ModelProto &model,
                               const AtcModelEdits &edits);

} // namespace geflow

#endif // GEFLOW_FRONTENDS_ONNX_ATCMODELEDITS_H
