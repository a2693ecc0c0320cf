//===- Opsets.h - which ai.onnx opset a model imports -----------*- C++ -*-===//
#ifndef GEFLOW_FRONTENDS_ONNX_OPSETS_H
#define GEFLOW_FRONTENDS_ONNX_OPSETS_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace geflow::onnxfe {

/// True for the default ONNX operator domain ("" or "ai.onnx").
bool isDefaultDomain(llvm::StringRef domain);

/// The model's ai.onnx opset, or -1 when it imports none.
int64_t getDefaultOpset(const onnx::ModelProto &model);

/// Sets the version of every ai.onnx entry of the model's opset imports.
void setDefaultOpset(onnx::ModelProto &model, int64_t version);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_OPSETS_H
