//===- ShapeRefinement.cpp - ONNX inference and ge folding in turn --------===//

#include "frontends/onnx/ShapeRefinement.h"
#include "frontends/onnx/GraphImporter.h"
#include "frontends/onnx/ModelLoader.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace geflow::onnxfe;

static bool allNodeOutputsStatic(const onnx::GraphProto &graph) {
  llvm::StringMap<const onnx::TypeProto *> types;
  for (const auto &info : graph.value_info())
    types[info.name()] = &info.type();
  for (const auto &info : graph.output())
    types[info.name()] = &info.type();
  for (const auto &node : graph.node())
    for (const std::string &output : node.output()) {
      if (output.empty())
        continue;
      const onnx::TypeProto *type = types.lookup(output);
      if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
        return false;
      for (const auto &dim : type->tensor_type().shape().dim())
        if (!dim.has_dim_value())
          return false;
    }
  return true;
}

static std::optional<int32_t> onnxDataType(Type type) {
  if (type.isF32())
    return onnx::TensorProto::FLOAT;
  if (type.isF64())
    return onnx::TensorProto::DOUBLE;
  if (type.isF16())
    return onnx::TensorProto::FLOAT16;
  if (type.isBF16())
    return onnx::TensorProto::BFLOAT16;
  auto integer = llvm::dyn_cast<IntegerType>(type);
  if (!integer)
    return std::nullopt;
  bool isUnsigned = integer.isUnsigned();
  switch (integer.getWidth()) {
  case 1:
    return onnx::TensorProto::BOOL;
  case 8:
    return isUnsigned ? onnx::TensorProto::UINT8 : onnx::TensorProto::INT8;
  case 16:
    return isUnsigned ? onnx::TensorProto::UINT16 : onnx::TensorProto::INT16;
  case 32:
    return isUnsigned ? onnx::TensorProto::UINT32 : onnx::TensorProto::INT32;
  case 64:
    return isUnsigned ? onnx::TensorProto::UINT64 : onnx::TensorProto::INT64;
  default:
    return std::nullopt;
  }
}

/// DenseElementsAttr -> TensorProto with little-endian raw_data (bool: one
/// byte).
static std::optional<onnx::TensorProto> toTensorProto(const std::string &name,
                                                      DenseElementsAttr attr) {
  auto type = llvm::cast<ShapedType>(attr.getType());
  auto dataType = onnxDataType(type.getElementType());
  if (!dataType || type.getNumElements() > 65536)
    return std::nullopt;
  onnx::TensorProto tensor;
  tensor.set_name(name);
  tensor.set_data_type(*dataType);
  for (int64_t dim : type.getShape())
    tensor.add_dims(dim);
  std::string raw;
  auto appendBits = [&](const llvm::APInt &bits) {
    unsigned bytes = std::max(1u, bits.getBitWidth() / 8);
    uint64_t word = bits.getZExtValue();
    for (unsigned i = 0; i < bytes; ++i)
      raw.push_back(static_cast<char>((word >> (8 * i)) & 0xff));
  };
  if (llvm::isa<FloatType>(type.getElementType())) {
    for (const llvm::APFloat &value : attr.getValues<llvm::APFloat>())
      appendBits(value.bitcastToAPInt());
  } else {
    for (const llvm::APInt &value : attr.getValues<llvm::APInt>())
      appendBits(value);
  }
  tensor.set_raw_data(std::move(raw));
  return tensor;
}

llvm::Error geflow::onnxfe::refineShapesByFolding(MLIRContext &context,
                                                  onnx::ModelProto &model,
                                                  llvm::StringRef sourceName) {
  // Each round unblocks at least one node; chained blocks (ShuffleNet's channel
  // split in every unit) take one round each.
  constexpr int kMaxRounds = 256;
  onnx::GraphProto &graph = *model.mutable_graph();
  for (int round = 0; round < kMaxRounds; ++round) {
    if (allNodeOutputsStatic(graph))
      return llvm::Error::success();
    auto probe = probeFoldedInputs(context, model, sourceName);
    if (!probe) {
      // The final import meets the same problem and reports it with context.
      llvm::consumeError(probe.takeError());
      return llvm::Error::success();
    }
    if (!probe->anySkipped || probe->constants.empty())
      return llvm::Error::success();

    llvm::StringSet<> taken;
    for (const auto &tensor : graph.initializer())
      taken.insert(tensor.name());
    bool changed = false;
    for (const auto &[name, value] : probe->constants) {
      std::string folded = name + "_geflow_folded";
      for (int i = 1; taken.contains(folded); ++i)
        folded = name + "_geflow_folded" + std::to_string(i);
      auto tensor = toTensorProto(folded, value);
      if (!tensor)
        continue;
      taken.insert(folded);
      *graph.add_initializer() = std::move(*tensor);
      // Every reader now sees the constant; the producing chain is left dead
      // and folds away in the final import.
      for (onnx::NodeProto &node : *graph.mutable_node())
        for (std::string &input : *node.mutable_input())
          if (input == name)
            input = folded;
      changed = true;
    }
    if (!changed)
      return llvm::Error::success();
    dropShapeHints(graph);
    if (auto err = inferShapes(model))
      return err;
  }
  return llvm::Error::success();
}
