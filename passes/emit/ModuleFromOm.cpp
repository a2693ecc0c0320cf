//===- ModuleFromOm.cpp - a built OM model back as a ge module ------------===//
//
// The inverse of task emission, for `geflow dump --format mlir`: each OpDef
// becomes its ge op again (type "conv" -> ge.conv, kernel attributes
// converted back, result types from output_desc), Data the function's
// arguments, NetOutput its func.return, Const a ge.constant holding its bytes
// from WEIGHTS. The schedule returns as ge attributes: stream_id -> ge.stream,
// the GE names of GraphBuilder.h (_engine -> ge.engine, _block_dim ->
// ge.block_dim, ...), Send/Recv -> ge.send_events / ge.recv_events of the op
// they are tied to, each KERNEL task's cost -> ge.flops / ge.bytes, the memory
// plan -> ge.output_offsets, ge.input_offsets and ge.workspace_size. The
// module verifies, and emitting it again gives the same graph.
//
//===----------------------------------------------------------------------===//

#include "passes/emit/ModuleFromOm.h"

#include "passes/PassSupport.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/GraphBuilder.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace mlir;

namespace geflow::passes {
namespace {

llvm::Error nodeError(const om::OpDef &def, const llvm::Twine &what) {
  return makeError("node '" + def.name() + "' (" + def.type() + "): " + what);
}

/// toGeDataType's inverse: GE's dtype as an MLIR element type.
Type elementType(MLIRContext *context, om::DataType dtype) {
  Builder b(context);
  switch (dtype) {
  case om::DT_FLOAT:
    return b.getF32Type();
  case om::DT_FLOAT16:
    return b.getF16Type();
  case om::DT_BF16:
    return b.getBF16Type();
  case om::DT_DOUBLE:
    return b.getF64Type();
  case om::DT_BOOL:
    return b.getI1Type();
  case om::DT_INT8:
    return b.getIntegerType(8);
  case om::DT_INT16:
    return b.getIntegerType(16);
  case om::DT_INT32:
    return b.getIntegerType(32);
  case om::DT_INT64:
    return b.getIntegerType(64);
  case om::DT_UINT8:
    return b.getIntegerType(8, /*isSigned=*/false);
  case om::DT_UINT16:
    return b.getIntegerType(16, /*isSigned=*/false);
  case om::DT_UINT32:
    return b.getIntegerType(32, /*isSigned=*/false);
  case om::DT_UINT64:
    return b.getIntegerType(64, /*isSigned=*/false);
  default:
    return {};
  }
}

/// The tensor type a descriptor describes; null for DT_UNDEFINED.
RankedTensorType tensorType(MLIRContext *context,
                            const om::TensorDescriptor &desc) {
  Type element = elementType(context, desc.dtype());
  if (!element)
    return {};
  return RankedTensorType::get(
      llvm::SmallVector<int64_t>(desc.shape().begin(), desc.shape().end()),
      element);
}

/// appendElementsBytes' inverse: row-major little-endian bytes, one per bool.
llvm::Expected<DenseElementsAttr>
elementsFromBytes(RankedTensorType type, const uint8_t *data, size_t size) {
  unsigned bits = type.getElementTypeBitWidth();
  size_t elementBytes = bits == 1 ? 1 : bits / 8;
  size_t count = type.getNumElements();
  if (size != count * elementBytes)
    return makeError(llvm::Twine(size) + " bytes for " + llvm::Twine(count) +
                     " elements of " + llvm::Twine(elementBytes) + " byte(s)");
  if (bits == 1) {
    llvm::SmallVector<bool> values(data, data + size);
    return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(values));
  }
  return DenseElementsAttr::getFromRawBuffer(
      type, ArrayRef<char>(reinterpret_cast<const char *>(data), size));
}

/// The MLIR forms an OpDef attribute may have come from, most likely first
/// (convertAttr in OpDefBuilder.cpp is the forward direction). An empty list
/// does not say its element type, so it lists every array kind.
llvm::Expected<llvm::SmallVector<Attribute>>
attrCandidates(MLIRContext *context, const om::AttrDef &value) {
  Builder b(context);
  switch (value.value_case()) {
  case om::AttrDef::kS:
    return llvm::SmallVector<Attribute>{b.getStringAttr(value.s())};
  case om::AttrDef::kI:
    return llvm::SmallVector<Attribute>{b.getI64IntegerAttr(value.i())};
  case om::AttrDef::kF:
    return llvm::SmallVector<Attribute>{b.getF32FloatAttr(value.f())};
  case om::AttrDef::kB:
    return llvm::SmallVector<Attribute>{b.getBoolAttr(value.b())};
  case om::AttrDef::kT: {
    const om::TensorDef &t = value.t();
    RankedTensorType type = tensorType(context, t.desc());
    if (!type)
      return makeError("tensor attribute without a data type");
    auto elements = elementsFromBytes(
        type, reinterpret_cast<const uint8_t *>(t.data().data()),
        t.data().size());
    if (!elements)
      return elements.takeError();
    return llvm::SmallVector<Attribute>{*elements};
  }
  case om::AttrDef::kList: {
    const om::ListValue &list = value.list();
    llvm::SmallVector<int64_t> ints(list.i().begin(), list.i().end());
    llvm::SmallVector<float> floats(list.f().begin(), list.f().end());
    llvm::SmallVector<Attribute> strings;
    for (const std::string &s : list.s())
      strings.push_back(b.getStringAttr(s));
    if (!ints.empty())
      return llvm::SmallVector<Attribute>{b.getDenseI64ArrayAttr(ints)};
    if (!floats.empty())
      return llvm::SmallVector<Attribute>{b.getDenseF32ArrayAttr(floats)};
    if (!strings.empty())
      return llvm::SmallVector<Attribute>{b.getArrayAttr(strings)};
    return llvm::SmallVector<Attribute>{b.getDenseI64ArrayAttr({}),
                                        b.getDenseF32ArrayAttr({}),
                                        b.getArrayAttr({})};
  }
  default:
    return makeError("attribute without a value");
  }
}

/// Sets a kernel attribute: an inherent attribute takes the first candidate
/// of its declared kind (properties drop a value of another kind).
bool setKernelAttr(Operation *op, StringAttr name,
                   llvm::ArrayRef<Attribute> candidates) {
  if (!llvm::is_contained(op->getName().getAttributeNames(), name)) {
    op->setAttr(name, candidates.front());
    return true;
  }
  for (Attribute candidate : candidates) {
    op->setInherentAttr(name, candidate);
    if (op->getInherentAttr(name.getValue()).value_or(Attribute()))
      return true;
  }
  return false;
}

class ModuleFromOm {
public:
  ModuleFromOm(MLIRContext &context, const om::LoadedOm &om)
      : context_(&context), om_(om), b_(&context) {}

  llvm::Expected<OwningOpRef<ModuleOp>> run();

private:
  const om::GraphDef &graph() const { return om_.graph(); }

  llvm::Error addConst(const om::OpDef &def);
  llvm::Error addCompute(const om::OpDef &def, int index);
  llvm::Error addEvent(const om::OpDef &def);
  llvm::Error addReturn(const om::OpDef &def);
  llvm::Expected<Value> valueOf(const om::OpDef &user, const std::string &ref);
  /// The workspace offsets of op `index`'s outputs.
  llvm::SmallVector<int64_t> outputOffsets(int index) const;

  MLIRContext *context_;
  const om::LoadedOm &om_;
  OpBuilder b_;
  func::FuncOp func_;
  llvm::StringMap<llvm::SmallVector<Value>> outputs_;
  llvm::StringMap<Operation *> computeOps_;
  llvm::StringMap<int64_t> recvEvents_;
  llvm::DenseMap<Operation *, llvm::SmallVector<int64_t>> sends_, recvs_;
  llvm::SmallVector<int64_t> inputSends_;
  std::map<std::pair<int, int>, int64_t> placements_;
  llvm::DenseMap<int, const om::TaskDef *> kernels_;
};

llvm::SmallVector<int64_t> ModuleFromOm::outputOffsets(int index) const {
  llvm::SmallVector<int64_t> offsets;
  for (auto it = placements_.lower_bound({index, 0});
       it != placements_.end() && it->first.first == index; ++it)
    offsets.push_back(it->second);
  return offsets;
}

llvm::Expected<Value> ModuleFromOm::valueOf(const om::OpDef &user,
                                            const std::string &ref) {
  auto [producer, outputText] = llvm::StringRef(ref).rsplit(':');
  unsigned output = 0;
  auto it = outputs_.find(producer);
  if (outputText.getAsInteger(10, output) || it == outputs_.end() ||
      output >= it->second.size())
    return nodeError(user, "input '" + ref + "' names no earlier output");
  return it->second[output];
}

llvm::Error ModuleFromOm::addConst(const om::OpDef &def) {
  RankedTensorType type = def.output_desc_size() == 1
                              ? tensorType(context_, def.output_desc(0))
                              : RankedTensorType();
  auto offset = def.attr().find("weight_offset");
  auto size = def.attr().find("weight_size");
  if (!type || offset == def.attr().end() || size == def.attr().end())
    return nodeError(def, "needs one typed output, weight_offset and "
                          "weight_size");
  uint64_t begin = offset->second.i(), bytes = size->second.i();
  if (begin + bytes > om_.weightsSize() || begin + bytes < begin)
    return nodeError(def, "weights lie outside the WEIGHTS partition");
  auto value = elementsFromBytes(type, om_.weights() + begin, bytes);
  if (!value)
    return nodeError(def, llvm::toString(value.takeError()));
  OperationState state(NameLoc::get(b_.getStringAttr(def.name())),
                       "ge.constant");
  state.addTypes(type);
  state.addAttribute("value", *value);
  outputs_[def.name()] = {b_.create(state)->getResult(0)};
  return llvm::Error::success();
}

llvm::Error ModuleFromOm::addCompute(const om::OpDef &def, int index) {
  std::string opName = "ge." + def.type();
  if (!OperationName(opName, context_).isRegistered())
    return nodeError(def, "no ge op '" + opName + "'");
  OperationState state(NameLoc::get(b_.getStringAttr(def.name())), opName);
  // Data inputs in order ("" is an absent optional one); "^Recv" control
  // inputs become the op's ge.recv_events.
  llvm::SmallVector<int32_t> segments;
  llvm::SmallVector<int64_t> recvs;
  for (const std::string &ref : def.input()) {
    if (llvm::StringRef(ref).starts_with("^")) {
      auto recv = recvEvents_.find(ref.substr(1));
      if (recv == recvEvents_.end())
        return nodeError(def, "control input '" + ref + "' is not a Recv");
      recvs.push_back(recv->second);
      continue;
    }
    segments.push_back(ref.empty() ? 0 : 1);
    if (ref.empty())
      continue;
    llvm::Expected<Value> value = valueOf(def, ref);
    if (!value)
      return value.takeError();
    state.addOperands(*value);
  }
  for (const om::TensorDescriptor &desc : def.output_desc()) {
    RankedTensorType type = tensorType(context_, desc);
    if (!type)
      return nodeError(def, "an output has no data type");
    state.addTypes(type);
  }
  Operation *op = b_.create(state);
  computeOps_[def.name()] = op;
  outputs_[def.name()] = llvm::SmallVector<Value>(op->getResults());

  // Absent optional operands, as OpDefBuilder wrote them.
  if (op->hasTrait<OpTrait::AttrSizedOperandSegments>()) {
    auto sizes = dyn_cast_or_null<DenseI32ArrayAttr>(
        op->getInherentAttr("operandSegmentSizes").value_or(Attribute()));
    size_t count = sizes ? sizes.size() : 0;
    if (segments.size() > count)
      return nodeError(def, llvm::Twine(segments.size()) + " inputs for " +
                                llvm::Twine(count) + " operand groups");
    segments.resize(count, 0);
    op->setInherentAttr(b_.getStringAttr("operandSegmentSizes"),
                        b_.getDenseI32ArrayAttr(segments));
  }

  llvm::StringMap<llvm::StringRef> irNameOf;
  for (const GeAttrName &names : kGeAttrNames)
    irNameOf[names.geName] = names.irName;
  for (const auto &[name, value] : def.attr()) {
    if (name == "_no_task")
      continue; // set below
    auto candidates = attrCandidates(context_, value);
    if (!candidates)
      return nodeError(def, "attribute '" + name +
                                "': " + llvm::toString(candidates.takeError()));
    auto ir = irNameOf.find(name);
    if (ir != irNameOf.end() && ir->second == GeDialect::kEngineAttr) {
      std::optional<mlir::ge::Engine> engine =
          mlir::ge::symbolizeEngine(value.s());
      if (!engine)
        return nodeError(def, "unknown engine '" + value.s() + "'");
      op->setAttr(ir->second, mlir::ge::EngineAttr::get(context_, *engine));
    } else if (ir != irNameOf.end()) {
      op->setAttr(ir->second, candidates->front());
    } else if (!setKernelAttr(op, b_.getStringAttr(name), *candidates)) {
      return nodeError(def, "attribute '" + name + "' does not fit " + opName);
    }
  }
  op->setAttr(GeDialect::kStreamAttr, b_.getI64IntegerAttr(def.stream_id()));
  if (!recvs.empty())
    op->setAttr(GeDialect::kRecvEventsAttr, b_.getDenseI64ArrayAttr(recvs));
  if (const om::TaskDef *task = kernels_.lookup(index)) {
    op->setAttr(kFlopsAttr, b_.getF64FloatAttr(task->flops()));
    op->setAttr(kBytesAttr, b_.getF64FloatAttr(task->bytes()));
  }
  // A view or in-place join (passes/emit/NoTaskOps.h) stays without a task.
  if (auto noTask = def.attr().find("_no_task");
      noTask != def.attr().end() && noTask->second.b())
    op->setAttr(GeDialect::kNoTaskAttr, b_.getUnitAttr());
  llvm::SmallVector<int64_t> offsets = outputOffsets(index);
  if (offsets.size() == op->getNumResults())
    op->setAttr(kOutputOffsetsAttr, b_.getDenseI64ArrayAttr(offsets));
  return llvm::Error::success();
}

llvm::Error ModuleFromOm::addEvent(const om::OpDef &def) {
  auto id = def.attr().find("event_id");
  if (id == def.attr().end())
    return nodeError(def, "no event_id");
  if (def.type() == om::kRecvType) {
    recvEvents_[def.name()] = id->second.i();
    return llvm::Error::success();
  }
  // A Send records after the op it names in a control input: a compute op,
  // or the input copies (every Data op).
  for (const std::string &ref : def.input()) {
    llvm::StringRef after = llvm::StringRef(ref).drop_front();
    if (Operation *op = computeOps_.lookup(after)) {
      auto ids =
          op->getAttrOfType<DenseI64ArrayAttr>(GeDialect::kSendEventsAttr);
      llvm::SmallVector<int64_t> all(ids ? ids.asArrayRef()
                                         : llvm::ArrayRef<int64_t>());
      all.push_back(id->second.i());
      op->setAttr(GeDialect::kSendEventsAttr, b_.getDenseI64ArrayAttr(all));
      return llvm::Error::success();
    }
  }
  inputSends_.push_back(id->second.i());
  return llvm::Error::success();
}

llvm::Error ModuleFromOm::addReturn(const om::OpDef &def) {
  llvm::SmallVector<Value> results;
  for (const std::string &ref : def.input()) {
    llvm::Expected<Value> value = valueOf(def, ref);
    if (!value)
      return value.takeError();
    results.push_back(*value);
  }
  b_.create<func::ReturnOp>(NameLoc::get(b_.getStringAttr(def.name())),
                            results);
  func_.setFunctionType(
      b_.getFunctionType(func_.getArgumentTypes(),
                         llvm::to_vector(ValueRange(results).getTypes())));
  auto names = def.attr().find("output_names");
  if (names != def.attr().end())
    for (int k = 0;
         k < names->second.list().s_size() && k < int(results.size()); ++k)
      func_.setResultAttr(k, GeDialect::kNameAttr,
                          b_.getStringAttr(names->second.list().s(k)));
  return llvm::Error::success();
}

llvm::Expected<OwningOpRef<ModuleOp>> ModuleFromOm::run() {
  for (const om::TensorPlacement &p : om_.memoryPlan().placement())
    if (p.location().kind() == om::MemRef::WORKSPACE)
      placements_[{int(p.op_index()), int(p.output_index())}] =
          p.location().offset();
  for (const om::TaskDef &task : om_.taskDef().task())
    if (task.type() == om::KERNEL)
      kernels_[task.op_index()] = &task;

  // The function's inputs are the Data ops, by their "index".
  std::map<int64_t, const om::OpDef *> data;
  for (const om::OpDef &def : graph().op())
    if (def.type() == om::kDataType) {
      auto index = def.attr().find("index");
      if (index == def.attr().end() || def.output_desc_size() != 1 ||
          !tensorType(context_, def.output_desc(0)))
        return nodeError(def, "needs an index and one typed output");
      data[index->second.i()] = &def;
    }
  llvm::SmallVector<Type> inputTypes;
  llvm::SmallVector<int64_t> inputOffsets;
  for (const auto &[index, def] : data) {
    inputTypes.push_back(tensorType(context_, def->output_desc(0)));
    inputOffsets.push_back(placements_[{int(def->id()), 0}]);
  }

  Location loc = NameLoc::get(b_.getStringAttr(om_.modelDef().name()));
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc, om_.modelDef().name());
  b_.setInsertionPointToEnd(module->getBody());
  func_ =
      b_.create<func::FuncOp>(loc, "main", b_.getFunctionType(inputTypes, {}));
  Block *body = func_.addEntryBlock();
  int argument = 0;
  for (const auto &[index, def] : data) {
    func_.setArgAttr(argument, GeDialect::kNameAttr,
                     b_.getStringAttr(def->name()));
    BlockArgument arg = body->getArgument(argument++);
    arg.setLoc(NameLoc::get(b_.getStringAttr(def->name())));
    outputs_[def->name()] = {arg};
  }
  b_.setInsertionPointToEnd(body);

  for (int i = 0; i < graph().op_size(); ++i) {
    const om::OpDef &def = graph().op(i);
    llvm::Error err = llvm::Error::success();
    if (def.type() == om::kDataType)
      continue;
    if (def.type() == om::kConstType)
      err = addConst(def);
    else if (def.type() == om::kSendType || def.type() == om::kRecvType)
      err = addEvent(def);
    else if (def.type() == om::kNetOutputType)
      err = addReturn(def);
    else
      err = addCompute(def, i);
    if (err)
      return std::move(err);
  }
  if (body->empty() || !body->back().hasTrait<OpTrait::IsTerminator>())
    return makeError("the graph has no NetOutput");

  func_->setAttr(kInputOffsetsAttr, b_.getDenseI64ArrayAttr(inputOffsets));
  func_->setAttr(kWorkspaceSizeAttr,
                 b_.getI64IntegerAttr(om_.memoryPlan().workspace_size()));
  func_->setAttr(
      kWorkspaceSizeNoReuseAttr,
      b_.getI64IntegerAttr(om_.memoryPlan().workspace_size_without_reuse()));
  if (!inputSends_.empty())
    func_->setAttr(GeDialect::kSendEventsAttr,
                   b_.getDenseI64ArrayAttr(inputSends_));

  std::string diagnostic;
  ScopedDiagnosticHandler handler(context_, [&](Diagnostic &d) {
    if (diagnostic.empty())
      diagnostic = d.str();
    return success();
  });
  if (failed(verify(*module)))
    return makeError("the rebuilt module does not verify: " + diagnostic);
  return std::move(module);
}

} // namespace

llvm::Expected<OwningOpRef<ModuleOp>>
buildModuleFromOm(MLIRContext &context, const om::LoadedOm &om) {
  return ModuleFromOm(context, om).run();
}

} // namespace geflow::passes
