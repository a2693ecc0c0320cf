//===- OmEmitter.cpp - a scheduled ge module as an OM model ---------------===//

#include "passes/emit/OmEmitter.h"

#include "ir/ElementsBytes.h"
#include "ir/GeDialect.h"
#include "passes/PassSupport.h"
#include "passes/Passes.h"
#include "passes/ScheduleAttrs.h"
#include "passes/emit/GraphBuilder.h"
#include "passes/emit/KernelPlanning.h"
#include "passes/emit/NoTaskOps.h"
#include "passes/emit/OpDefBuilder.h"

#include "runtime/soc/CostModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sys/mman.h>

using namespace mlir;
using mlir::ge::GeDialect;

namespace geflow::passes {
namespace {

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

/// Backs the whole pages of [data, data + size) with transparent huge pages
/// where the kernel allows and faults them in with one call. Copying 45 MB of
/// weights (a model not imported from a file: compileOnnxFile borrows them)
/// otherwise takes 11k page faults; kernels without either advice ignore it.
void faultInForWriting(void *data, size_t size) {
  const uintptr_t page = 4096;
  uintptr_t begin =
      (reinterpret_cast<uintptr_t>(data) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(data) + size) & ~(page - 1);
  if (end <= begin)
    return;
  void *pages = reinterpret_cast<void *>(begin);
  ::madvise(pages, end - begin, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
  ::madvise(pages, end - begin, MADV_POPULATE_WRITE);
#endif
}

om::MemRef memRef(om::MemRef::Kind kind, int64_t index, int64_t offset) {
  om::MemRef ref;
  ref.set_kind(kind);
  ref.set_index(index);
  ref.set_offset(offset);
  return ref;
}

/// Builds one model: the graph of GraphBuilder plus weights, tasks and memory,
/// in one walk over the graph's ops (task order is graph order).
class OmEmitter {
public:
  OmEmitter(func::FuncOp func, const rt::SocSpec &soc,
            const EmitOptions &options)
      : func_(func), soc_(soc), options_(options) {}

  llvm::Expected<om::OmModel> run(StringRef modelName);

private:
  /// Where an op output ("producer:k") lives during execution.
  struct Location {
    om::MemRef place; // WORKSPACE or WEIGHT offset
    int64_t stream = 0;
  };

  om::GraphDef &graph() { return *model_.modelDef.mutable_graph(0); }

  om::TaskDef &addTask(om::TaskType type, const om::OpDef &def) {
    om::TaskDef &task = *model_.taskDef.add_task();
    task.set_type(type);
    task.set_stream_id(def.stream_id());
    task.set_op_index(def.id());
    return task;
  }

  void place(const om::OpDef &def, uint32_t output, const om::MemRef &where,
             uint64_t size) {
    om::TensorPlacement &p = *model_.memoryPlan.add_placement();
    p.set_op_index(def.id());
    p.set_output_index(output);
    *p.mutable_location() = where;
    p.set_size(size);
    locations_[def.name() + ":" + std::to_string(output)] = {where,
                                                             def.stream_id()};
  }

  llvm::Error emitData(const om::OpDef &def);
  /// The bytes of a constant that stays where it is (options.borrowResources),
  /// or none when it is copied into WEIGHTS.
  std::optional<ArrayRef<char>> borrowable(Operation *op) const;
  /// Reserves WEIGHTS for every constant of the graph that is copied
  /// (`origin`: the op of each OpDef); the borrowed ones follow them.
  void reserveWeights(ArrayRef<Operation *> origin);
  llvm::Error emitConst(om::OpDef &def, Operation *op);
  llvm::Error emitCompute(om::OpDef &def, Operation *op);
  void emitEvent(const om::OpDef &def);
  llvm::Error emitOutputs(const om::OpDef &net);

  func::FuncOp func_;
  const rt::SocSpec &soc_;
  const EmitOptions &options_;
  om::OmModel model_;
  llvm::StringMap<Location> locations_;
  int64_t maxStream_ = 0;
  int64_t maxEvent_ = -1;
  std::map<int64_t, int64_t> streamPriority_;
  /// Where the next borrowed constant goes in WEIGHTS: after every copied one.
  uint64_t nextBorrowedOffset_ = 0;
};

/// An int attribute of an OpDef (0 when absent).
int64_t attrInt(const om::OpDef &def, const std::string &name) {
  auto it = def.attr().find(name);
  return it == def.attr().end() ? 0 : it->second.i();
}

bool hasAttr(const om::OpDef &def, const std::string &name) {
  return def.attr().count(name) != 0;
}

llvm::Error OmEmitter::emitData(const om::OpDef &def) {
  ArrayRef<int64_t> offsets = i64Array(func_, kInputOffsetsAttr);
  int64_t i = attrInt(def, "index");
  if (i >= int64_t(offsets.size()))
    return makeError("function has no workspace offset for input " +
                     llvm::Twine(i) + " (run ge-plan-memory)");
  uint64_t bytes = def.output_desc(0).size();
  om::MemRef where = memRef(om::MemRef::WORKSPACE, 0, offsets[i]);
  place(def, 0, where, bytes);

  om::TaskDef &task = addTask(om::MEMCPY_ASYNC, def);
  *task.mutable_src() = memRef(om::MemRef::INPUT, i, 0);
  *task.mutable_dst() = where;
  task.set_size(bytes);
  return llvm::Error::success();
}

std::optional<ArrayRef<char>> OmEmitter::borrowable(Operation *op) const {
  auto value = op->getAttrOfType<DenseResourceElementsAttr>("value");
  if (!options_.borrowResources || !value)
    return std::nullopt;
  return mlir::ge::getStoredBytes(value);
}

void OmEmitter::reserveWeights(ArrayRef<Operation *> origin) {
  // One allocation for every copied constant: a growing vector would copy
  // the weights several times over and fault in each new buffer.
  size_t total = 0;
  for (int i = 0; i < graph().op_size(); ++i)
    if (graph().op(i).type() == om::kConstType && !borrowable(origin[i]))
      if (auto value = origin[i]->getAttrOfType<ElementsAttr>("value"))
        total = alignWeights(
            total + std::max<int64_t>(tensorBytes(value.getShapedType()), 0));
  model_.weights.reserve(total);
  faultInForWriting(model_.weights.data(), total);
  nextBorrowedOffset_ = total;
}

llvm::Error OmEmitter::emitConst(om::OpDef &def, Operation *op) {
  auto value = op->getAttrOfType<ElementsAttr>("value");
  if (!value)
    return opError(op, "constant without an elements value");
  // Every constant starts 64-byte aligned in WEIGHTS (om::kWeightAlignment).
  uint64_t offset, size;
  if (std::optional<ArrayRef<char>> bytes = borrowable(op)) {
    offset = nextBorrowedOffset_;
    size = bytes->size();
    model_.borrowedWeights.push_back(
        {offset, std::string_view(bytes->data(), bytes->size())});
    nextBorrowedOffset_ = alignWeights(offset + size);
  } else {
    std::vector<uint8_t> &weights = model_.weights;
    weights.resize(alignWeights(weights.size()), 0);
    offset = weights.size();
    if (llvm::Error err = appendElementsBytes(value, weights))
      return opError(op, toString(std::move(err)));
    size = weights.size() - offset;
  }

  (*def.mutable_attr())["weight_offset"].set_i(offset);
  (*def.mutable_attr())["weight_size"].set_i(size);
  place(def, 0, memRef(om::MemRef::WEIGHT, 0, offset), size);
  return llvm::Error::success();
}

void OmEmitter::emitEvent(const om::OpDef &def) {
  int64_t eventId = attrInt(def, "event_id");
  maxEvent_ = std::max(maxEvent_, eventId);
  om::TaskDef &task = addTask(
      def.type() == om::kSendType ? om::EVENT_RECORD : om::EVENT_WAIT, def);
  task.set_event_id(eventId);
}

llvm::Error OmEmitter::emitCompute(om::OpDef &def, Operation *op) {
  int64_t stream = def.stream_id();
  maxStream_ = std::max(maxStream_, stream);
  if (hasAttr(def, "_user_stream_priority"))
    streamPriority_.emplace(stream, attrInt(def, "_user_stream_priority"));

  // Limits from the op or its annotation region (GraphBuilder's GE names).
  int64_t aicoreNum = attrInt(def, "_op_aicore_num");
  int64_t vectorcoreNum = attrInt(def, "_op_vectorcore_num");
  if (aicoreNum > int64_t(soc_.cubeCoreCnt))
    return opError(op, "_op_aicore_num is " + llvm::Twine(aicoreNum) + " but " +
                           soc_.source + " has " +
                           llvm::Twine(soc_.cubeCoreCnt) + " cube cores");
  if (vectorcoreNum > int64_t(soc_.vectorCoreCnt))
    return opError(op, "_op_vectorcore_num is " + llvm::Twine(vectorcoreNum) +
                           " but " + soc_.source + " has " +
                           llvm::Twine(soc_.vectorCoreCnt) + " vector cores");
  // GE: an op-level core limit wins over the global one (ge.aicoreNum).
  if (!hasAttr(def, "_op_aicore_num"))
    aicoreNum = options_.aicoreNum;
  if (!hasAttr(def, "_op_vectorcore_num"))
    vectorcoreNum = options_.vectorcoreNum;

  auto engineIt = def.attr().find("_engine");
  std::string engineName =
      engineIt == def.attr().end() ? "AIV" : engineIt->second.s();
  std::optional<mlir::ge::Engine> irEngine =
      mlir::ge::symbolizeEngine(engineName);
  if (!irEngine)
    return opError(op, "unknown engine '" + engineName + "'");
  std::optional<om::Engine> engine = omEngine(*irEngine);

  int64_t blockDim = std::max<int64_t>(intAttr(op, kBlockDimAttr, 1), 1);
  int64_t limit = *engine == om::AIV                           ? vectorcoreNum
                  : (*engine == om::AIC || *engine == om::MIX) ? aicoreNum
                                                               : 0;
  if (limit > 0)
    blockDim = std::min(blockDim, limit);
  (*def.mutable_attr())["_block_dim"].set_i(blockDim);

  ArrayRef<int64_t> offsets = i64Array(op, kOutputOffsetsAttr);
  if (offsets.size() != op->getNumResults())
    return opError(op, "has no workspace offsets for its results (run "
                       "ge-plan-memory)");
  for (int k = 0; k < def.output_desc_size(); ++k)
    place(def, k, memRef(om::MemRef::WORKSPACE, 0, offsets[k]),
          def.output_desc(k).size());
  // A view or in-place join: its results are placed, nothing runs.
  if (isNoTaskOp(op)) {
    (*def.mutable_attr())["_no_task"].set_b(true);
    return llvm::Error::success();
  }

  om::TaskDef &task = addTask(om::KERNEL, def);
  task.set_engine(*engine);
  task.set_block_dim(static_cast<uint32_t>(blockDim));
  task.set_flops(floatAttr(op, kFlopsAttr));
  task.set_bytes(floatAttr(op, kBytesAttr));
  task.set_aicore_num(static_cast<uint32_t>(aicoreNum));
  task.set_vectorcore_num(static_cast<uint32_t>(vectorcoreNum));
  return llvm::Error::success();
}

llvm::Error OmEmitter::emitOutputs(const om::OpDef &net) {
  for (int k = 0; k < net.input_size(); ++k) {
    auto it = locations_.find(net.input(k));
    if (it == locations_.end())
      return makeError("graph output " + llvm::Twine(k) +
                       " is not produced by the graph");
    // Copied out on the producer's stream.
    om::TaskDef &task = addTask(om::MEMCPY_ASYNC, net);
    task.set_stream_id(it->second.stream);
    *task.mutable_src() = it->second.place;
    *task.mutable_dst() = memRef(om::MemRef::OUTPUT, k, 0);
    task.set_size(net.input_desc(k).size());
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
  llvm::Expected<GraphBuild> build = buildGraph(func_, modelName);
  if (!build)
    return build.takeError();

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
  // [one stream, labels only, chosen], from ge-assign-streams' `auto`.
  if (auto predicted = func_->getAttrOfType<DenseI64ArrayAttr>(
          GeDialect::kPredictedMakespanAttr);
      predicted && predicted.size() == 3) {
    attrs["predicted_makespan_single_stream_ns"].set_i(predicted[0]);
    attrs["predicted_makespan_ns"].set_i(predicted[2]);
  }
  // [bound, critical path, engine work, segments]
  // (passes/streams/LowerBound.h).
  if (auto bound =
          func_->getAttrOfType<DenseI64ArrayAttr>(GeDialect::kLowerBoundAttr);
      bound && bound.size() >= 3) {
    attrs["lower_bound_ns"].set_i(bound[0]);
    attrs["lower_bound_critical_path_ns"].set_i(bound[1]);
    attrs["lower_bound_engine_work_ns"].set_i(bound[2]);
    if (bound.size() >= 4)
      attrs["lower_bound_segments_ns"].set_i(bound[3]);
  }
  *modelDef.add_graph() = std::move(build->graph);
  reserveWeights(build->origin);

  for (int i = 0; i < graph().op_size(); ++i) {
    om::OpDef &def = *graph().mutable_op(i);
    llvm::Error err = llvm::Error::success();
    if (def.type() == om::kDataType)
      err = emitData(def);
    else if (def.type() == om::kConstType)
      err = emitConst(def, build->origin[i]);
    else if (def.type() == om::kSendType || def.type() == om::kRecvType)
      emitEvent(def);
    else if (def.type() == om::kNetOutputType)
      err = emitOutputs(def);
    else
      err = emitCompute(def, build->origin[i]);
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
  llvm::Expected<func::FuncOp> found = findModelFunction(module);
  if (!found)
    return found.takeError();
  func::FuncOp func = *found;
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
