//===- NodeImporter.cpp - one ONNX node into one ge op
//---------------------===//
//
// Ops are built generically (OperationState by name) from the op table
// (OpTable.cpp over ir/GeOpTable.def), so this stays one path for every op;
// the dialect's verifiers then check each op.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/GraphImporterImpl.h"
#include "frontends/onnx/TypeConversion.h"

using namespace mlir;
using namespace geflow;
using namespace geflow::onnxfe;
using geflow::onnxfe::detail::GraphImporter;

llvm::Expected<Value> GraphImporter::lookup(const std::string &name,
                                            const std::string &where) {
  auto it = values.find(name);
  if (it == values.end())
    return makeError(
        where + ": input '" + name +
        "' is not a graph input, an initializer or the output of an "
        "earlier node");
  return it->second;
}

llvm::Error GraphImporter::importNode(const onnx::NodeProto &node,
                                      size_t index) {
  std::string where = describeNode(node, opset, index);
  if (!isDefaultDomain(node.domain()))
    return makeError(where + ": unsupported op");
  const OpSpec *spec = lookupOpSpec(node.op_type());
  if (!spec)
    return makeError(where + ": unsupported op");
  std::string name = nodeDisplayName(node, index);
  nodeTypes[name] = node.op_type();
  if (probe && shouldSkip(node)) {
    skipped.push_back(&node);
    return llvm::Error::success();
  }

  OperationState state(nameLoc(name), ("ge." + spec->geName).str());
  SmallVector<NamedAttribute> attrs;
  if (auto err = convertNodeAttributes(context, node, *spec, where, attrs))
    return err;
  state.addAttributes(attrs);
  if (auto err = addNodeOperands(node, *spec, where, state))
    return err;
  llvm::Expected<int> numResults = countNodeResults(node, *spec, where);
  if (!numResults)
    return numResults.takeError();
  if (auto err = addNodeResultTypes(node, *spec, *numResults, where, state))
    return err;

  Operation *op = builder.create(state);
  if (auto err = checkAttributesKept(op, attrs, node, where)) {
    op->erase();
    return err;
  }
  if (planApplier)
    planApplier->annotate(name, op);
  bindNodeResults(node, op, *numResults);
  return llvm::Error::success();
}

/// Present inputs, one segment per ONNX position when the op has several
/// optional inputs.
llvm::Error GraphImporter::addNodeOperands(const onnx::NodeProto &node,
                                           const OpSpec &spec,
                                           const std::string &where,
                                           OperationState &state) {
  if (spec.segments && node.input_size() > static_cast<int>(spec.segments))
    return makeError(where + ": has " + std::to_string(node.input_size()) +
                     " inputs, at most " + std::to_string(spec.segments) +
                     " are supported");
  SmallVector<int32_t> segmentSizes(spec.segments, 0);
  for (int i = 0; i < node.input_size(); ++i) {
    if (node.input(i).empty())
      continue;
    auto value = lookup(node.input(i), where);
    if (!value)
      return value.takeError();
    state.addOperands(*value);
    if (spec.segments)
      segmentSizes[i] = 1;
  }
  if (spec.segments)
    state.addAttribute("operandSegmentSizes",
                       builder.getDenseI32ArrayAttr(segmentSizes));
  return llvm::Error::success();
}

/// How many of the ONNX outputs the ge op has; an output past those that the
/// graph reads (a node input or a graph output) is an error.
llvm::Expected<int> GraphImporter::countNodeResults(const onnx::NodeProto &node,
                                                    const OpSpec &spec,
                                                    const std::string &where) {
  int numResults = spec.numResults < 0 ? node.output_size() : spec.numResults;
  if (spec.extra == OpSpec::ExtraResult::Statistics ||
      spec.extra == OpSpec::ExtraResult::WhenRead) {
    bool usesStatistics = false;
    for (int i = 1; i < node.output_size(); ++i)
      usesStatistics |=
          !node.output(i).empty() && usedNames.contains(node.output(i));
    numResults = usesStatistics ? numResults : 1;
  }
  for (int i = numResults; i < node.output_size(); ++i)
    if (!node.output(i).empty() && usedNames.contains(node.output(i)))
      return makeError(where + ": output #" + std::to_string(i) + " '" +
                       node.output(i) +
                       "' is not supported (only the inference "
                       "form with " +
                       std::to_string(numResults) + " result(s) is)");
  return numResults;
}

/// LSTM/GRU/RNN's output #i when the model leaves it out: Y is [T, D, B, H]
/// (layout 1: [B, T, D, H]), Y_h and Y_c are [D, B, H] ([B, D, H]), with X
/// [T, B, I] ([B, T, I]) and R [D, gates * H, H].
static llvm::Expected<Type> recurrentStateType(const OperationState &state,
                                               int i,
                                               const std::string &where) {
  auto x = llvm::dyn_cast<RankedTensorType>(state.operands[0].getType());
  auto r = state.operands.size() > 2
               ? llvm::dyn_cast<RankedTensorType>(state.operands[2].getType())
               : RankedTensorType();
  if (!x || !r || x.getRank() != 3 || r.getRank() != 3)
    return makeError(where + ": X and R must be 3-D to type output #" +
                     std::to_string(i));
  auto layout =
      llvm::dyn_cast_or_null<IntegerAttr>(state.attributes.get("layout"));
  bool batchFirst = layout && layout.getInt() == 1;
  int64_t t = x.getDimSize(batchFirst ? 1 : 0);
  int64_t b = x.getDimSize(batchFirst ? 0 : 1);
  int64_t d = r.getDimSize(0), h = r.getDimSize(2);
  SmallVector<int64_t> shape =
      i == 0 ? (batchFirst ? SmallVector<int64_t>{b, t, d, h}
                           : SmallVector<int64_t>{t, d, b, h})
             : (batchFirst ? SmallVector<int64_t>{b, d, h}
                           : SmallVector<int64_t>{d, b, h});
  return Type(RankedTensorType::get(shape, x.getElementType()));
}

/// The result types from shape inference; unnamed optional results are typed
/// from the first.
llvm::Error GraphImporter::addNodeResultTypes(const onnx::NodeProto &node,
                                              const OpSpec &spec,
                                              int numResults,
                                              const std::string &where,
                                              OperationState &state) {
  SmallVector<Type> resultTypes;
  for (int i = 0; i < numResults; ++i) {
    bool present = i < node.output_size() && !node.output(i).empty();
    if (node.op_type() == "Constant" && i == 0) {
      resultTypes.push_back(
          llvm::cast<TypedAttr>(state.attributes.get("value")).getType());
      continue;
    }
    if (present) {
      const onnx::TypeProto *proto = valueTypes.lookup(node.output(i));
      if (!proto)
        return makeError(where + ": shape inference gave no type for output '" +
                         node.output(i) + "'");
      auto type = convertTensorType(context, *proto);
      if (!type)
        return makeError(where + ": output '" + node.output(i) +
                         "': " + llvm::toString(type.takeError()));
      resultTypes.push_back(*type);
      continue;
    }
    if (spec.extra == OpSpec::ExtraResult::RecurrentStates) {
      auto type = recurrentStateType(state, i, where);
      if (!type)
        return type.takeError();
      resultTypes.push_back(*type);
      continue;
    }
    if (i == 0 || spec.extra == OpSpec::ExtraResult::None)
      return makeError(where + ": output #" + std::to_string(i) +
                       " is required but unnamed");
    if (spec.extra == OpSpec::ExtraResult::Statistics) {
      // Mean and InvStdDev share a type; exactly one of them is named here.
      const onnx::TypeProto *other = valueTypes.lookup(node.output(3 - i));
      auto type = other ? convertTensorType(context, *other)
                        : llvm::Expected<RankedTensorType>(makeError(
                              where + ": no type for the statistics outputs"));
      if (!type)
        return type.takeError();
      resultTypes.push_back(*type);
      continue;
    }
    auto first = llvm::cast<RankedTensorType>(resultTypes.front());
    Type element = spec.extra == OpSpec::ExtraResult::IndicesLikeFirst
                       ? builder.getI64Type()
                       : builder.getI1Type();
    resultTypes.push_back(first.clone(element));
  }
  state.addTypes(resultTypes);
  return llvm::Error::success();
}

/// An attribute of a kind the op does not take (a typeless or ints 'axis'
/// where it takes an int) does not fit the op's property: MLIR leaves it null
/// without a word, and the op's verifier would read the null.
llvm::Error GraphImporter::checkAttributesKept(
    Operation *op, llvm::ArrayRef<NamedAttribute> attrs,
    const onnx::NodeProto &node, const std::string &where) {
  for (const NamedAttribute &attr : attrs) {
    std::optional<Attribute> kept = op->getInherentAttr(attr.getName());
    if (kept && *kept != attr.getValue())
      return makeError(where + ": attribute '" + attr.getName().str() +
                       "' does not have the type " + node.op_type() +
                       " takes for it");
  }
  return llvm::Error::success();
}

void GraphImporter::bindNodeResults(const onnx::NodeProto &node, Operation *op,
                                    int numResults) {
  for (int i = 0; i < numResults && i < node.output_size(); ++i) {
    if (node.output(i).empty())
      continue;
    values[node.output(i)] = op->getResult(i);
    tensorNames[op->getResult(i)] = node.output(i);
  }
}

bool GraphImporter::shouldSkip(const onnx::NodeProto &node) {
  for (const std::string &input : node.input())
    if (!input.empty() && !values.count(input))
      return true;
  if (node.op_type() == "Constant")
    return false;
  for (const std::string &output : node.output()) {
    if (output.empty())
      continue;
    const onnx::TypeProto *proto = valueTypes.lookup(output);
    if (!proto)
      return true;
    auto type = convertTensorType(context, *proto);
    if (!type) {
      llvm::consumeError(type.takeError());
      return true;
    }
    if (!type->hasStaticShape())
      return true;
  }
  return false;
}
