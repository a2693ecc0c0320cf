//===- Diagnostics.h - the frontend's one-line errors -----------*- C++ -*-===//
//
// How every file of the frontend reports a problem: one line, no "error: "
// prefix, naming the node the way its location does. Below every other file
// here, so that the checks, the tables and the contained libonnx can report
// without depending on the loader that calls them.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_DIAGNOSTICS_H
#define GEFLOW_FRONTENDS_ONNX_DIAGNOSTICS_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace geflow::onnxfe {

/// Builds the one-line error the whole frontend uses.
llvm::Error makeError(const llvm::Twine &message);

/// `node 'name' (OpType, opset N)`: how messages name a node. With its index,
/// an unnamed node is called `<OpType>_<index>`, as in its location.
std::string describeNode(const onnx::NodeProto &node, int64_t opset,
                         int64_t index = -1);

/// The name the importer gives a node: its own, or `<OpType>_<index>`.
std::string nodeDisplayName(const onnx::NodeProto &node, size_t index);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_DIAGNOSTICS_H
