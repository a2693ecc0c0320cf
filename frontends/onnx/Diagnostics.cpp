//===- Diagnostics.cpp - the frontend's one-line errors -------------------===//

#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/Opsets.h"

using namespace geflow;
using namespace geflow::onnxfe;

llvm::Error onnxfe::makeError(const llvm::Twine &message) {
  // One line, always: libonnx messages carry newlines, and names from a damaged
  // file may hold any control character.
  std::string text = message.str();
  for (char &c : text)
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  while (!text.empty() && text.back() == ' ')
    text.pop_back();
  return llvm::make_error<llvm::StringError>(text,
                                             llvm::inconvertibleErrorCode());
}

std::string onnxfe::nodeDisplayName(const onnx::NodeProto &node, size_t index) {
  if (!node.name().empty())
    return node.name();
  return node.op_type() + "_" + std::to_string(index);
}

std::string onnxfe::describeNode(const onnx::NodeProto &node, int64_t opset,
                                 int64_t index) {
  std::string type = node.op_type();
  if (!isDefaultDomain(node.domain()))
    type = node.domain() + "." + type;
  std::string name = index >= 0            ? nodeDisplayName(node, index)
                     : node.name().empty() ? node.op_type()
                                           : node.name();
  return "node '" + name + "' (" + type + ", opset " + std::to_string(opset) +
         ")";
}
