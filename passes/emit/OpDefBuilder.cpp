//===- OpDefBuilder.cpp - a ge op in the OM's OpDef form ------------------===//

#include "passes/emit/OpDefBuilder.h"

#include "ir/ChannelBlocks.h"
#include "ir/ElementsBytes.h"
#include "ir/GeOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

using namespace mlir;

namespace geflow::passes {

om::DataType toGeDataType(Type t) {
  if (t.isF32())
    return om::DT_FLOAT;
  if (t.isF16())
    return om::DT_FLOAT16;
  if (t.isBF16())
    return om::DT_BF16;
  if (t.isF64())
    return om::DT_DOUBLE;
  auto i = dyn_cast<IntegerType>(t);
  if (!i)
    return om::DT_UNDEFINED;
  bool isUnsigned = i.isUnsigned();
  switch (i.getWidth()) {
  case 1:
    return om::DT_BOOL;
  case 8:
    return isUnsigned ? om::DT_UINT8 : om::DT_INT8;
  case 16:
    return isUnsigned ? om::DT_UINT16 : om::DT_INT16;
  case 32:
    return isUnsigned ? om::DT_UINT32 : om::DT_INT32;
  case 64:
    return isUnsigned ? om::DT_UINT64 : om::DT_INT64;
  default:
    return om::DT_UNDEFINED;
  }
}

/// Bytes of one element as stored (bool: one byte).
static int64_t elementBytes(Type t) {
  if (toGeDataType(t) == om::DT_UNDEFINED)
    return -1;
  unsigned bits = t.getIntOrFloatBitWidth();
  return bits == 1 ? 1 : bits / 8;
}

int64_t tensorBytes(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return -1;
  int64_t bytes = elementBytes(shaped.getElementType());
  return bytes < 0 ? -1 : bytes * shaped.getNumElements();
}

om::TensorDescriptor toTensorDescriptor(Type type) {
  om::TensorDescriptor desc;
  auto shaped = dyn_cast<RankedTensorType>(type);
  if (!shaped)
    return desc;
  desc.set_dtype(toGeDataType(shaped.getElementType()));
  for (int64_t d : shaped.getShape())
    desc.add_shape(d);
  desc.set_layout(shaped.getRank() == 4 ? "NCHW" : "ND");
  desc.set_size(std::max<int64_t>(tensorBytes(type), 0));
  return desc;
}

namespace {

/// Whether `v` is in NC1HWC0: a trans_data's or a blocked conv's or pool's
/// result, or a [N, C1, H, W, 16] result of an op reading such a value (the
/// elementwise ops of a run). `depth` bounds the walk up such ops.
bool isChannelBlocked(Value v, int depth = 16) {
  Operation *def = v.getDefiningOp();
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!def || !type || type.getRank() != 5 ||
      type.getDimSize(4) != ge::kChannelBlock || depth == 0)
    return false;
  if (auto trans = dyn_cast<ge::TransDataOp>(def))
    return trans.getDstFormat() == ge::kBlockedFormat;
  if (auto format = def->getAttrOfType<StringAttr>("data_format"))
    return format.getValue() == ge::kBlockedFormat;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isChannelBlocked(operand, depth - 1);
  });
}

} // namespace

om::TensorDescriptor toTensorDescriptor(Value value) {
  om::TensorDescriptor desc = toTensorDescriptor(value.getType());
  if (isChannelBlocked(value))
    desc.set_layout(ge::kBlockedFormat.str());
  return desc;
}

bool isComputeOp(Operation *op) {
  // Terminators and region ops (functions, the user annotation scopes, which
  // an earlier pass lowers) launch nothing themselves; npu_wait_tensor is an
  // ordering edge that event insertion turns into events.
  if (op->hasTrait<OpTrait::IsTerminator>() || op->getNumRegions() > 0)
    return false;
  llvm::StringRef name = op->getName().getStringRef();
  return name != "ge.constant" && name != "ge.npu_wait_tensor";
}

std::string nameFromLoc(Location loc) {
  if (auto named = dyn_cast<NameLoc>(loc))
    return named.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations()) {
      std::string name = nameFromLoc(inner);
      if (!name.empty())
        return name;
    }
  return "";
}

std::string opDefType(Operation *op) {
  StringRef name = op->getName().getStringRef();
  name.consume_front("ge.");
  return name.str();
}

llvm::Error opError(Operation *op, const llvm::Twine &what) {
  std::string name = nameFromLoc(op->getLoc());
  return llvm::createStringError(
      llvm::inconvertibleErrorCode(),
      "node '" + (name.empty() ? std::string("?") : name) + "' (" +
          opDefType(op) + "): " + what.str());
}

/// Every GE dtype is at most 64 bits wide.
static void appendLittleEndian(const llvm::APInt &v, unsigned bytes,
                               std::vector<uint8_t> &out) {
  uint64_t word = v.getZExtValue();
  for (unsigned b = 0; b < bytes; ++b)
    out.push_back(static_cast<uint8_t>(word >> (8 * b)));
}

llvm::Error appendElementsBytes(ElementsAttr value, std::vector<uint8_t> &out) {
  Type elementType = value.getShapedType().getElementType();
  int64_t bytes = elementBytes(elementType);
  if (bytes < 0)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "constant has no GE data type");
  // Fast path: the storage already is the row-major little-endian layout.
  if (std::optional<ArrayRef<char>> raw = mlir::ge::getStoredBytes(value)) {
    out.insert(out.end(), raw->begin(), raw->end());
    return llvm::Error::success();
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "constant has no data of its type's size (a dense_resource whose "
        "blob is missing or of another size?)");
  unsigned bits = elementType.getIntOrFloatBitWidth();
  int64_t count = value.getNumElements();
  out.reserve(out.size() + count * bytes);
  if (isa<FloatType>(elementType)) {
    for (const llvm::APFloat &f : dense.getValues<llvm::APFloat>())
      appendLittleEndian(f.bitcastToAPInt(), bytes, out);
  } else {
    for (const llvm::APInt &i : dense.getValues<llvm::APInt>())
      appendLittleEndian(bits == 1 ? i.zext(8) : i, bytes, out);
  }
  return llvm::Error::success();
}

/// One attribute in OpDef form; false when it has none.
static bool convertAttr(Attribute attr, om::AttrDef &out, llvm::Error &err) {
  if (auto b = dyn_cast<BoolAttr>(attr)) {
    out.set_b(b.getValue());
    return true;
  }
  if (auto i = dyn_cast<IntegerAttr>(attr)) {
    out.set_i(i.getType().isUnsignedInteger() ? int64_t(i.getUInt())
                                              : i.getInt());
    return true;
  }
  if (auto f = dyn_cast<FloatAttr>(attr)) {
    out.set_f(static_cast<float>(f.getValueAsDouble()));
    return true;
  }
  if (auto s = dyn_cast<StringAttr>(attr)) {
    out.set_s(s.getValue().str());
    return true;
  }
  if (auto ints = dyn_cast<DenseI64ArrayAttr>(attr)) {
    om::ListValue *list = out.mutable_list();
    for (int64_t v : ints.asArrayRef())
      list->add_i(v);
    return true;
  }
  if (auto ints = dyn_cast<DenseI32ArrayAttr>(attr)) {
    om::ListValue *list = out.mutable_list();
    for (int32_t v : ints.asArrayRef())
      list->add_i(v);
    return true;
  }
  if (auto floats = dyn_cast<DenseF32ArrayAttr>(attr)) {
    om::ListValue *list = out.mutable_list();
    for (float v : floats.asArrayRef())
      list->add_f(v);
    return true;
  }
  // A list of strings (fused_elementwise's steps).
  if (auto array = dyn_cast<ArrayAttr>(attr);
      array && llvm::all_of(array, llvm::IsaPred<StringAttr>)) {
    om::ListValue *list = out.mutable_list();
    for (Attribute s : array)
      list->add_s(cast<StringAttr>(s).getValue().str());
    return true;
  }
  if (auto elements = dyn_cast<ElementsAttr>(attr)) {
    om::TensorDef *t = out.mutable_t();
    *t->mutable_desc() = toTensorDescriptor(elements.getShapedType());
    std::vector<uint8_t> bytes;
    if (llvm::Error e = appendElementsBytes(elements, bytes)) {
      err = std::move(e);
      return false;
    }
    t->set_data(std::string(bytes.begin(), bytes.end()));
    return true;
  }
  if (isa<UnitAttr>(attr)) {
    out.set_b(true);
    return true;
  }
  return false;
}

llvm::Error fillOpDef(Operation *op, om::OpDef &def,
                      llvm::function_ref<std::string(Value)> refOf) {
  def.set_type(opDefType(op));

  for (NamedAttribute named : op->getAttrs()) {
    StringRef name = named.getName().strref();
    // Scheduling and planning attributes are GE fields, not kernel attributes;
    // segment sizes are how MLIR spells absent operands (see below).
    if (name.contains('.') || name == "operandSegmentSizes" ||
        name == "resultSegmentSizes")
      continue;
    om::AttrDef value;
    llvm::Error err = llvm::Error::success();
    bool converted = convertAttr(named.getValue(), value, err);
    if (err)
      return opError(op,
                     "attribute '" + name + "': " + toString(std::move(err)));
    if (!converted)
      return opError(op, "attribute '" + name + "' has no OM form");
    (*def.mutable_attr())[name.str()] = std::move(value);
  }

  // Operands, with a placeholder for each absent optional operand in the
  // middle (om.proto: "" in `input`, DT_UNDEFINED in `input_desc`).
  auto addOperand = [&](Value v) {
    if (refOf)
      def.add_input(refOf(v));
    *def.add_input_desc() = toTensorDescriptor(v);
  };
  std::optional<Attribute> segments =
      op->getInherentAttr("operandSegmentSizes");
  auto sizes = segments ? dyn_cast_or_null<DenseI32ArrayAttr>(*segments)
                        : DenseI32ArrayAttr();
  if (!sizes) {
    for (Value v : op->getOperands())
      addOperand(v);
  } else {
    unsigned next = 0, pending = 0;
    for (int32_t size : sizes.asArrayRef()) {
      if (size == 0) {
        ++pending;
        continue;
      }
      for (; pending > 0; --pending) {
        if (refOf)
          def.add_input("");
        def.add_input_desc()->set_dtype(om::DT_UNDEFINED);
      }
      for (int32_t k = 0; k < size; ++k)
        addOperand(op->getOperand(next++));
    }
  }

  for (Value r : op->getResults())
    *def.add_output_desc() = toTensorDescriptor(r);
  return llvm::Error::success();
}

FailureOr<OpPlan> planComputeOp(Operation *op, bool requireKernels) {
  om::OpDef def;
  def.set_name(nameFromLoc(op->getLoc()));
  if (llvm::Error err = fillOpDef(op, def)) {
    op->emitOpError() << llvm::toString(std::move(err));
    return failure();
  }
  llvm::Expected<OpPlan> plan = planOp(def, requireKernels);
  if (!plan) {
    op->emitOpError() << llvm::toString(plan.takeError());
    return failure();
  }
  return std::move(*plan);
}

} // namespace geflow::passes
