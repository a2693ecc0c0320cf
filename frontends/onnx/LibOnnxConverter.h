//===- LibOnnxConverter.h - what the version converter would change -*- C++
//-*-===//
//
// libonnx's version converter walks every node through every opset between
// the model's and the target, applying the adapter it registered for each
// step where the node's schema changes. Most such steps are registered as
// `CompatibleAdapter`, which returns the node as it is (Add 13->14 only widened
// its types). A node whose steps are all compatible leaves the converter
// unchanged, so it need not go there: a model whose every node is such a node
// is converted by writing the new opset number, and libonnx's round trip
// through its IR (and the contained process) is skipped. libonnx's own adapter
// table stays the reference for what is compatible.
//
// The converter is built once per process: building one copies every schema
// of every opset (milliseconds).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_LIBONNXCONVERTER_H
#define GEFLOW_FRONTENDS_ONNX_LIBONNXCONVERTER_H

#include "onnx/onnx_pb.h"
#include "onnx/version_converter/convert.h"

#include <cstdint>

namespace geflow::onnxfe {

class LibOnnxConverter final
    : public onnx::version_conversion::DefaultVersionConverter {
public:
  /// The process's converter.
  static const LibOnnxConverter &get();

  /// True unless converting `node` from opset `from` up to `to` would leave it
  /// as it is: each step where its schema changes has a CompatibleAdapter.
  /// Conservatively true for anything else the converter would look at
  /// (another domain, subgraphs, an op or step it does not know, a downgrade).
  bool adapts(const onnx::NodeProto &node, int64_t from, int64_t to) const;

  /// True when `adapts` holds for some node of `model`'s main graph.
  bool adaptsAny(const onnx::ModelProto &model, int64_t from, int64_t to) const;

private:
  LibOnnxConverter() = default;
};

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_LIBONNXCONVERTER_H
