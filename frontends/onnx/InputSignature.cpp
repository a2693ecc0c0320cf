//===- InputSignature.cpp - a model's graph inputs as declared ------------===//
//
// `geflow compile` with gears needs the -1s of every input before anything is
// imported: which dims the model leaves open and which --input-shape opens;
// the inputs are those of the model the import will see (its ATC edits made).

#include "frontends/onnx/ModelLoader.h"
#include "frontends/onnx/OnnxImporter.h"

#include "llvm/ADT/StringSet.h"

#include <exception>

using namespace geflow;
using namespace geflow::onnxfe;

llvm::Expected<std::vector<DeclaredInput>>
geflow::readOnnxInputSignature(llvm::StringRef path,
                               const OnnxImportOptions &options) {
  // The mapping keeps large initializers out of the parsed proto: only the
  // inputs are read here.
  MappedTensors mapped;
  llvm::Expected<onnx::ModelProto> model =
      [&]() -> llvm::Expected<onnx::ModelProto> {
    try {
      return readModelFileToImport(path, &mapped, options);
    } catch (const std::exception &e) {
      return makeError("cannot read '" + path + "': " + e.what());
    }
  }();
  if (!model)
    return model.takeError();
  const onnx::GraphProto &graph = model->graph();
  // Opset < 9 models list initializers among the inputs; they are constants.
  llvm::StringSet<> initializers;
  for (const auto &tensor : graph.initializer())
    initializers.insert(tensor.name());
  std::vector<DeclaredInput> inputs;
  for (const auto &input : graph.input()) {
    if (initializers.contains(input.name()))
      continue;
    DeclaredInput declared;
    declared.name = input.name();
    if (input.type().has_tensor_type() &&
        input.type().tensor_type().has_shape()) {
      declared.hasShape = true;
      for (const auto &dim : input.type().tensor_type().shape().dim())
        declared.dims.push_back(dim.has_dim_value() ? dim.dim_value() : -1);
    }
    inputs.push_back(std::move(declared));
  }
  return inputs;
}
