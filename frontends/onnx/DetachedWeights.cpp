//===- DetachedWeights.cpp - initializer data kept aside for a while ------===//

#include "frontends/onnx/DetachedWeights.h"

#include <algorithm>

using namespace geflow::onnxfe;

/// Shape inference and the converter's adapters read floating-point data only
/// as Resize or Upsample scales and Range bounds: one value per dim at most.
/// A larger floating-point tensor is a weight, however small (a 16x16 MatMul
/// weight of a 100k-node graph is one of 30k that would travel to the
/// contained process and back).
static bool isFloatWeight(const onnx::TensorProto &tensor) {
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::DOUBLE:
    break;
  default:
    return false;
  }
  int64_t elements = 1;
  for (int64_t dim : tensor.dims())
    if (__builtin_mul_overflow(elements, std::max<int64_t>(dim, 0), &elements))
      return true;
  return elements > DetachedWeights::kMaxFloatValues;
}

void DetachedWeights::detach(onnx::GraphProto &graph) {
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    if (tensor.ByteSizeLong() < kMinBytes && !isFloatWeight(tensor))
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
