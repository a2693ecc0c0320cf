//===- OpTable.cpp - which ge op each ONNX op becomes ---------------------===//

#include "frontends/onnx/OpTable.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/TypeConversion.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace geflow::onnxfe;

namespace {
/// The opset every model is converted to before import (ModelLoader).
constexpr unsigned kImportOpset = 17;

/// A row's IMPORT(Segments, Results, Extra) column. Built with parentheses:
/// a macro argument protects the commas inside them, not inside braces.
struct ImportRule {
  constexpr ImportRule(unsigned segments, int numResults,
                       OpSpec::ExtraResult extra)
      : segments(segments), numResults(numResults), extra(extra) {}
  unsigned segments;
  int numResults;
  OpSpec::ExtraResult extra;
};

OpSpec makeSpec(llvm::StringRef onnx, llvm::StringRef name, unsigned since,
                ImportRule rule) {
  return {onnx, name, rule.segments, rule.numResults, rule.extra, since};
}

// Every op of the op table; the ones with an ONNX name the importer makes.
#define IMPORT(Segments, Results, Extra)                                       \
  ImportRule(Segments, Results, OpSpec::ExtraResult::Extra)
const OpSpec kOps[] = {
#define GE_OP(Name, Onnx, Since, Family, Engine, Kernel, Import)               \
  makeSpec(#Onnx, #Name, Since, Import),
#include "ir/GeOpTable.def"
};
#undef IMPORT

bool importable(const OpSpec &spec) {
  return spec.onnxType != "_" && spec.since <= kImportOpset;
}

const llvm::StringMap<const OpSpec *> &opIndex() {
  static const llvm::StringMap<const OpSpec *> index = [] {
    llvm::StringMap<const OpSpec *> map;
    for (const OpSpec &spec : kOps)
      if (importable(spec))
        map[spec.onnxType] = &spec;
    return map;
  }();
  return index;
}
} // namespace

const OpSpec *geflow::onnxfe::lookupOpSpec(llvm::StringRef onnxType) {
  return opIndex().lookup(onnxType);
}

llvm::SmallVector<llvm::StringRef> geflow::onnxfe::supportedOnnxOps() {
  llvm::SmallVector<llvm::StringRef> ops;
  for (const OpSpec &spec : kOps)
    if (importable(spec))
      ops.push_back(spec.onnxType);
  return ops;
}

// --- user annotations
// ----------------------------------------------------------

/// Reads an annotation written as INT or as a decimal STRING (torchair writes
/// strings, hand-made ONNX files usually ints).
static std::optional<int64_t> annotationInt(const onnx::AttributeProto &attr) {
  if (attr.type() == onnx::AttributeProto::INT || attr.has_i())
    return attr.i();
  if (attr.type() == onnx::AttributeProto::STRING || attr.has_s()) {
    int64_t value;
    if (!llvm::StringRef(attr.s()).trim().getAsInteger(10, value))
      return value;
  }
  return std::nullopt;
}

/// An annotation's value as messages show it: `"abc"`, `-2`, or its type.
static std::string shownAnnotationValue(const onnx::AttributeProto &attr) {
  switch (attr.type()) {
  case onnx::AttributeProto::STRING:
    return "\"" + attr.s() + "\"";
  case onnx::AttributeProto::INT:
    return std::to_string(attr.i());
  case onnx::AttributeProto::FLOAT: {
    std::string text;
    llvm::raw_string_ostream(text) << attr.f();
    return text;
  }
  default:
    return "a value of type " +
           onnx::AttributeProto::AttributeType_Name(attr.type());
  }
}

/// `_user_stream_label` -> ge.stream_label and friends (ir/README.md,
/// "Scheduling attributes"). Returns true when `attr` was an annotation.
static llvm::Expected<bool>
convertAnnotation(MLIRContext &context, const onnx::AttributeProto &attr,
                  const std::string &where,
                  llvm::SmallVectorImpl<NamedAttribute> &attrs) {
  Builder b(&context);
  llvm::StringRef name = attr.name();
  auto bad = [&](llvm::StringRef expected) {
    return makeError(where + ": attribute '" + name + "' must be " + expected +
                     ", got " + shownAnnotationValue(attr));
  };
  if (name == "_user_stream_label") {
    if (attr.type() != onnx::AttributeProto::STRING || attr.s().empty())
      return bad("a non-empty string");
    attrs.push_back(
        b.getNamedAttr("ge.stream_label", b.getStringAttr(attr.s())));
    return true;
  }
  if (name == "_user_stream_priority") {
    auto value = annotationInt(attr);
    if (!value || *value < 0)
      return bad("an integer >= 0");
    attrs.push_back(
        b.getNamedAttr("ge.stream_priority", b.getI64IntegerAttr(*value)));
    return true;
  }
  if (name == "_enable_inner_parallel") {
    std::optional<bool> value;
    if (attr.type() == onnx::AttributeProto::STRING) {
      llvm::StringRef s = llvm::StringRef(attr.s()).trim();
      if (s.equals_insensitive("true") || s == "1")
        value = true;
      else if (s.equals_insensitive("false") || s == "0")
        value = false;
    } else if (auto i = annotationInt(attr); i && (*i == 0 || *i == 1)) {
      value = *i == 1;
    }
    if (!value)
      return bad("a boolean (0/1 or \"true\"/\"false\")");
    attrs.push_back(b.getNamedAttr("ge.inner_parallel", b.getBoolAttr(*value)));
    return true;
  }
  if (name == "_op_aicore_num" || name == "_op_vectorcore_num") {
    bool aicore = name == "_op_aicore_num";
    auto value = annotationInt(attr);
    if (!value || *value < (aicore ? 1 : 0))
      return bad(aicore ? "an integer >= 1" : "an integer >= 0");
    attrs.push_back(
        b.getNamedAttr(aicore ? "ge.aicore_num" : "ge.vectorcore_num",
                       b.getI64IntegerAttr(*value)));
    return true;
  }
  return false;
}

// --- Constant
// ------------------------------------------------------------------

/// ONNX Constant carries its value in one of value, value_float(s),
/// value_int(s), value_string(s) or sparse_value; ge.constant has exactly
/// `value`.
static llvm::Expected<Attribute> constantValue(MLIRContext &context,
                                               const onnx::NodeProto &node,
                                               const std::string &where) {
  Builder b(&context);
  for (const auto &attr : node.attribute()) {
    llvm::StringRef name = attr.name();
    if (name == "value") {
      auto value = convertAttribute(context, attr);
      if (!value)
        return makeError(where + ": " + llvm::toString(value.takeError()));
      return value;
    }
    if (name == "value_float")
      return Attribute(DenseElementsAttr::get(
          RankedTensorType::get({}, b.getF32Type()), attr.f()));
    if (name == "value_int")
      return Attribute(DenseElementsAttr::get(
          RankedTensorType::get({}, b.getI64Type()), attr.i()));
    if (name == "value_floats") {
      SmallVector<float> values(attr.floats().begin(), attr.floats().end());
      return Attribute(DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)values.size()}, b.getF32Type()),
          llvm::ArrayRef<float>(values)));
    }
    if (name == "value_ints") {
      SmallVector<int64_t> values(attr.ints().begin(), attr.ints().end());
      return Attribute(DenseElementsAttr::get(
          RankedTensorType::get({(int64_t)values.size()}, b.getI64Type()),
          llvm::ArrayRef<int64_t>(values)));
    }
    if (name == "value_string" || name == "value_strings" ||
        name == "sparse_value")
      return makeError(where + ": Constant with '" + name +
                       "' is not supported");
  }
  return makeError(where + ": Constant has no value attribute");
}

llvm::Error geflow::onnxfe::convertNodeAttributes(
    MLIRContext &context, const onnx::NodeProto &node, const OpSpec &spec,
    const std::string &where, llvm::SmallVectorImpl<NamedAttribute> &attrs) {
  Builder b(&context);
  bool isConstant = spec.onnxType == "Constant";
  if (isConstant) {
    auto value = constantValue(context, node, where);
    if (!value)
      return value.takeError();
    attrs.push_back(b.getNamedAttr("value", *value));
  }
  for (const auto &attr : node.attribute()) {
    llvm::StringRef name = attr.name();
    if (name.starts_with("_")) {
      auto handled = convertAnnotation(context, attr, where, attrs);
      if (!handled)
        return handled.takeError();
      // Other private attributes of exporters carry nothing the IR has a place
      // for.
      continue;
    }
    if (isConstant)
      continue;
    // Cast's `to` and EyeLike's `dtype`: the result type says it
    // (ir/README.md).
    if ((spec.onnxType == "Cast" && name == "to") ||
        (spec.onnxType == "EyeLike" && name == "dtype"))
      continue;
    if (spec.onnxType == "BatchNormalization" && name == "training_mode" &&
        attr.i() != 0)
      return makeError(
          where + ": training_mode=1 is not supported (inference form only)");
    if (attr.type() == onnx::AttributeProto::GRAPH ||
        attr.type() == onnx::AttributeProto::GRAPHS)
      return makeError(where + ": subgraph attribute '" + name +
                       "' is not supported");
    auto value = convertAttribute(context, attr);
    if (!value)
      return makeError(where + ": " + llvm::toString(value.takeError()));
    attrs.push_back(b.getNamedAttr(name, *value));
  }
  return llvm::Error::success();
}
