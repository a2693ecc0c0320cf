//===- OmEmitter.cpp - a scheduled ge module as an OM model ---------------===//

#include "passes/emit/OmEmitter.h"

#include "ir/GeDialect.h"
#include "passes/Passes.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/KernelPlanning.h"
#include "passes/emit/OpDefBuilder.h"

#include "runtime/soc/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>

using namespace mlir;
using mlir::ge::GeDialect;

namespace geflow::passes {
namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

int64_t intAttr(Operation *op, StringRef name, int64_t fallback) {
  auto attr = op->getAttrOfType<IntegerAttr>(name);
  return attr ? attr.getInt() : fallback;
}

double floatAttr(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<FloatAttr>(name);
  return attr ? attr.getValueAsDouble() : 0.0;
}

ArrayRef<int64_t> i64Array(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name);
  return attr ? attr.asArrayRef() : ArrayRef<int64_t>();
}

/// Rounds a WEIGHTS size up to om::kWeightAlignment.
size_t alignWeights(size_t size) {
  const size_t a = om::kWeightAlignment;
  return (size + a - 1) / a * a;
}

om::MemRef memRef(om::MemRef::Kind kind, int64_t index, int64_t offset) {
  om::MemRef ref;
  ref.set_kind(kind);
  ref.set_index(index);
  ref.set_offset(offset);
  return ref;
}

/// Builds one model; holds what the GraphDef walk learns about each value.
class OmEmitter {
public:
  OmEmitter(func::FuncOp func, const rt::SocSpec &soc,
            const EmitOptions &options)
      : func_(func), soc_(soc), options_(options) {}

  llvm::Expected<om::OmModel> run(StringRef modelName);

private:
  /// Where a value lives during execution.
  struct Location {
    std::string ref;  // "producer:k"
    om::MemRef place; // WORKSPACE or WEIGHT offset
    int64_t stream = 0;
  };

  std::string uniqueName(std::string base) {
    if (base.empty())
      base = "op";
    std::string name = base;
    for (int k = 1; !names_.insert(name).second; ++k)
      name = base + "_" + std::to_string(k);
    return name;
  }

  om::OpDef &addOp(std::string name, StringRef type, int64_t stream) {
    om::OpDef &def = *graph().add_op();
    def.set_name(std::move(name));
    def.set_type(type.str());
    def.set_id(graph().op_size() - 1);
    def.set_stream_id(stream);
    return def;
  }

  om::GraphDef &graph() { return *model_.modelDef.mutable_graph(0); }

  void place(uint32_t opIndex, uint32_t output, const om::MemRef &where,
             uint64_t size) {
    om::TensorPlacement &p = *model_.memoryPlan.add_placement();
    p.set_op_index(opIndex);
    p.set_output_index(output);
    *p.mutable_location() = where;
    p.set_size(size);
  }

  llvm::Error emitData();
  llvm::Error emitConst(Operation *op);
  llvm::Error emitCompute(Operation *op);
  llvm::Error emitOutputs(Operation *terminator);
  /// A Recv (before the compute op) or Send (after `after`, as control
  /// inputs) and its task; named after `base`.
  std::string emitEvent(StringRef type, int64_t eventId, int64_t stream,
                        const std::string &base,
                        ArrayRef<std::string> after = {});

  func::FuncOp func_;
  const rt::SocSpec &soc_;
  const EmitOptions &options_;
  om::OmModel model_;
  llvm::StringSet<> names_;
  llvm::DenseMap<Value, Location> locations_;
  int64_t maxStream_ = 0;
  int64_t maxEvent_ = -1;
  std::map<int64_t, int64_t> streamPriority_;
  int64_t computeIndex_ = 0;
};

llvm::Error OmEmitter::emitData() {
  ArrayRef<int64_t> offsets = i64Array(func_, kInputOffsetsAttr);
  for (BlockArgument arg : func_.getArguments()) {
    unsigned i = arg.getArgNumber();
    if (i >= offsets.size())
      return makeError("function has no workspace offset for input " +
                       llvm::Twine(i) + " (run ge-plan-memory)");
    auto geName = func_.getArgAttrOfType<StringAttr>(i, GeDialect::kNameAttr);
    om::OpDef &def =
        addOp(uniqueName(geName ? geName.str() : "input_" + std::to_string(i)),
              "Data", 0);
    (*def.mutable_attr())["index"].set_i(i);
    *def.add_output_desc() = toTensorDescriptor(arg.getType());
    graph().add_input(def.name());

    uint64_t bytes = def.output_desc(0).size();
    om::MemRef where = memRef(om::MemRef::WORKSPACE, 0, offsets[i]);
    locations_[arg] = {def.name() + ":0", where, 0};
    place(def.id(), 0, where, bytes);

    om::TaskDef &task = *model_.taskDef.add_task();
    task.set_type(om::MEMCPY_ASYNC);
    task.set_stream_id(0);
    task.set_op_index(def.id());
    *task.mutable_src() = memRef(om::MemRef::INPUT, i, 0);
    *task.mutable_dst() = where;
    task.set_size(bytes);
  }
  // ge-insert-events: the events other streams wait for to read an input,
  // recorded once every input is copied in.
  std::vector<std::string> inputs(graph().input().begin(),
                                  graph().input().end());
  for (int64_t id : i64Array(func_, GeDialect::kSendEventsAttr))
    emitEvent("Send", id, 0, "inputs", inputs);
  return llvm::Error::success();
}

llvm::Error OmEmitter::emitConst(Operation *op) {
  auto value = op->getAttrOfType<ElementsAttr>("value");
  if (!value || op->getNumResults() != 1)
    return opError(op, "constant without an elements value");
  // Every constant starts 64-byte aligned in WEIGHTS (om::kWeightAlignment).
  std::vector<uint8_t> &weights = model_.weights;
  weights.resize(alignWeights(weights.size()), 0);
  uint64_t offset = weights.size();
  if (llvm::Error err = appendElementsBytes(value, weights))
    return opError(op, toString(std::move(err)));
  uint64_t size = weights.size() - offset;

  std::string name = nameFromLoc(op->getLoc());
  om::OpDef &def = addOp(uniqueName(name.empty() ? "Const" : name), "Const", 0);
  (*def.mutable_attr())["weight_offset"].set_i(offset);
  (*def.mutable_attr())["weight_size"].set_i(size);
  *def.add_output_desc() = toTensorDescriptor(op->getResult(0).getType());

  om::MemRef where = memRef(om::MemRef::WEIGHT, 0, offset);
  locations_[op->getResult(0)] = {def.name() + ":0", where, 0};
  place(def.id(), 0, where, size);
  return llvm::Error::success();
}

std::string OmEmitter::emitEvent(StringRef type, int64_t eventId,
                                 int64_t stream, const std::string &base,
                                 ArrayRef<std::string> after) {
  bool isSend = type == "Send";
  om::OpDef &def = addOp(uniqueName(base + (isSend ? "_Send_" : "_Recv_") +
                                    std::to_string(eventId)),
                         type, stream);
  (*def.mutable_attr())["event_id"].set_i(eventId);
  for (const std::string &op : after)
    def.add_input("^" + op);
  maxEvent_ = std::max(maxEvent_, eventId);

  om::TaskDef &task = *model_.taskDef.add_task();
  task.set_type(isSend ? om::EVENT_RECORD : om::EVENT_WAIT);
  task.set_stream_id(stream);
  task.set_event_id(eventId);
  task.set_op_index(def.id());
  return def.name();
}

llvm::Error OmEmitter::emitCompute(Operation *op) {
  int64_t stream = intAttr(op, GeDialect::kStreamAttr, 0);
  maxStream_ = std::max(maxStream_, stream);
  if (auto priority =
          op->getAttrOfType<IntegerAttr>(GeDialect::kStreamPriorityAttr))
    streamPriority_.emplace(stream, priority.getInt());

  int64_t aicoreNum = intAttr(op, GeDialect::kAicoreNumAttr, 0);
  int64_t vectorcoreNum = intAttr(op, GeDialect::kVectorcoreNumAttr, 0);
  if (aicoreNum > int64_t(soc_.cubeCoreCnt))
    return opError(op, "_op_aicore_num is " + llvm::Twine(aicoreNum) + " but " +
                           soc_.source + " has " +
                           llvm::Twine(soc_.cubeCoreCnt) + " cube cores");
  if (vectorcoreNum > int64_t(soc_.vectorCoreCnt))
    return opError(op, "_op_vectorcore_num is " + llvm::Twine(vectorcoreNum) +
                           " but " + soc_.source + " has " +
                           llvm::Twine(soc_.vectorCoreCnt) + " vector cores");

  std::string base = nameFromLoc(op->getLoc());
  if (base.empty())
    base = opDefType(op) + "_" + std::to_string(computeIndex_);
  ++computeIndex_;
  std::string name = uniqueName(base);

  // Recv ops come first so the compute op can name them in control edges;
  // its own index is taken after them.
  ArrayRef<int64_t> recvs = i64Array(op, GeDialect::kRecvEventsAttr);
  std::vector<std::string> recvNames;
  for (int64_t id : recvs)
    recvNames.push_back(emitEvent("Recv", id, stream, name));

  om::OpDef &def = addOp(name, "", stream);
  uint32_t opIndex = def.id();
  std::string failure;
  auto refOf = [&](Value v) -> std::string {
    auto it = locations_.find(v);
    if (it != locations_.end())
      return it->second.ref;
    failure = "an operand is not produced before its use";
    return "";
  };
  if (llvm::Error err = fillOpDef(op, def, refOf))
    return err;
  if (!failure.empty())
    return opError(op, failure);
  for (const std::string &recv : recvNames)
    def.add_input("^" + recv);

  // Scheduling attributes under their GE names (DESIGN.md, "Annotations").
  auto &attrs = *def.mutable_attr();
  if (auto engine = op->getAttrOfType<StringAttr>(GeDialect::kEngineAttr))
    attrs["_engine"].set_s(engine.str());
  if (auto label = op->getAttrOfType<StringAttr>(GeDialect::kStreamLabelAttr)) {
    attrs["_stream_label"].set_s(label.str());
    attrs["_user_stream_label"].set_s(label.str());
  }
  if (auto priority =
          op->getAttrOfType<IntegerAttr>(GeDialect::kStreamPriorityAttr))
    attrs["_user_stream_priority"].set_i(priority.getInt());
  if (auto inner = op->getAttrOfType<BoolAttr>(GeDialect::kInnerParallelAttr))
    attrs["_enable_inner_parallel"].set_b(inner.getValue());
  if (op->hasAttr(GeDialect::kAicoreNumAttr))
    attrs["_op_aicore_num"].set_i(aicoreNum);
  if (op->hasAttr(GeDialect::kVectorcoreNumAttr))
    attrs["_op_vectorcore_num"].set_i(vectorcoreNum);
  // GE: an op-level core limit wins over the global one (ge.aicoreNum).
  if (!op->hasAttr(GeDialect::kAicoreNumAttr))
    aicoreNum = options_.aicoreNum;
  if (!op->hasAttr(GeDialect::kVectorcoreNumAttr))
    vectorcoreNum = options_.vectorcoreNum;
  int64_t blockDim = std::max<int64_t>(intAttr(op, kBlockDimAttr, 1), 1);

  StringRef engineName = "AIV";
  if (auto engine = op->getAttrOfType<StringAttr>(GeDialect::kEngineAttr))
    engineName = engine.getValue();
  std::optional<om::Engine> engine = parseOmEngine(engineName);
  if (!engine)
    return opError(op, "unknown engine '" + engineName + "'");

  int64_t limit = *engine == om::AIV                           ? vectorcoreNum
                  : (*engine == om::AIC || *engine == om::MIX) ? aicoreNum
                                                               : 0;
  if (limit > 0)
    blockDim = std::min(blockDim, limit);
  attrs["_block_dim"].set_i(blockDim);

  om::TaskDef &task = *model_.taskDef.add_task();
  task.set_type(om::KERNEL);
  task.set_stream_id(stream);
  task.set_op_index(opIndex);
  task.set_engine(*engine);
  task.set_block_dim(static_cast<uint32_t>(blockDim));
  task.set_flops(floatAttr(op, kFlopsAttr));
  task.set_bytes(floatAttr(op, kBytesAttr));
  task.set_aicore_num(static_cast<uint32_t>(aicoreNum));
  task.set_vectorcore_num(static_cast<uint32_t>(vectorcoreNum));

  ArrayRef<int64_t> offsets = i64Array(op, kOutputOffsetsAttr);
  if (offsets.size() != op->getNumResults())
    return opError(op, "has no workspace offsets for its results (run "
                       "ge-plan-memory)");
  for (OpResult result : op->getResults()) {
    unsigned k = result.getResultNumber();
    om::MemRef where = memRef(om::MemRef::WORKSPACE, 0, offsets[k]);
    locations_[result] = {name + ":" + std::to_string(k), where, stream};
    place(opIndex, k, where, graph().op(opIndex).output_desc(k).size());
  }

  for (int64_t id : i64Array(op, GeDialect::kSendEventsAttr))
    emitEvent("Send", id, stream, name, {name});
  return llvm::Error::success();
}

llvm::Error OmEmitter::emitOutputs(Operation *terminator) {
  om::OpDef &net = addOp(uniqueName("NetOutput"), "NetOutput", 0);
  uint32_t netIndex = net.id();
  // Output names (aclmdlGetOutputNameByIndex) from the results' ge.name.
  om::ListValue *names = (*net.mutable_attr())["output_names"].mutable_list();
  for (OpOperand &operand : terminator->getOpOperands()) {
    Value v = operand.get();
    auto it = locations_.find(v);
    if (it == locations_.end())
      return makeError("graph output " +
                       llvm::Twine(operand.getOperandNumber()) +
                       " is not produced by the graph");
    const Location &loc = it->second;
    graph().mutable_op(netIndex)->add_input(loc.ref);
    *graph().mutable_op(netIndex)->add_input_desc() =
        toTensorDescriptor(v.getType());
    graph().add_output(loc.ref);
    auto geName = func_.getResultAttrOfType<StringAttr>(
        operand.getOperandNumber(), GeDialect::kNameAttr);
    names->add_s(geName ? geName.str() : loc.ref);

    om::TaskDef &task = *model_.taskDef.add_task();
    task.set_type(om::MEMCPY_ASYNC);
    task.set_stream_id(loc.stream);
    task.set_op_index(netIndex);
    *task.mutable_src() = loc.place;
    *task.mutable_dst() =
        memRef(om::MemRef::OUTPUT, operand.getOperandNumber(), 0);
    task.set_size(std::max<int64_t>(tensorBytes(v.getType()), 0));
  }
  return llvm::Error::success();
}

llvm::Expected<om::OmModel> OmEmitter::run(StringRef modelName) {
  if (options_.aicoreNum > soc_.cubeCoreCnt)
    return makeError("ge.aicoreNum is " + llvm::Twine(options_.aicoreNum) +
                     " but " + soc_.source + " has " +
                     llvm::Twine(soc_.cubeCoreCnt) + " cube cores");
  if (options_.vectorcoreNum > soc_.vectorCoreCnt)
    return makeError("ge.vectorcoreNum is " +
                     llvm::Twine(options_.vectorcoreNum) + " but " +
                     soc_.source + " has " + llvm::Twine(soc_.vectorCoreCnt) +
                     " vector cores");
  model_.socName = soc_.source.empty() ? soc_.socVersion : soc_.source;
  om::ModelDef &modelDef = model_.modelDef;
  modelDef.set_name(modelName.str());
  modelDef.set_version(1);
  modelDef.set_custom_version("geflow");
  auto &attrs = *modelDef.mutable_attr();
  attrs["soc_version"].set_s(soc_.socVersion);
  attrs["soc_name"].set_s(model_.socName);
  attrs["ge.aicoreNum"].set_i(options_.aicoreNum ? options_.aicoreNum
                                                 : soc_.cubeCoreCnt);
  attrs["ge.vectorcoreNum"].set_i(
      options_.vectorcoreNum ? options_.vectorcoreNum : soc_.vectorCoreCnt);
  if (auto before = func_->getAttrOfType<IntegerAttr>(
          GeDialect::kEventsBeforeReductionAttr))
    attrs["events_before_reduction"].set_i(before.getInt());
  modelDef.add_graph()->set_name(modelName.str());

  if (llvm::Error err = emitData())
    return std::move(err);
  Block &body = func_.getBody().front();
  for (Operation &op : body) {
    llvm::Error err = llvm::Error::success();
    if (op.hasTrait<OpTrait::IsTerminator>())
      err = emitOutputs(&op);
    else if (op.getName().getStringRef() == "ge.constant")
      err = emitConst(&op);
    else
      err = emitCompute(&op);
    if (err)
      return std::move(err);
  }
  // The weights partition ends aligned too.
  model_.weights.resize(alignWeights(model_.weights.size()), 0);

  om::ModelTaskDef &tasks = model_.taskDef;
  tasks.set_stream_num(maxStream_ + 1);
  for (int64_t s = 0; s <= maxStream_; ++s) {
    auto it = streamPriority_.find(s);
    tasks.add_stream_priority(it == streamPriority_.end() ? 0 : it->second);
  }
  tasks.set_event_num(maxEvent_ + 1);

  model_.memoryPlan.set_workspace_size(intAttr(func_, kWorkspaceSizeAttr, 0));
  model_.memoryPlan.set_workspace_size_without_reuse(
      intAttr(func_, kWorkspaceSizeNoReuseAttr, 0));
  return std::move(model_);
}

} // namespace

llvm::Expected<om::OmModel> emitOmModel(ModuleOp module, const rt::SocSpec &soc,
                                        const EmitOptions &options) {
  func::FuncOp func = module.lookupSymbol<func::FuncOp>("main");
  if (!func) {
    auto funcs = module.getOps<func::FuncOp>();
    if (std::distance(funcs.begin(), funcs.end()) != 1)
      return makeError("module has no @main function and not exactly one "
                       "function to emit");
    func = *funcs.begin();
  }
  if (!func.getBody().hasOneBlock())
    return makeError("function @" + func.getSymName() +
                     " must have a single-block body");

  // Diagnostics of the completing passes become the error's text.
  std::string diagnostic;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error && diagnostic.empty())
      diagnostic = d.str();
    return success();
  });
  auto fail = [&](StringRef what) {
    return makeError(diagnostic.empty() ? what : StringRef(diagnostic));
  };

  bool needsTasks = false;
  func.walk([&](Operation *op) {
    if (isComputeOp(op) && !op->hasAttr(kBlockDimAttr))
      needsTasks = true;
  });
  if (needsTasks) {
    rt::CostModel costModel(soc);
    if (mlir::failed(annotateTasks(func, costModel, options.requireKernels)))
      return fail("task annotation failed");
  }
  if (!func->hasAttr(kWorkspaceSizeAttr) && mlir::failed(planMemory(func)))
    return fail("memory planning failed");

  std::string name = options.modelName;
  if (name.empty())
    name = module.getSymName() ? module.getSymName()->str() : "model";
  OmEmitter emitter(func, soc, options);
  return emitter.run(name);
}

} // namespace geflow::passes
