//===- ModelChecks.h - what a model declares, checked before use -*- C++
//-*-===//
//
// A downloaded model may declare anything: a 2^50-element initializer with four
// bytes of data, a dim of -4, a string input, an attribute of the wrong type, a
// graph with no outputs. libonnx's converter and inference, and the dialect's
// verifiers, assume well-formed input, so these checks run first, on the
// protobuf, and name the place (initializer, graph input, node, attribute).
// The size caps are ImportLimits: a downloaded file may declare any size.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_MODELCHECKS_H
#define GEFLOW_FRONTENDS_ONNX_MODELCHECKS_H

#include "frontends/onnx/OnnxImportOptions.h"

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace geflow::onnxfe {

/// Node count, graph outputs, the types, dims and sizes of graph inputs,
/// initializers and tensor attributes, and every attribute's type against
/// its op's schema at the model's opset. Runs before version conversion.
/// Messages about the whole graph name it as `sourceName`.
llvm::Error checkDeclaredModel(const onnx::ModelProto &model,
                               const ImportLimits &limits,
                               llvm::StringRef sourceName);

/// The size of every value shape inference found (intermediates included),
/// before any of them is folded into a constant.
llvm::Error checkInferredSizes(const onnx::GraphProto &graph,
                               const ImportLimits &limits);

/// The ranks that initializers, graph inputs, value_info entries and Constant
/// nodes' tensors declare, gathered once per graph.
class DeclaredRanks {
public:
  explicit DeclaredRanks(const onnx::GraphProto &graph);
  /// `name`'s declared rank, or nothing when none declares one.
  std::optional<int> lookup(llvm::StringRef name) const;

private:
  llvm::StringMap<int> ranks_;
};

/// libonnx's shape-inference message, shortened to its first error and led by
/// the node it names: "node 'add' (Add): shape inference: Incompatible ...".
std::string describeInferenceFailure(llvm::StringRef what);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_MODELCHECKS_H
