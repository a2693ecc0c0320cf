//===- ReferenceEvaluator.h - host reference for the stream models -*- C++
//-*-===//
//
// Runs a float ONNX graph of rank-1/rank-2 tensors op by op on the host, so the
// stream test models ship outputs computed independently of geflow. It knows
// exactly the ops those models use: Identity, MatMul, Add, Mul, Relu, Tanh,
// Softmax (last axis), Slice (constant starts/ends/axes) and Concat.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TESTS_MODELS_STREAMS_REFERENCEEVALUATOR_H
#define GEFLOW_TESTS_MODELS_STREAMS_REFERENCEEVALUATOR_H

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace geflow::test {

struct FloatTensor {
  std::vector<int64_t> shape;
  std::vector<float> data;
};

using TensorMap = std::map<std::string, FloatTensor>;

/// The graph's outputs for `inputs`. Throws std::runtime_error on an op or a
/// shape it does not know.
TensorMap evaluateGraph(const onnx::GraphProto &graph, const TensorMap &inputs);

} // namespace geflow::test

#endif // GEFLOW_TESTS_MODELS_STREAMS_REFERENCEEVALUATOR_H
