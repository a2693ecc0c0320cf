//===- DetachedWeights.cpp - initializer data kept aside for a while ------===//

#include "frontends/onnx/DetachedWeights.h"

using namespace geflow::onnxfe;

void DetachedWeights::detach(onnx::GraphProto &graph) {
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    if (tensor.ByteSizeLong() < kMinBytes)
      continue;
    onnx::TensorProto standIn;
    standIn.set_name(tensor.name());
    standIn.set_data_type(tensor.data_type());
    *standIn.mutable_dims() = tensor.dims();
    weights_[tensor.name()].Swap(&tensor);
    tensor.Swap(&standIn);
  }
}

void DetachedWeights::reattach(onnx::GraphProto &graph) {
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    auto it = weights_.find(tensor.name());
    if (it == weights_.end())
      continue;
    it->second.mutable_dims()->Swap(tensor.mutable_dims());
    tensor.Swap(&it->second);
  }
  weights_.clear();
}
