//===- DetachedWeights.h - initializer data kept aside for a while -*- C++
//-*-===//
//
// libonnx's version converter round-trips the whole graph through its IR,
// copying every initializer twice, and the contained libonnx process (see
// ContainedLibOnnx.h) gets the model serialized. Neither needs the weights'
// data, only their names, types and dims: large initializers are swapped out
// for data-less stand-ins meanwhile and swapped back afterwards, so weights are
// never copied.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_DETACHEDWEIGHTS_H
#define GEFLOW_FRONTENDS_ONNX_DETACHEDWEIGHTS_H

#include "onnx/onnx_pb.h"

#include <string>
#include <unordered_map>

namespace geflow::onnxfe {

class DetachedWeights {
public:
  /// Initializers whose proto has at least this many bytes are detached.
  /// Smaller ones keep what shape inference reads (shapes, axes, pads, scales:
  /// a shape of 512 dims would already be 4 KiB); larger ones are weights.
  static constexpr size_t kMinBytes = 4096;
  /// Floating-point initializers of more values than this are detached
  /// whatever their size: inference reads at most one float per dim.
  static constexpr int64_t kMaxFloatValues = 64;

  /// Replaces each large initializer of `graph` by a stand-in of the same name,
  /// type and dims, and keeps its data here.
  void detach(onnx::GraphProto &graph);

  /// Gives each stand-in of `graph` its data back. The stand-in's dims win:
  /// whoever held the graph meanwhile may have reshaped the tensor (a legacy
  /// PRelu slope), never its data.
  void reattach(onnx::GraphProto &graph);

private:
  std::unordered_map<std::string, onnx::TensorProto> weights_;
};

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_DETACHEDWEIGHTS_H
