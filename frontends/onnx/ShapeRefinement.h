//===- ShapeRefinement.h - ONNX inference and ge folding in turn --*- C++
//-*-===//
#ifndef GEFLOW_FRONTENDS_ONNX_SHAPEREFINEMENT_H
#define GEFLOW_FRONTENDS_ONNX_SHAPEREFINEMENT_H

#include "onnx/onnx_pb.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"

namespace geflow::onnxfe {

/// While some node output has no static shape after libonnx's inference,
/// imports the static part of the graph, lets the dialect's folders compute
/// what they can (libonnx's data propagation stops at Div, Where, Range, ...),
/// writes the folded inputs of the stuck nodes back into the model as
/// initializers and infers again. Stops when everything is static or a round
/// learns nothing; the final import then reports whatever is still dynamic.
llvm::Error refineShapesByFolding(mlir::MLIRContext &context,
                                  onnx::ModelProto &model,
                                  llvm::StringRef sourceName);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_SHAPEREFINEMENT_H
