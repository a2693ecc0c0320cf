//===- Opsets.cpp - which ai.onnx opset a model imports -------------------===//

#include "frontends/onnx/Opsets.h"

using namespace geflow;
using namespace geflow::onnxfe;

bool onnxfe::isDefaultDomain(llvm::StringRef domain) {
  return domain.empty() || domain == "ai.onnx";
}

int64_t onnxfe::getDefaultOpset(const onnx::ModelProto &model) {
  for (const auto &opset : model.opset_import())
    if (isDefaultDomain(opset.domain()))
      return opset.version();
  return -1;
}

void onnxfe::setDefaultOpset(onnx::ModelProto &model, int64_t version) {
  for (auto &entry : *model.mutable_opset_import())
    if (isDefaultDomain(entry.domain()))
      entry.set_version(version);
}
