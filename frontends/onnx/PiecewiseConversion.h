//===- PiecewiseConversion.h - version conversion in bounded pieces -*- C++
//-*-===//
//
// libonnx's version converter is quadratic in the graph: its IR gives every
// new value a fresh name by scanning every node (onnx::Graph::isNameUnique),
// so a 100k-node model would take minutes. Its adapters are node-local,
// though: each rewrites one node from its own inputs' types and attributes.
// So a large graph is converted in pieces of consecutive nodes, each piece a
// small model of its own whose graph inputs are the values it reads (with the
// types the model records) and whose graph outputs are every value it makes;
// pieces without a node the converter would change (LibOnnxConverter.h) are
// not converted at all. libonnx stays the one reference for what each version
// means; only the amount of graph it sees at once is bounded.
//
// Small graphs and graphs with subgraphs (If, Loop, Scan: a body reads the
// outer scope) are converted whole, as before.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_PIECEWISECONVERSION_H
#define GEFLOW_FRONTENDS_ONNX_PIECEWISECONVERSION_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace geflow::onnxfe {

/// Converts one whole model (libonnx's converter, or a test's stand-in).
using WholeModelConversion =
    llvm::function_ref<llvm::Error(onnx::ModelProto &model)>;

/// Brings `model`'s ai.onnx opset to `target` by running `convert` on pieces
/// of at most `pieceNodes` consecutive nodes; values the converter adds get
/// names unique in the whole model. A graph of at most `pieceNodes` nodes, or
/// one with subgraphs, goes to `convert` whole.
llvm::Error convertPiecewise(onnx::ModelProto &model, int64_t target,
                             WholeModelConversion convert,
                             int pieceNodes = 256);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_PIECEWISECONVERSION_H
