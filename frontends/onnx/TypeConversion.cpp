//===- TypeConversion.cpp - ONNX types, tensors, attributes -> MLIR -------===//

#include "frontends/onnx/TypeConversion.h"
#include "frontends/onnx/Diagnostics.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace geflow::onnxfe;

using onnx::TensorProto;

llvm::StringRef geflow::onnxfe::dataTypeName(int32_t dataType) {
  if (TensorProto::DataType_IsValid(dataType))
    return TensorProto::DataType_Name(
        static_cast<TensorProto::DataType>(dataType));
  return "unknown data type";
}

llvm::Expected<Type> geflow::onnxfe::convertElementType(MLIRContext &context,
                                                        int32_t dataType) {
  Builder b(&context);
  switch (dataType) {
  case TensorProto::FLOAT:
    return b.getF32Type();
  case TensorProto::DOUBLE:
    return b.getF64Type();
  case TensorProto::FLOAT16:
    return b.getF16Type();
  case TensorProto::BFLOAT16:
    return b.getBF16Type();
  case TensorProto::INT8:
    return b.getIntegerType(8);
  case TensorProto::INT16:
    return b.getIntegerType(16);
  case TensorProto::INT32:
    return b.getIntegerType(32);
  case TensorProto::INT64:
    return b.getIntegerType(64);
  case TensorProto::UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case TensorProto::UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case TensorProto::UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case TensorProto::UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  case TensorProto::BOOL:
    return b.getI1Type();
  default:
    return makeError("element type " + dataTypeName(dataType) +
                     " is not supported");
  }
}

llvm::Expected<RankedTensorType>
geflow::onnxfe::convertTensorType(MLIRContext &context,
                                  const onnx::TypeProto &type) {
  if (!type.has_tensor_type())
    return makeError(
        "only tensor values are supported (sequence, map and optional "
        "types are not)");
  const auto &tensorType = type.tensor_type();
  auto elementType = convertElementType(context, tensorType.elem_type());
  if (!elementType)
    return elementType.takeError();
  if (!tensorType.has_shape())
    return makeError("the rank is unknown");
  SmallVector<int64_t> shape;
  for (const auto &dim : tensorType.shape().dim())
    shape.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                        ? dim.dim_value()
                        : ShapedType::kDynamic);
  return RankedTensorType::get(shape, *elementType);
}

size_t geflow::onnxfe::elementByteWidth(int32_t dataType) {
  switch (dataType) {
  case TensorProto::DOUBLE:
  case TensorProto::INT64:
  case TensorProto::UINT64:
    return 8;
  case TensorProto::FLOAT:
  case TensorProto::INT32:
  case TensorProto::UINT32:
    return 4;
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
  case TensorProto::INT16:
  case TensorProto::UINT16:
    return 2;
  case TensorProto::INT8:
  case TensorProto::UINT8:
  case TensorProto::BOOL:
    return 1;
  default:
    return 0;
  }
}

/// Copies the typed repeated field that holds `dataType` into little-endian
/// bytes of the element width. Returns the number of elements found.
static int64_t packTypedData(const TensorProto &tensor,
                             std::vector<char> &bytes) {
  size_t width = elementByteWidth(tensor.data_type());
  auto append = [&](const void *value) {
    const char *p = static_cast<const char *>(value);
    bytes.insert(bytes.end(), p, p + width);
  };
  switch (tensor.data_type()) {
  case TensorProto::FLOAT:
    for (float v : tensor.float_data())
      append(&v);
    return tensor.float_data_size();
  case TensorProto::DOUBLE:
    for (double v : tensor.double_data())
      append(&v);
    return tensor.double_data_size();
  case TensorProto::INT64:
    for (int64_t v : tensor.int64_data())
      append(&v);
    return tensor.int64_data_size();
  case TensorProto::UINT32:
  case TensorProto::UINT64:
    for (uint64_t v : tensor.uint64_data()) {
      if (width == 4) {
        uint32_t narrow = static_cast<uint32_t>(v);
        append(&narrow);
      } else {
        append(&v);
      }
    }
    return tensor.uint64_data_size();
  default:
    // int8/16/32, uint8/16, bool, float16, bfloat16: int32_data, truncated to
    // the element width (float16/bfloat16 hold their bit patterns there).
    for (int32_t v : tensor.int32_data()) {
      uint32_t bits = static_cast<uint32_t>(v);
      if (width == 4) {
        append(&bits);
      } else if (width == 2) {
        uint16_t narrow = static_cast<uint16_t>(bits);
        append(&narrow);
      } else {
        uint8_t narrow = static_cast<uint8_t>(bits);
        append(&narrow);
      }
    }
    return tensor.int32_data_size();
  }
}

/// A resource key that the text IR parser reads back: a bare identifier
/// (a letter or '_', then letters, digits, '_', '.'), here the tensor's name
/// with every other character replaced. The blob manager makes it unique.
static std::string resourceKey(llvm::StringRef name) {
  bool bare =
      !name.empty() && (llvm::isAlpha(name.front()) || name.front() == '_');
  std::string key = bare ? "" : "w_";
  for (char c : name)
    key.push_back(llvm::isAlnum(c) || c == '_' || c == '.' ? c : '_');
  return key;
}

/// A blob over `external.bytes` that keeps their owner alive as long as the
/// context holds it. raw_data sits anywhere in a protobuf file, so the
/// alignment is what the address gives, at most the element width.
static AsmResourceBlob borrowBlob(ExternalBytes external, size_t width) {
  size_t align = width;
  while (align > 1 &&
         reinterpret_cast<uintptr_t>(external.bytes.data()) % align != 0)
    align /= 2;
  return UnmanagedAsmResourceBlob::allocateWithAlign(
      external.bytes, align,
      [owner = std::move(external.owner)](void *, size_t, size_t) {});
}

llvm::Expected<ElementsAttr>
geflow::onnxfe::convertTensor(MLIRContext &context, const TensorProto &tensor,
                              std::optional<ExternalBytes> external) {
  auto fail = [&](const llvm::Twine &why) {
    return makeError("tensor '" + tensor.name() + "': " + why);
  };
  if (tensor.data_location() == TensorProto::EXTERNAL)
    return fail("external data is only read when importing from a file");
  auto elementType = convertElementType(context, tensor.data_type());
  if (!elementType)
    return fail(llvm::toString(elementType.takeError()));
  SmallVector<int64_t> shape;
  int64_t numElements = 1;
  for (int64_t dim : tensor.dims()) {
    if (dim < 0)
      return fail("negative dim " + llvm::Twine(dim));
    shape.push_back(dim);
    numElements *= dim;
  }
  auto type = RankedTensorType::get(shape, *elementType);
  size_t width = elementByteWidth(tensor.data_type());

  std::vector<char> packed;
  llvm::ArrayRef<char> bytes;
  if (external) {
    bytes = external->bytes;
  } else if (tensor.has_raw_data()) {
    bytes = llvm::ArrayRef<char>(tensor.raw_data().data(),
                                 tensor.raw_data().size());
  } else {
    int64_t count = packTypedData(tensor, packed);
    if (count != numElements)
      return fail("holds " + llvm::Twine(count) + " values for " +
                  llvm::Twine(numElements) + " elements");
    bytes = packed;
  }
  if (bytes.size() != static_cast<size_t>(numElements) * width)
    return fail("holds " + llvm::Twine(bytes.size()) + " bytes, " +
                dataTypeName(tensor.data_type()) + " shape needs " +
                llvm::Twine(numElements * width));

  if (external && tensor.data_type() != TensorProto::BOOL)
    return ElementsAttr(DenseResourceElementsAttr::get(
        type, resourceKey(tensor.name()), borrowBlob(*external, width)));

  DenseElementsAttr attr;
  if (tensor.data_type() == TensorProto::BOOL) {
    // MLIR packs i1 into bits; ONNX stores one byte per element.
    SmallVector<bool> values;
    values.reserve(numElements);
    for (char c : bytes)
      values.push_back(c != 0);
    attr = DenseElementsAttr::get(type, values);
  } else {
    bool detectedSplat = false;
    if (!DenseElementsAttr::isValidRawBuffer(type, bytes, detectedSplat))
      return fail("raw data does not fit its type");
    attr = DenseElementsAttr::getFromRawBuffer(type, bytes);
  }
  return ElementsAttr(attr);
}

llvm::Expected<Attribute>
geflow::onnxfe::convertAttribute(MLIRContext &context,
                                 const onnx::AttributeProto &attr) {
  Builder b(&context);
  auto kind = attr.type();
  if (kind == onnx::AttributeProto::UNDEFINED) {
    // IR version 1 models leave the type out; the field that is set says it.
    if (attr.has_f())
      kind = onnx::AttributeProto::FLOAT;
    else if (attr.has_i())
      kind = onnx::AttributeProto::INT;
    else if (attr.has_s())
      kind = onnx::AttributeProto::STRING;
    else if (attr.has_t())
      kind = onnx::AttributeProto::TENSOR;
    else if (attr.floats_size())
      kind = onnx::AttributeProto::FLOATS;
    else
      kind = onnx::AttributeProto::INTS;
  }
  switch (kind) {
  case onnx::AttributeProto::INT:
    return b.getI64IntegerAttr(attr.i());
  case onnx::AttributeProto::FLOAT:
    return b.getF32FloatAttr(attr.f());
  case onnx::AttributeProto::STRING:
    return b.getStringAttr(attr.s());
  case onnx::AttributeProto::INTS:
    return b.getDenseI64ArrayAttr(
        SmallVector<int64_t>(attr.ints().begin(), attr.ints().end()));
  case onnx::AttributeProto::FLOATS:
    return b.getDenseF32ArrayAttr(
        SmallVector<float>(attr.floats().begin(), attr.floats().end()));
  case onnx::AttributeProto::STRINGS:
    return b.getStrArrayAttr(
        SmallVector<StringRef>(attr.strings().begin(), attr.strings().end()));
  case onnx::AttributeProto::TENSOR: {
    auto value = convertTensor(context, attr.t());
    if (!value)
      return value.takeError();
    return Attribute(*value);
  }
  default:
    return makeError("attribute '" + attr.name() + "' has type " +
                     onnx::AttributeProto::AttributeType_Name(kind) +
                     ", which is not supported");
  }
}

std::string geflow::onnxfe::typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}
