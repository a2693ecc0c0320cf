//===- GraphImporter.cpp - walk a prepared ONNX graph into ge ops ---------===//
//
// Ops are built generically (OperationState by name) from the table in
// OpTable.cpp, so this walk stays one loop; the dialect's verifiers then check
// every op against ir/README.md.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/GraphImporter.h"
#include "frontends/onnx/ModelLoader.h"
#include "frontends/onnx/OpTable.h"
#include "frontends/onnx/ShapeRefinement.h"
#include "frontends/onnx/StreamPlanApplier.h"
#include "frontends/onnx/TypeConversion.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace mlir;
using namespace geflow;
using namespace geflow::onnxfe;

namespace {

class GraphImporter {
public:
  GraphImporter(MLIRContext &context, onnx::ModelProto &model,
                llvm::StringRef sourceName, const OnnxImportOptions &options,
                bool probe = false, const MappedTensors *mapped = nullptr)
      : context(context), model(model), graph(*model.mutable_graph()),
        sourceName(sourceName), options(options), builder(&context),
        opset(getDefaultOpset(model)), probe(probe), mapped(mapped) {
    if (options.streamPlan && !probe)
      planApplier.emplace(*options.streamPlan);
  }

  /// Builds, verifies, folds, verifies again and checks that all is static.
  llvm::Expected<OwningOpRef<ModuleOp>> run();
  /// Probe mode only: builds the static part, folds it, reads back constants.
  llvm::Expected<ProbeResult> runProbe();

private:
  /// Initializers above this many elements stay function arguments in a probe.
  static constexpr int64_t kProbeConstantLimit = 4096;

  Location nameLoc(llvm::StringRef name) {
    return NameLoc::get(builder.getStringAttr(name),
                        FileLineColLoc::get(&context, sourceName, 0, 0));
  }
  llvm::Expected<OwningOpRef<ModuleOp>> build();
  llvm::Error importInputs(func::FuncOp func);
  /// The raw_data of a large initializer outside the proto: its bytes in the
  /// file's mapping, or its raw_data string moved out of the proto; none for
  /// small ones, whose values the context copies.
  std::optional<ExternalBytes> takeLargeRawData(onnx::TensorProto &tensor);
  llvm::Error importInitializers(func::FuncOp func);
  llvm::Error importNode(const onnx::NodeProto &node, size_t index);
  // importNode's phases, in the order it runs them; `where` names the node in
  // errors.
  llvm::Error addNodeOperands(const onnx::NodeProto &node, const OpSpec &spec,
                              const std::string &where, OperationState &state);
  llvm::Expected<int> countNodeResults(const onnx::NodeProto &node,
                                       const OpSpec &spec,
                                       const std::string &where);
  llvm::Error addNodeResultTypes(const onnx::NodeProto &node,
                                 const OpSpec &spec, int numResults,
                                 const std::string &where,
                                 OperationState &state);
  llvm::Error checkAttributesKept(Operation *op,
                                  llvm::ArrayRef<NamedAttribute> attrs,
                                  const onnx::NodeProto &node,
                                  const std::string &where);
  void bindNodeResults(const onnx::NodeProto &node, Operation *op,
                       int numResults);
  llvm::Error importOutputs(func::FuncOp func);
  llvm::Error importGraph(func::FuncOp func);
  bool shouldSkip(const onnx::NodeProto &node);
  llvm::Expected<Value> lookup(const std::string &name,
                               const std::string &where);
  llvm::Error verifyModule(ModuleOp module, llvm::StringRef stage);
  llvm::Error checkStatic(func::FuncOp func);
  std::string describeOp(Operation *op);

  MLIRContext &context;
  onnx::ModelProto &model;
  onnx::GraphProto &graph;
  llvm::StringRef sourceName;
  const OnnxImportOptions &options;
  OpBuilder builder;
  int64_t opset;
  /// Probe mode: skip nodes without static output types, keep weights out.
  bool probe;
  /// Large initializers' raw_data, left in the file (null: all in the proto).
  const MappedTensors *mapped;
  /// Probe mode: the nodes left out, and the names of the returned values.
  std::vector<const onnx::NodeProto *> skipped;
  std::vector<std::string> probeNames;
  llvm::StringSet<> constantNodeOutputs;
  llvm::StringSet<> initializerNames;
  /// Applies options.streamPlan (not in probe mode).
  std::optional<StreamPlanApplier> planApplier;

  llvm::StringMap<Value> values;
  llvm::StringMap<const onnx::TypeProto *> valueTypes;
  llvm::StringSet<> usedNames;
  /// Node display name -> ONNX op type, for messages about ops.
  llvm::StringMap<std::string> nodeTypes;
  /// Result -> ONNX tensor name, for the static-shape check.
  llvm::DenseMap<Value, std::string> tensorNames;
};

} // namespace

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

llvm::Error GraphImporter::importInputs(func::FuncOp func) {
  SmallVector<Type> types;
  for (const auto &input : graph.input()) {
    if (input.type().has_tensor_type() &&
        !input.type().tensor_type().has_shape())
      return makeError("graph input '" + input.name() +
                       "' has no shape; give it with --input-shape " +
                       input.name() + ":<d0,d1,...>");
    auto type = convertTensorType(context, input.type());
    if (!type)
      return makeError("graph input '" + input.name() +
                       "': " + llvm::toString(type.takeError()));
    if (!type->hasStaticShape()) {
      std::string dims;
      for (const auto &dim : input.type().tensor_type().shape().dim())
        dims +=
            (dims.empty() ? "" : ",") +
            (dim.has_dim_value() ? std::to_string(dim.dim_value())
                                 : (dim.dim_param().empty() ? std::string("?")
                                                            : dim.dim_param()));
      return makeError(
          "graph input '" + input.name() + "' has a dynamic shape [" + dims +
          "]; fix it with --input-shape " + input.name() + ":<d0,d1,...>");
    }
    types.push_back(*type);
  }
  func.setFunctionType(builder.getFunctionType(types, {}));
  Block *entry = func.addEntryBlock();
  for (auto [i, input] : llvm::enumerate(graph.input())) {
    BlockArgument arg = entry->getArgument(i);
    arg.setLoc(nameLoc(input.name()));
    if (!probe)
      func.setArgAttr(i, "ge.name", builder.getStringAttr(input.name()));
    values[input.name()] = arg;
  }
  builder.setInsertionPointToStart(entry);
  return llvm::Error::success();
}

std::optional<ExternalBytes>
GraphImporter::takeLargeRawData(onnx::TensorProto &tensor) {
  if (mapped)
    if (std::optional<ExternalBytes> bytes = mapped->lookup(tensor.name()))
      return bytes;
  // A probe reads the proto again later; small tensors are cheaper copied.
  if (probe || tensor.raw_data().size() < MappedTensors::kMinBytes)
    return std::nullopt;
  auto owner =
      std::make_shared<std::string>(std::move(*tensor.mutable_raw_data()));
  tensor.clear_raw_data();
  return ExternalBytes{llvm::ArrayRef<char>(owner->data(), owner->size()),
                       owner};
}

llvm::Error GraphImporter::importInitializers(func::FuncOp func) {
  for (onnx::TensorProto &tensor : *graph.mutable_initializer()) {
    if (values.count(tensor.name()))
      continue; // A graph input of the same name wins (ONNX: a default value).
    if (!usedNames.contains(tensor.name()))
      continue; // Nobody reads it; do not copy its data.
    if (probe) {
      int64_t count = 1;
      for (int64_t dim : tensor.dims())
        count *= dim;
      if (count > kProbeConstantLimit) {
        auto elementType = convertElementType(context, tensor.data_type());
        if (!elementType)
          return elementType.takeError();
        SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
        Block &entry = func.getBody().front();
        values[tensor.name()] = entry.addArgument(
            RankedTensorType::get(shape, *elementType), nameLoc(tensor.name()));
        continue;
      }
    }
    auto value = convertTensor(context, tensor, takeLargeRawData(tensor));
    if (!value)
      return makeError("initializer '" + tensor.name() +
                       "': " + llvm::toString(value.takeError()));
    // The context holds the data now; the proto's copy can go.
    if (!probe && tensor.has_raw_data())
      std::string().swap(*tensor.mutable_raw_data());
    OperationState state(nameLoc(tensor.name()), "ge.constant");
    state.addAttribute("value", *value);
    state.addTypes(value->getType());
    Operation *op = builder.create(state);
    values[tensor.name()] = op->getResult(0);
    tensorNames[op->getResult(0)] = tensor.name();
  }
  return llvm::Error::success();
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
  if (spec.extra == OpSpec::ExtraResult::Statistics) {
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

llvm::Error GraphImporter::importOutputs(func::FuncOp func) {
  if (probe) {
    // Return every computed input of a skipped node, so that folding keeps (and
    // rewrites) exactly the values the probe wants to read back.
    SmallVector<Value> results;
    for (const onnx::NodeProto *node : skipped)
      for (const std::string &input : node->input()) {
        auto it = values.find(input);
        if (input.empty() || it == values.end() ||
            constantNodeOutputs.contains(input) ||
            initializerNames.contains(input) ||
            llvm::isa<BlockArgument>(it->second))
          continue;
        results.push_back(it->second);
        probeNames.push_back(input);
      }
    builder.create<func::ReturnOp>(nameLoc("return"), results);
    func.setFunctionType(
        builder.getFunctionType(func.getBody().front().getArgumentTypes(),
                                ValueRange(results).getTypes()));
    return llvm::Error::success();
  }

  SmallVector<Value> results;
  for (const auto &output : graph.output()) {
    auto value = lookup(output.name(), "graph output '" + output.name() + "'");
    if (!value)
      return value.takeError();
    results.push_back(*value);
  }
  builder.create<func::ReturnOp>(nameLoc("return"), results);
  func.setFunctionType(
      builder.getFunctionType(func.getBody().front().getArgumentTypes(),
                              ValueRange(results).getTypes()));
  for (auto [i, output] : llvm::enumerate(graph.output()))
    func.setResultAttr(i, "ge.name", builder.getStringAttr(output.name()));
  return llvm::Error::success();
}

std::string GraphImporter::describeOp(Operation *op) {
  std::string name;
  Location loc = op->getLoc();
  if (auto named = llvm::dyn_cast<NameLoc>(loc))
    name = named.getName().str();
  auto it = nodeTypes.find(name);
  std::string type =
      it != nodeTypes.end() ? it->second : op->getName().getStringRef().str();
  if (name.empty())
    name = op->getName().getStringRef().str();
  return "node '" + name + "' (" + type + ", opset " + std::to_string(opset) +
         ")";
}

llvm::Error GraphImporter::verifyModule(ModuleOp module,
                                        llvm::StringRef stage) {
  std::string message;
  {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && message.empty()) {
        message = diag.str();
        std::string name;
        if (auto named = llvm::dyn_cast<NameLoc>(diag.getLocation()))
          name = named.getName().str();
        auto it = nodeTypes.find(name);
        if (it != nodeTypes.end())
          message = "node '" + name + "' (" + it->second + ", opset " +
                    std::to_string(opset) + "): " + message;
        else if (!name.empty())
          message = "'" + name + "': " + message;
      }
      return success();
    });
    if (succeeded(verify(module)))
      return llvm::Error::success();
  }
  if (message.empty())
    message = "the module does not verify";
  return makeError(message + " (" + stage + ")");
}

llvm::Error GraphImporter::checkStatic(func::FuncOp func) {
  llvm::Error err = llvm::Error::success();
  func.walk([&](Operation *op) {
    for (Value result : op->getResults()) {
      auto type = llvm::dyn_cast<ShapedType>(result.getType());
      if (!type || type.hasStaticShape())
        continue;
      std::string tensor = tensorNames.lookup(result);
      err =
          makeError(describeOp(op) + ": output '" + tensor +
                    "' has no static shape (" + typeToString(result.getType()) +
                    ") after shape inference and folding");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return err;
}

llvm::Expected<OwningOpRef<ModuleOp>> GraphImporter::build() {
  for (const auto &info : graph.input())
    valueTypes[info.name()] = &info.type();
  for (const auto &info : graph.value_info())
    valueTypes[info.name()] = &info.type();
  for (const auto &info : graph.output())
    valueTypes[info.name()] = &info.type();
  for (const auto &node : graph.node())
    for (const auto &input : node.input())
      usedNames.insert(input);
  for (const auto &output : graph.output())
    usedNames.insert(output.name());

  for (const auto &tensor : graph.initializer())
    initializerNames.insert(tensor.name());
  for (const auto &node : graph.node())
    if (node.op_type() == "Constant")
      for (const auto &output : node.output())
        constantNodeOutputs.insert(output);

  Location fileLoc = FileLineColLoc::get(&context, sourceName, 0, 0);
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());
  auto func = builder.create<func::FuncOp>(
      nameLoc(graph.name().empty() ? "main" : graph.name()), "main",
      builder.getFunctionType({}, {}));
  if (auto err = importGraph(func))
    return std::move(err);
  return std::move(module);
}

llvm::Error GraphImporter::importGraph(func::FuncOp func) {
  if (auto err = importInputs(func))
    return err;
  if (auto err = importInitializers(func))
    return err;
  for (int i = 0; i < graph.node_size(); ++i)
    if (auto err = importNode(graph.node(i), i))
      return err;
  if (planApplier) {
    llvm::SmallVector<llvm::StringRef> nodeNames(nodeTypes.keys());
    if (auto err =
            planApplier->finish(func.getBody().front(), nodeNames, values))
      return err;
  }
  return importOutputs(func);
}

llvm::Expected<OwningOpRef<ModuleOp>> GraphImporter::run() {
  auto built = build();
  if (!built)
    return built.takeError();
  OwningOpRef<ModuleOp> module = std::move(*built);
  auto func = *module->getOps<func::FuncOp>().begin();

  // Folders assume verified ops, so verify before and after folding.
  if (auto err = verifyModule(*module, "after import"))
    return std::move(err);
  if (options.fold) {
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    (void)applyPatternsAndFoldGreedily(func.getOperation(),
                                       RewritePatternSet(&context), config);
    if (auto err = verifyModule(*module, "after folding"))
      return std::move(err);
  }
  if (auto err = checkStatic(func))
    return std::move(err);
  return std::move(module);
}

llvm::Expected<ProbeResult> GraphImporter::runProbe() {
  auto built = build();
  if (!built)
    return built.takeError();
  OwningOpRef<ModuleOp> module = std::move(*built);
  ProbeResult result;
  result.anySkipped = !skipped.empty();
  if (skipped.empty())
    return result;
  if (auto err = verifyModule(*module, "probe"))
    return std::move(err);
  auto func = *module->getOps<func::FuncOp>().begin();
  GreedyRewriteConfig config;
  config.useTopDownTraversal = true;
  (void)applyPatternsAndFoldGreedily(func.getOperation(),
                                     RewritePatternSet(&context), config);
  Operation *ret = func.getBody().front().getTerminator();
  for (auto [i, operand] : llvm::enumerate(ret->getOperands())) {
    Attribute value;
    if (!matchPattern(operand, m_Constant(&value)))
      continue;
    if (auto dense = llvm::dyn_cast<DenseElementsAttr>(value))
      result.constants.emplace_back(probeNames[i], dense);
  }
  return result;
}

llvm::Expected<ProbeResult>
geflow::onnxfe::probeFoldedInputs(MLIRContext &context, onnx::ModelProto &model,
                                  llvm::StringRef sourceName) {
  OnnxImportOptions options;
  return GraphImporter(context, model, sourceName, options, /*probe=*/true)
      .runProbe();
}

llvm::Expected<OwningOpRef<ModuleOp>> geflow::onnxfe::importPreparedModel(
    MLIRContext &context, onnx::ModelProto &model, llvm::StringRef sourceName,
    const OnnxImportOptions &options, const MappedTensors *mapped) {
  if (options.fold)
    if (auto err = refineShapesByFolding(context, model, sourceName))
      return std::move(err);
  return GraphImporter(context, model, sourceName, options, /*probe=*/false,
                       mapped)
      .run();
}
