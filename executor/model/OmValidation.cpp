//===- OmValidation.cpp - Every index and offset inside the partitions ----===//
//
// The loader trusts nothing: after the container checks (OmReader.cpp) this
// walks the graph, the tasks and the memory plan, so the executor can index
// without checking. Each failure is one line naming the task, op or placement.
//
//===----------------------------------------------------------------------===//

#include "executor/model/OmFormat.h"
#include "executor/model/OmGearValidation.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace geflow::om {
namespace {

/// Names come from the file: keep a message on one line whatever they hold.
std::string clean(const std::string &s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c != 0x7f) {
      out += char(c);
    } else {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

/// "1e+300", "48", "inf": a cost as a person reads it.
std::string shortNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

/// Where a check looks ("op 7 'conv' (Conv2D): input 1"), formatted only
/// when a message needs it: formatting it for every op, input and placement
/// of a 100k-op graph cost more than the checks themselves.
class Where {
public:
  Where(std::string text) : text_(std::move(text)) {}
  Where(const char *text) : text_(text) {}
  template <typename Format,
            typename = decltype(std::string(std::declval<Format &>()()))>
  Where(const Format &format)
      : context_(&format), format_([](const void *context) {
          return std::string((*static_cast<const Format *>(context))());
        }) {}

  std::string str() const { return format_ ? format_(context_) : text_; }
  friend std::string operator+(const Where &where, const std::string &rest) {
    return where.str() + rest;
  }
  friend std::string operator+(const Where &where, const char *rest) {
    return where.str() + rest;
  }

private:
  std::string text_;
  const void *context_ = nullptr;
  std::string (*format_)(const void *) = nullptr;
};

class Validator {
public:
  Validator(const ModelDef &m, const ModelTaskDef &t, const MemoryPlan &mem,
            uint64_t weightsSize, const std::string &src,
            const OmLimits &limits, int graphIndex = -1)
      : model_(m), tasks_(t), mem_(mem), weightsSize_(weightsSize), src_(src),
        limits_(limits), graphIndex_(graphIndex) {}

  rt::Status run() {
    GEFLOW_RT_RETURN_IF_ERROR(checkLimits());
    GEFLOW_RT_RETURN_IF_ERROR(checkGraph());
    GEFLOW_RT_RETURN_IF_ERROR(checkDescriptors());
    GEFLOW_RT_RETURN_IF_ERROR(checkMemory());
    return checkTasks();
  }

private:
  rt::Status bad(const std::string &msg) const {
    return rt::makeStatus(rt::StatusCode::kInvalidSpec, src_ + ": " + msg);
  }
  /// Marks output `output` of op `op` (both in range) placed; false if it
  /// already was.
  bool place(uint32_t op, uint32_t output) {
    if (firstOutput_.empty()) {
      const GraphDef &g = *graph_;
      firstOutput_.resize(g.op_size() + 1);
      for (int i = 0; i < g.op_size(); ++i)
        firstOutput_[i + 1] = firstOutput_[i] + g.op(i).output_desc_size();
      placed_.assign(firstOutput_.back(), false);
    }
    std::vector<bool>::reference slot = placed_[firstOutput_[op] + output];
    bool was = slot;
    slot = true;
    return !was;
  }
  bool isPlaced(uint32_t op, uint32_t output) const {
    return !placed_.empty() && placed_[firstOutput_[op] + output];
  }
  std::string opRef(int i) const {
    const OpDef &op = graph_->op(i);
    return "op " + std::to_string(i) + " '" + clean(op.name()) + "' (" +
           clean(op.type()) + ")";
  }

  static bool intAttr(const OpDef &op, const char *name, int64_t *v) {
    auto it = op.attr().find(name);
    if (it == op.attr().end() || it->second.value_case() != AttrDef::kI)
      return false;
    *v = it->second.i();
    return true;
  }

  /// Resolves "producer:k" to (op index, k). Empty string = absent input.
  rt::Status resolve(const std::string &ref, const Where &where, int *op,
                     int *k) const {
    size_t colon = ref.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == ref.size())
      return bad(where + ": input reference '" + clean(ref) +
                 "' is not of the form 'producer:k'");
    std::string_view name = std::string_view(ref).substr(0, colon),
                     idx = std::string_view(ref).substr(colon + 1);
    for (char c : idx)
      if (c < '0' || c > '9')
        return bad(where + ": input reference '" + clean(ref) +
                   "' has a non-numeric output index");
    auto it = byName_.find(name);
    if (it == byName_.end())
      return bad(where + ": input '" + clean(ref) +
                 "' names no op of the graph");
    if (idx.size() > 9)
      return bad(where + ": input '" + clean(ref) +
                 "': output index out of range");
    *op = it->second;
    *k = 0; // at most 9 digits, checked above
    for (char c : idx)
      *k = *k * 10 + (c - '0');
    int outs = graph_->op(*op).output_desc_size();
    if (*k >= outs)
      return bad(where + ": input '" + clean(ref) + "': output " +
                 std::to_string(*k) + " out of range ('" +
                 clean(std::string(name)) + "' has " + std::to_string(outs) +
                 " outputs)");
    return rt::Status::ok();
  }

  /// The declared sizes that decide allocations, before anything else.
  rt::Status checkLimits() const {
    auto over = [&](const std::string &what, uint64_t limit, const char *flag) {
      return bad(what + ", over the limit of " + std::to_string(limit) + " (" +
                 flag + ")");
    };
    if (mem_.workspace_size() > limits_.maxWorkspaceBytes)
      return over("MEMORY plans a workspace of " +
                      std::to_string(mem_.workspace_size()) + " bytes",
                  limits_.maxWorkspaceBytes, "--max-workspace-bytes");
    for (const GraphDef &g : model_.graph())
      if (uint64_t(g.op_size()) > limits_.maxOps)
        return over("the graph has " + std::to_string(g.op_size()) + " ops",
                    limits_.maxOps, "--max-nodes");
    // An event nobody records is never waited for; more events than tasks
    // can only be a damaged count, which the runtime would allocate.
    if (tasks_.event_num() > uint64_t(tasks_.task_size()))
      return bad("TASK_INFO has event_num " +
                 std::to_string(tasks_.event_num()) + " but only " +
                 std::to_string(tasks_.task_size()) + " tasks");
    return rt::Status::ok();
  }

  /// Every descriptor's type and shape describe at most `size` bytes, so a
  /// kernel that walks the shape stays inside the buffer.
  rt::Status checkDescriptor(const TensorDescriptor &d,
                             const Where &where) const {
    // An absent optional input keeps its place with an empty descriptor.
    if (d.dtype() == DT_UNDEFINED && d.shape_size() == 0 && d.size() == 0)
      return rt::Status::ok();
    size_t width = dataTypeBytes(d.dtype());
    if (width == 0)
      return bad(where + ": unknown data type " + std::to_string(d.dtype()));
    uint64_t bytes = width;
    for (int i = 0; i < d.shape_size(); ++i) {
      if (d.shape(i) < 0)
        return bad(where + ": dim " + std::to_string(i) + " is " +
                   std::to_string(d.shape(i)));
      if (__builtin_mul_overflow(bytes, uint64_t(d.shape(i)), &bytes))
        return bad(
            where + ": shape of more than 2^64 bytes, over the limit of " +
            std::to_string(limits_.maxTensorBytes) + " (--max-tensor-bytes)");
    }
    if (bytes > limits_.maxTensorBytes)
      return bad(
          where + ": " + std::to_string(bytes) + " bytes, over the limit of " +
          std::to_string(limits_.maxTensorBytes) + " (--max-tensor-bytes)");
    if (d.size() < 0 || uint64_t(d.size()) < bytes)
      return bad(where + ": size " + std::to_string(d.size()) +
                 " is less than its shape's " + std::to_string(bytes) +
                 " bytes");
    return rt::Status::ok();
  }

  rt::Status checkDescriptors() const {
    const GraphDef &g = *graph_;
    for (int i = 0; i < g.op_size(); ++i) {
      const OpDef &op = g.op(i);
      for (int k = 0; k < op.input_desc_size(); ++k)
        GEFLOW_RT_RETURN_IF_ERROR(checkDescriptor(op.input_desc(k), [&] {
          return opRef(i) + ": input " + std::to_string(k);
        }));
      for (int k = 0; k < op.output_desc_size(); ++k)
        GEFLOW_RT_RETURN_IF_ERROR(checkDescriptor(op.output_desc(k), [&] {
          return opRef(i) + ": output " + std::to_string(k);
        }));
    }
    return rt::Status::ok();
  }

  rt::Status checkGraph() {
    if (graphIndex_ < 0 && model_.graph_size() != 1)
      return bad("MODEL_DEF has " + std::to_string(model_.graph_size()) +
                 " graphs (expected 1)");
    graph_ = &model_.graph(std::max(graphIndex_, 0));
    const GraphDef &g = *graph_;
    GEFLOW_RT_RETURN_IF_ERROR(indexOpNames());
    int netOutputs = 0;
    std::set<int64_t> dataIndices;
    for (int i = 0; i < g.op_size(); ++i) {
      const OpDef &op = g.op(i);
      auto format = [&] { return opRef(i); };
      const Where where(format);
      GEFLOW_RT_RETURN_IF_ERROR(checkOpEdges(op, where));
      if (op.type() == kDataType) {
        GEFLOW_RT_RETURN_IF_ERROR(checkDataOp(op, where, dataIndices));
      } else if (op.type() == kConstType) {
        GEFLOW_RT_RETURN_IF_ERROR(checkConstOp(op, where));
      } else if (op.type() == kSendType || op.type() == kRecvType) {
        GEFLOW_RT_RETURN_IF_ERROR(checkEventOp(op, where));
      } else if (op.type() == kNetOutputType) {
        ++netOutputs;
      }
    }
    if (netOutputs != 1)
      return bad("graph has " + std::to_string(netOutputs) +
                 " NetOutput ops (expected 1)");
    return checkGraphInputsAndOutputs();
  }

  /// byName_: every op has a name, and no two the same.
  rt::Status indexOpNames() {
    const GraphDef &g = *graph_;
    byName_.reserve(g.op_size());
    for (int i = 0; i < g.op_size(); ++i) {
      const OpDef &op = g.op(i);
      if (op.name().empty())
        return bad("op " + std::to_string(i) + " (" + clean(op.type()) +
                   ") has no name");
      if (!byName_.emplace(op.name(), i).second)
        return bad(opRef(i) + ": duplicate op name");
    }
    return rt::Status::ok();
  }

  /// Inputs resolve (data inputs first, then control inputs), one input
  /// descriptor per data input, and no output of negative size.
  rt::Status checkOpEdges(const OpDef &op, const Where &where) const {
    int dataInputs = 0;
    bool sawControl = false;
    for (const std::string &in : op.input()) {
      if (!in.empty() && in[0] == '^') {
        if (!byName_.count(std::string_view(in).substr(1)))
          return bad(where + ": control input '" + clean(in) +
                     "' names no op of the graph");
        sawControl = true;
        continue;
      }
      if (sawControl)
        return bad(where + ": data input '" + clean(in) +
                   "' after a control input");
      ++dataInputs;
      if (in.empty())
        continue; // absent optional input
      int p, k;
      GEFLOW_RT_RETURN_IF_ERROR(resolve(in, where, &p, &k));
    }
    if (op.type() != kNetOutputType && dataInputs != op.input_desc_size())
      return bad(where + ": " + std::to_string(dataInputs) +
                 " data inputs but " + std::to_string(op.input_desc_size()) +
                 " input descriptors");
    for (int k = 0; k < op.output_desc_size(); ++k)
      if (op.output_desc(k).size() < 0)
        return bad(where + ": output " + std::to_string(k) +
                   " has a negative size");
    return rt::Status::ok();
  }

  rt::Status checkDataOp(const OpDef &op, const Where &where,
                         std::set<int64_t> &dataIndices) const {
    const GraphDef &g = *graph_;
    int64_t v;
    if (!intAttr(op, "index", &v))
      return bad(where + ": missing int attr 'index'");
    if (v < 0 || v >= g.input_size())
      return bad(where + ": index " + std::to_string(v) +
                 " out of range (graph has " + std::to_string(g.input_size()) +
                 " inputs)");
    if (!dataIndices.insert(v).second)
      return bad(where + ": index " + std::to_string(v) +
                 " used by two Data ops");
    if (op.output_desc_size() != 1)
      return bad(where + ": Data needs exactly 1 output descriptor");
    return rt::Status::ok();
  }

  rt::Status checkConstOp(const OpDef &op, const Where &where) const {
    int64_t off, size;
    if (!intAttr(op, "weight_offset", &off) ||
        !intAttr(op, "weight_size", &size))
      return bad(where + ": missing int attr 'weight_offset' or 'weight_size'");
    if (off < 0 || size < 0 || uint64_t(off) > weightsSize_ ||
        uint64_t(size) > weightsSize_ - uint64_t(off))
      return bad(where + ": weights [" + std::to_string(off) + ", +" +
                 std::to_string(size) + ") outside WEIGHTS (" +
                 std::to_string(weightsSize_) + " bytes)");
    if (off % int64_t(kWeightAlignment) != 0)
      return bad(where + ": weight_offset " + std::to_string(off) + " is not " +
                 std::to_string(kWeightAlignment) + "-byte aligned");
    if (op.output_desc_size() != 1)
      return bad(where + ": Const needs exactly 1 output descriptor");
    if (op.output_desc(0).size() > size)
      return bad(where + ": output descriptor says " +
                 std::to_string(op.output_desc(0).size()) +
                 " bytes but weight_size is " + std::to_string(size));
    return rt::Status::ok();
  }

  /// Send and Recv name one of the model's events.
  rt::Status checkEventOp(const OpDef &op, const Where &where) const {
    int64_t v;
    if (!intAttr(op, "event_id", &v))
      return bad(where + ": missing int attr 'event_id'");
    if (v < 0 || uint64_t(v) >= tasks_.event_num())
      return bad(where + ": event_id " + std::to_string(v) +
                 " out of range (model has " +
                 std::to_string(tasks_.event_num()) + " events)");
    return rt::Status::ok();
  }

  /// Graph input i is the Data op of index i; outputs resolve. Records their
  /// sizes for the INPUT / OUTPUT MemRefs.
  rt::Status checkGraphInputsAndOutputs() {
    const GraphDef &g = *graph_;
    for (int i = 0; i < g.input_size(); ++i) {
      auto it = byName_.find(g.input(i));
      if (it == byName_.end() || g.op(it->second).type() != kDataType)
        return bad("graph input " + std::to_string(i) + " '" +
                   clean(g.input(i)) + "' is not a Data op");
      int64_t v = -1;
      intAttr(g.op(it->second), "index", &v);
      if (v != i)
        return bad("graph input " + std::to_string(i) + " '" +
                   clean(g.input(i)) + "' has index " + std::to_string(v));
      inputBytes_.push_back(g.op(it->second).output_desc(0).size());
    }
    for (int i = 0; i < g.output_size(); ++i) {
      int p, k;
      GEFLOW_RT_RETURN_IF_ERROR(
          resolve(g.output(i), "graph output " + std::to_string(i), &p, &k));
      outputBytes_.push_back(g.op(p).output_desc(k).size());
    }
    return rt::Status::ok();
  }

  rt::Status checkMemRef(const MemRef &m, uint64_t size, bool isDst,
                         const Where &where) const {
    const char *kinds[] = {"WORKSPACE", "INPUT", "OUTPUT", "WEIGHT"};
    if (m.kind() < MemRef::WORKSPACE || m.kind() > MemRef::WEIGHT)
      return bad(where + ": unknown MemRef kind " + std::to_string(m.kind()));
    std::string kind = kinds[m.kind()];
    if (m.offset() < 0)
      return bad(where + ": " + kind + " offset " + std::to_string(m.offset()) +
                 " is negative");
    uint64_t limit = 0;
    switch (m.kind()) {
    case MemRef::WORKSPACE:
      limit = mem_.workspace_size();
      break;
    case MemRef::WEIGHT:
      limit = weightsSize_;
      break;
    case MemRef::INPUT:
    case MemRef::OUTPUT: {
      const auto &bytes =
          m.kind() == MemRef::INPUT ? inputBytes_ : outputBytes_;
      if (m.index() < 0 || uint64_t(m.index()) >= bytes.size())
        return bad(where + ": " + kind + " index " + std::to_string(m.index()) +
                   " out of range (model has " + std::to_string(bytes.size()) +
                   (m.kind() == MemRef::INPUT ? " inputs)" : " outputs)"));
      limit = uint64_t(bytes[m.index()]);
      kind += " " + std::to_string(m.index());
      break;
    }
    default:
      break;
    }
    if (isDst && (m.kind() == MemRef::INPUT || m.kind() == MemRef::WEIGHT))
      return bad(where + ": destination " + kind + " is read-only");
    uint64_t off = uint64_t(m.offset());
    if (off > limit || size > limit - off)
      return bad(where + ": " + kind + " range [" + std::to_string(off) +
                 ", +" + std::to_string(size) + ") outside its " +
                 std::to_string(limit) + " bytes");
    return rt::Status::ok();
  }

  rt::Status checkMemory() {
    const GraphDef &g = *graph_;
    for (int i = 0; i < mem_.placement_size(); ++i) {
      const TensorPlacement &p = mem_.placement(i);
      if (p.op_index() >= uint32_t(g.op_size()))
        return bad("placement " + std::to_string(i) + ": op_index " +
                   std::to_string(p.op_index()) + " out of range (model has " +
                   std::to_string(g.op_size()) + " ops)");
      const OpDef &op = g.op(p.op_index());
      auto format = [&] {
        return "placement " + std::to_string(i) + " (" + opRef(p.op_index()) +
               ")";
      };
      const Where where(format);
      if (p.output_index() >= uint32_t(op.output_desc_size()))
        return bad(where + ": output_index " +
                   std::to_string(p.output_index()) + " out of range (op has " +
                   std::to_string(op.output_desc_size()) + " outputs)");
      if (p.location().kind() != MemRef::WORKSPACE &&
          p.location().kind() != MemRef::WEIGHT)
        return bad(where + ": location must be WORKSPACE or WEIGHT");
      int64_t need = op.output_desc(p.output_index()).size();
      if (p.size() < uint64_t(need))
        return bad(where + ": size " + std::to_string(p.size()) +
                   " smaller than the output's " + std::to_string(need) +
                   " bytes");
      GEFLOW_RT_RETURN_IF_ERROR(
          checkMemRef(p.location(), p.size(), false, where));
      if (p.location().kind() == MemRef::WEIGHT &&
          p.location().offset() % int64_t(kWeightAlignment) != 0)
        return bad(where + ": WEIGHT offset " +
                   std::to_string(p.location().offset()) + " is not " +
                   std::to_string(kWeightAlignment) + "-byte aligned");
      if (!place(p.op_index(), p.output_index()))
        return bad(where + ": output " + std::to_string(p.output_index()) +
                   " placed twice");
    }
    // Every output a kernel or the graph result reads has a home.
    for (int i = 0; i < g.op_size(); ++i) {
      const OpDef &op = g.op(i);
      if (isStructuralOpType(op.type()) && op.type() != kNetOutputType)
        continue;
      for (const std::string &in : op.input()) {
        if (in.empty() || in[0] == '^')
          continue;
        int p, k;
        GEFLOW_RT_RETURN_IF_ERROR(
            resolve(in, [&] { return opRef(i); }, &p, &k));
        if (!isPlaced(uint32_t(p), uint32_t(k)))
          return bad(opRef(i) + ": input '" + clean(in) +
                     "' has no placement in MEMORY");
      }
    }
    return rt::Status::ok();
  }

  rt::Status checkTasks() {
    const GraphDef &g = *graph_;
    const uint32_t streams = tasks_.stream_num(), events = tasks_.event_num();
    if (streams == 0)
      return bad("TASK_INFO has stream_num 0");
    if (uint32_t(tasks_.stream_priority_size()) != streams)
      return bad(
          "TASK_INFO has " + std::to_string(tasks_.stream_priority_size()) +
          " stream priorities for " + std::to_string(streams) + " streams");
    std::vector<bool> recorded(events, false);
    for (int i = 0; i < tasks_.task_size(); ++i) {
      const TaskDef &t = tasks_.task(i);
      auto format = [&] { return "task " + std::to_string(i); };
      const Where where(format);
      if (t.stream_id() >= streams)
        return bad(where + ": stream_id " + std::to_string(t.stream_id()) +
                   " out of range (model has " + std::to_string(streams) +
                   " streams)");
      switch (t.type()) {
      case KERNEL: {
        if (t.op_index() >= uint32_t(g.op_size()))
          return bad(where + ": op_index " + std::to_string(t.op_index()) +
                     " out of range (model has " + std::to_string(g.op_size()) +
                     " ops)");
        const OpDef &op = g.op(t.op_index());
        if (isStructuralOpType(op.type()))
          return bad(where + ": KERNEL on " + opRef(t.op_index()) +
                     ", which is not a compute op");
        if (t.block_dim() < 1 || t.block_dim() > kMaxBlockDim)
          return bad(where + ": block_dim " + std::to_string(t.block_dim()) +
                     " (must be 1.." + std::to_string(kMaxBlockDim) + ")");
        if (t.engine() < AIC || t.engine() > HOST)
          return bad(where + ": unknown engine " + std::to_string(t.engine()));
        // NaN fails both comparisons; the cap keeps simulated times in int64.
        if (!(t.flops() >= 0 && t.flops() <= kMaxTaskCost) ||
            !(t.bytes() >= 0 && t.bytes() <= kMaxTaskCost))
          return bad(where + ": cost of " + shortNumber(t.flops()) +
                     " flops, " + shortNumber(t.bytes()) +
                     " bytes outside 0..1e18");
        for (int k = 0; k < op.output_desc_size(); ++k)
          if (!isPlaced(t.op_index(), uint32_t(k)))
            return bad(where + ": output " + std::to_string(k) + " of " +
                       opRef(t.op_index()) + " has no placement in MEMORY");
        break;
      }
      case EVENT_RECORD:
      case EVENT_WAIT:
        if (t.event_id() >= events)
          return bad(where + ": event_id " + std::to_string(t.event_id()) +
                     " out of range (model has " + std::to_string(events) +
                     " events)");
        if (t.type() == EVENT_RECORD)
          recorded[t.event_id()] = true;
        else if (!recorded[t.event_id()])
          return bad(where + ": EVENT_WAIT on event " +
                     std::to_string(t.event_id()) +
                     " before any EVENT_RECORD of it");
        break;
      case MEMCPY_ASYNC:
        GEFLOW_RT_RETURN_IF_ERROR(checkMemRef(t.src(), t.size(), false,
                                              [&] { return where + ": src"; }));
        GEFLOW_RT_RETURN_IF_ERROR(checkMemRef(t.dst(), t.size(), true,
                                              [&] { return where + ": dst"; }));
        break;
      default:
        return bad(where + ": unknown task type " + std::to_string(t.type()));
      }
    }
    return rt::Status::ok();
  }

  const ModelDef &model_;
  const ModelTaskDef &tasks_;
  const MemoryPlan &mem_;
  const uint64_t weightsSize_;
  const std::string &src_;
  const OmLimits &limits_;
  /// A gear's graph (OmGearValidation.cpp); -1: the only one.
  const int graphIndex_;
  const GraphDef *graph_ = nullptr;
  // Keys point into the graph's op names, which outlive the validator.
  std::unordered_map<std::string_view, int> byName_;
  std::vector<int64_t> inputBytes_, outputBytes_;
  /// The placed outputs: output k of op i is bit firstOutput_[i] + k (a
  /// bitmap, not a hash set: a 100k-op graph has 100k outputs).
  std::vector<uint32_t> firstOutput_;
  std::vector<bool> placed_;
};

} // namespace

rt::Status validateOmModel(const ModelDef &modelDef, const ModelTaskDef &tasks,
                           const MemoryPlan &memory, uint64_t weightsSize,
                           const std::string &sourceName,
                           const OmLimits &limits) {
  if (modelDef.gears().mode() == GearTable::RUNTIME_SHAPES)
    return validateRuntimeShapesModel(modelDef, tasks, memory, weightsSize,
                                      sourceName, limits);
  if (hasGearSections(modelDef, tasks, memory))
    return validateGears(modelDef, tasks, memory, weightsSize, sourceName,
                         limits);
  return Validator(modelDef, tasks, memory, weightsSize, sourceName, limits)
      .run();
}

rt::Status validateGearProgram(const ModelDef &modelDef, int gear,
                               const ModelTaskDef &tasks,
                               const MemoryPlan &memory, uint64_t weightsSize,
                               const std::string &sourceName,
                               const OmLimits &limits) {
  return Validator(modelDef, tasks, memory, weightsSize, sourceName, limits,
                   gear)
      .run();
}

} // namespace geflow::om
