//===- ConvertedInitializers.cpp - initializers converted ahead of import -===//

#include "frontends/onnx/ConvertedInitializers.h"
#include "frontends/onnx/TypeConversion.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace geflow::onnxfe;

void ConvertedInitializers::convert(mlir::MLIRContext &context,
                                    const onnx::GraphProto &graph,
                                    const MappedTensors *mapped) {
  // GraphImporter::importInitializers' choice of what to convert.
  llvm::StringSet<> used, inputs;
  for (const onnx::NodeProto &node : graph.node())
    for (const std::string &input : node.input())
      used.insert(input);
  for (const onnx::ValueInfoProto &output : graph.output())
    used.insert(output.name());
  for (const onnx::ValueInfoProto &input : graph.input())
    inputs.insert(input.name());
  for (const onnx::TensorProto &tensor : graph.initializer()) {
    if (!used.contains(tensor.name()) || inputs.contains(tensor.name()))
      continue;
    std::optional<ExternalBytes> external;
    if (mapped)
      external = mapped->lookup(tensor.name());
    // GraphImporter::takeLargeRawData would move these bytes out of the proto.
    if (!external && tensor.raw_data().size() >= MappedTensors::kMinBytes)
      continue;
    llvm::Expected<mlir::ElementsAttr> value =
        convertTensor(context, tensor, std::move(external));
    if (!value) {
      llvm::consumeError(value.takeError());
      continue;
    }
    values_[tensor.name()] = *value;
  }
}

mlir::ElementsAttr
ConvertedInitializers::lookup(const onnx::TensorProto &tensor) const {
  mlir::ElementsAttr value = values_.lookup(tensor.name());
  if (!value || !llvm::equal(value.getShapedType().getShape(), tensor.dims()))
    return {};
  return value;
}
