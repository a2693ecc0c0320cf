//===- GraphBuilder.cpp - a ge function as a GE GraphDef ------------------===//

#include "passes/emit/GraphBuilder.h"

#include "ir/GeOps.h"
#include "passes/PassSupport.h"
#include "passes/emit/OpDefBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using mlir::ge::GeDialect;

namespace geflow::passes {
namespace {

ArrayRef<int64_t> i64Array(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
  return attr ? attr.asArrayRef() : ArrayRef<int64_t>();
}

/// A scheduling attribute as an OpDef attribute; false for a kind GE has no
/// attribute for.
bool toAttrDef(Attribute attr, om::AttrDef &out) {
  if (auto b = dyn_cast<BoolAttr>(attr))
    out.set_b(b.getValue());
  else if (auto i = dyn_cast<IntegerAttr>(attr))
    out.set_i(i.getInt());
  else if (auto s = dyn_cast<StringAttr>(attr))
    out.set_s(s.str());
  else if (auto engine = dyn_cast<mlir::ge::EngineAttr>(attr))
    out.set_s(mlir::ge::stringifyEngine(engine.getValue()).str());
  else
    return false;
  return true;
}

/// "producer" of a "producer:k" reference.
StringRef producerOf(StringRef ref) { return ref.rsplit(':').first; }

class GraphBuilder {
public:
  explicit GraphBuilder(func::FuncOp func) : func_(func) {}

  llvm::Expected<GraphBuild> run(StringRef name);

private:
  om::OpDef &addOp(std::string name, StringRef type, int64_t stream,
                   Operation *origin) {
    if (name.empty())
      name = "op";
    // The first free "name_k"; the search resumes where the last one for
    // this name stopped (names are never freed), so a name shared by
    // thousands of ops costs no more than a unique one.
    std::string unique = name;
    if (!names_.insert(unique).second) {
      int &k = nextSuffix_[name];
      do
        unique = name + "_" + std::to_string(++k);
      while (!names_.insert(unique).second);
    }
    om::OpDef &def = *build_.graph.add_op();
    def.set_name(std::move(unique));
    def.set_type(type.str());
    def.set_id(build_.graph.op_size() - 1);
    def.set_stream_id(stream);
    build_.origin.push_back(origin);
    return def;
  }

  /// The reference an operand reads: through npu_wait_tensor (to its self,
  /// adding a control edge from its dependency's producer to `control`) and
  /// annotation regions (to the yielded value).
  std::string refOf(Value v, std::vector<std::string> &control);

  void addData();
  llvm::Error addBlock(Block &block, const NamedAttrList &scope);
  llvm::Error addConst(Operation *op);
  llvm::Error addCompute(Operation *op, const NamedAttrList &scope);
  llvm::Error addNetOutput(Operation *terminator);
  /// A Send or Recv on `stream` with control inputs from `after`.
  std::string addEvent(StringRef type, int64_t eventId, int64_t stream,
                       const std::string &base,
                       ArrayRef<std::string> after = {});

  func::FuncOp func_;
  GraphBuild build_;
  llvm::StringSet<> names_;
  llvm::StringMap<int> nextSuffix_; // per taken name: the last k tried
  llvm::DenseMap<Value, std::string> refs_;
  std::string failure_;
  int64_t computeIndex_ = 0;
};

std::string GraphBuilder::refOf(Value v, std::vector<std::string> &control) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto wait = dyn_cast<ge::NpuWaitTensorOp>(def)) {
      std::vector<std::string> unused;
      std::string dependency = refOf(wait.getDependency(), unused);
      if (!dependency.empty())
        control.push_back("^" + producerOf(dependency).str());
      v = wait.getSelf();
      continue;
    }
    if (isa<ge::NpuStreamSwitchOp, ge::LimitCoreNumOp>(def)) {
      Operation *yield = def->getRegion(0).front().getTerminator();
      v = yield->getOperand(cast<OpResult>(v).getResultNumber());
      continue;
    }
    break;
  }
  auto it = refs_.find(v);
  if (it != refs_.end())
    return it->second;
  failure_ = "an operand is not produced before its use";
  return "";
}

void GraphBuilder::addData() {
  std::vector<std::string> inputs;
  for (BlockArgument arg : func_.getArguments()) {
    unsigned i = arg.getArgNumber();
    auto geName = func_.getArgAttrOfType<StringAttr>(i, GeDialect::kNameAttr);
    om::OpDef &def = addOp(geName ? geName.str() : "input_" + std::to_string(i),
                           om::kDataType, 0, nullptr);
    (*def.mutable_attr())["index"].set_i(i);
    *def.add_output_desc() = toTensorDescriptor(arg.getType());
    build_.graph.add_input(def.name());
    refs_[arg] = def.name() + ":0";
    inputs.push_back(def.name());
  }
  // ge-insert-events: the events other streams wait for to read an input,
  // recorded once every input is copied in.
  for (int64_t id : i64Array(func_, GeDialect::kSendEventsAttr))
    addEvent(om::kSendType, id, 0, "inputs", inputs);
}

llvm::Error GraphBuilder::addConst(Operation *op) {
  if (op->getNumResults() != 1)
    return opError(op, "constant without one result");
  std::string name = nameFromLoc(op->getLoc());
  om::OpDef &def = addOp(name.empty() ? std::string(om::kConstType) : name,
                         om::kConstType, 0, op);
  *def.add_output_desc() = toTensorDescriptor(op->getResult(0).getType());
  refs_[op->getResult(0)] = def.name() + ":0";
  return llvm::Error::success();
}

std::string GraphBuilder::addEvent(StringRef type, int64_t eventId,
                                   int64_t stream, const std::string &base,
                                   ArrayRef<std::string> after) {
  om::OpDef &def =
      addOp(base + "_" + type.str() + "_" + std::to_string(eventId), type,
            stream, nullptr);
  (*def.mutable_attr())["event_id"].set_i(eventId);
  for (const std::string &op : after)
    def.add_input("^" + op);
  return def.name();
}

llvm::Error GraphBuilder::addCompute(Operation *op,
                                     const NamedAttrList &scope) {
  // The op's own scheduling attribute wins over its region's.
  auto scheduleAttr = [&](StringRef name) -> Attribute {
    if (Attribute own = op->getAttr(name))
      return own;
    return scope.get(name);
  };
  int64_t stream = 0;
  if (auto id =
          dyn_cast_or_null<IntegerAttr>(scheduleAttr(GeDialect::kStreamAttr)))
    stream = id.getInt();

  std::string base = nameFromLoc(op->getLoc());
  if (base.empty())
    base = opDefType(op) + "_" + std::to_string(computeIndex_);
  ++computeIndex_;

  // Recv ops come first so the compute op can name them in control edges.
  std::vector<std::string> control;
  for (int64_t id : i64Array(op, GeDialect::kRecvEventsAttr))
    control.push_back("^" + addEvent(om::kRecvType, id, stream, base));

  om::OpDef &def = addOp(base, "", stream, op);
  std::string name = def.name();
  int defIndex = def.id();
  if (llvm::Error err =
          fillOpDef(op, def, [&](Value v) { return refOf(v, control); }))
    return err;
  if (!failure_.empty())
    return opError(op, failure_);
  om::OpDef &filled = *build_.graph.mutable_op(defIndex);
  for (const std::string &edge : control)
    filled.add_input(edge);

  auto &attrs = *filled.mutable_attr();
  for (const GeAttrName &names : kGeAttrNames)
    if (Attribute value = scheduleAttr(names.irName))
      if (!toAttrDef(value, attrs[names.geName.str()]))
        return opError(op, "attribute '" + names.irName + "' has no GE form");

  for (OpResult result : op->getResults())
    refs_[result] = name + ":" + std::to_string(result.getResultNumber());
  for (int64_t id : i64Array(op, GeDialect::kSendEventsAttr))
    addEvent(om::kSendType, id, stream, name, {name});
  return llvm::Error::success();
}

llvm::Error GraphBuilder::addNetOutput(Operation *terminator) {
  om::OpDef &net =
      addOp(std::string(om::kNetOutputType), om::kNetOutputType, 0, nullptr);
  // Output names (aclmdlGetOutputNameByIndex) from the results' ge.name.
  om::ListValue *names = (*net.mutable_attr())["output_names"].mutable_list();
  for (OpOperand &operand : terminator->getOpOperands()) {
    unsigned k = operand.getOperandNumber();
    std::vector<std::string> control;
    std::string ref = refOf(operand.get(), control);
    if (ref.empty())
      return makeError("graph output " + llvm::Twine(k) +
                       " is not produced by the graph");
    net.add_input(ref);
    *net.add_input_desc() = toTensorDescriptor(operand.get().getType());
    build_.graph.add_output(ref);
    auto geName =
        func_.getResultAttrOfType<StringAttr>(k, GeDialect::kNameAttr);
    names->add_s(geName ? geName.str() : ref);
  }
  return llvm::Error::success();
}

llvm::Error GraphBuilder::addBlock(Block &block, const NamedAttrList &scope) {
  for (Operation &op : block) {
    llvm::Error err = llvm::Error::success();
    if (auto region = dyn_cast<ge::NpuStreamSwitchOp>(op)) {
      // An inner scope wins over an outer one.
      NamedAttrList inner = scope;
      inner.set(GeDialect::kStreamLabelAttr, region.getTagAttr());
      inner.set(GeDialect::kStreamPriorityAttr, region.getPriorityAttr());
      inner.set(GeDialect::kInnerParallelAttr, region.getInnerParallelAttr());
      err = addBlock(region.getBody().front(), inner);
    } else if (auto region = dyn_cast<ge::LimitCoreNumOp>(op)) {
      NamedAttrList inner = scope;
      inner.set(GeDialect::kAicoreNumAttr, region.getAicoreNumAttr());
      inner.set(GeDialect::kVectorcoreNumAttr, region.getVectorcoreNumAttr());
      err = addBlock(region.getBody().front(), inner);
    } else if (isa<ge::YieldOp, ge::NpuWaitTensorOp>(op)) {
      continue; // read through by refOf
    } else if (op.hasTrait<OpTrait::IsTerminator>()) {
      err = addNetOutput(&op);
    } else if (isa<ge::ConstantOp>(op)) {
      err = addConst(&op);
    } else {
      err = addCompute(&op, scope);
    }
    if (err)
      return err;
  }
  return llvm::Error::success();
}

llvm::Expected<GraphBuild> GraphBuilder::run(StringRef name) {
  if (!func_.getBody().hasOneBlock())
    return makeError("function @" + func_.getSymName() +
                     " must have a single-block body");
  build_.graph.set_name(name.str());
  addData();
  if (llvm::Error err = addBlock(func_.getBody().front(), NamedAttrList()))
    return std::move(err);
  return std::move(build_);
}

} // namespace

llvm::Expected<func::FuncOp> findModelFunction(ModuleOp module) {
  if (auto main = module.lookupSymbol<func::FuncOp>("main"))
    return main;
  auto funcs = module.getOps<func::FuncOp>();
  if (std::distance(funcs.begin(), funcs.end()) != 1)
    return makeError("module has no @main function and not exactly one "
                     "function to emit");
  return *funcs.begin();
}

llvm::Expected<GraphBuild> buildGraph(func::FuncOp func, StringRef name) {
  return GraphBuilder(func).run(name);
}

llvm::Expected<GraphBuild> buildGraph(ModuleOp module) {
  llvm::Expected<func::FuncOp> func = findModelFunction(module);
  if (!func)
    return func.takeError();
  StringRef name = module.getSymName() ? *module.getSymName() : "model";
  return buildGraph(*func, name);
}

} // namespace geflow::passes
