//===- GraphImporter.cpp - walk a prepared ONNX graph into ge ops ---------===//
//
// The graph around the nodes: inputs, initializers and outputs, then the
// dialect's verifier and folders and the check that every tensor is static.
// Each node becomes its op in NodeImporter.cpp.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/GraphImporterImpl.h"
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

using geflow::onnxfe::detail::GraphImporter;

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
    mlir::ElementsAttr ready = converted ? converted->lookup(tensor) : nullptr;
    auto value = ready
                     ? llvm::Expected<mlir::ElementsAttr>(ready)
                     : convertTensor(context, tensor, takeLargeRawData(tensor));
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
    // The function is one block and the driver erases the ops that die
    // itself; simplifying the region would only walk the graph again after
    // every iteration (0.2 s of a 100k-node import).
    config.enableRegionSimplification = GreedySimplifyRegionLevel::Disabled;
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
    const OnnxImportOptions &options, const MappedTensors *mapped,
    const ConvertedInitializers *converted) {
  mlir::TimingScope timing(options.timing ? options.timing->nest("import")
                                          : mlir::Timer());
  return GraphImporter(context, model, sourceName, options, /*probe=*/false,
                       mapped, converted)
      .run();
}
