//===- TestDataBinding.h - graph inputs that must be constants -*- C++ -*-===//
//
// geflow compiles for static shapes, as GE does. Some backend tests feed a
// shape operand (Reshape's shape, Slice's starts, ...) from a graph input; for
// those the test data's values are bound into the model as initializers, and
// the test then runs with the remaining inputs.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_CONFORMANCE_TESTDATABINDING_H
#define GEFLOW_TESTS_CONFORMANCE_TESTDATABINDING_H

#include "onnx/onnx_pb.h"

#include <filesystem>
#include <string>
#include <vector>

namespace geflow::conformance {

/// True when an import error says a shape could not be made static.
bool needsBinding(const std::string &importError);

/// The positions K (input_K.pb) of the graph inputs that are not initializers.
std::vector<int> runtimeInputPositions(const onnx::ModelProto &model);

/// Turns the graph inputs that feed shape operands (and, with
/// `alsoIntegerInputs`, every int32/int64 input) into initializers holding
/// `dataSet`/input_K.pb. Returns the positions K of the inputs left.
std::vector<int> bindShapeInputs(onnx::ModelProto &model,
                                 const std::filesystem::path &dataSet,
                                 bool alsoIntegerInputs = false);

} // namespace geflow::conformance

#endif // GEFLOW_TESTS_CONFORMANCE_TESTDATABINDING_H
