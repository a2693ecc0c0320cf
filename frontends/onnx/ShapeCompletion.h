//===- ShapeCompletion.h - dims ONNX inference leaves unknown ---*- C++ -*-===//
#ifndef GEFLOW_FRONTENDS_ONNX_SHAPECOMPLETION_H
#define GEFLOW_FRONTENDS_ONNX_SHAPECOMPLETION_H

#include "onnx/onnx_pb.h"

namespace geflow::onnxfe {

/// ONNX's shape inference leaves a dim unknown when its size is the value of
/// an operand even if that operand is constant: OneHot's depth dim and
/// MaxUnpool's output_shape. With the operand an initializer or a Constant
/// node's output, writes the output's static shape into the graph (value_info
/// or graph output). Returns true when it completed any shape, after which
/// inference should run again to carry the shapes downstream.
bool completeShapesFromConstants(onnx::GraphProto &graph);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_SHAPECOMPLETION_H
