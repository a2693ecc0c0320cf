//===- EinsumShapes.h - Einsum output shapes libonnx leaves open -*- C++
//-*-===//
//
// libonnx 1.12 infers only the rank of an Einsum's output. Shape inference
// (ModelLoader.cpp) calls this between its rounds: the output dims follow
// from the equation and the operands' shapes (ir/EinsumEquation.h), and the
// next round carries them on to the Einsum's readers.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_EINSUMSHAPES_H
#define GEFLOW_FRONTENDS_ONNX_EINSUMSHAPES_H

#include "onnx/onnx_pb.h"

namespace geflow::onnxfe {

/// Writes the static output shape of every Einsum whose operands have static
/// shapes and whose output has none yet into the graph's value_info (or its
/// output). True when it wrote any.
bool completeEinsumShapes(onnx::GraphProto &graph);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_EINSUMSHAPES_H
