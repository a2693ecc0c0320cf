//===- GearProgram.cpp - Kernels, tasks and IO of one compiled program ----===//

#include "executor/runner/GearProgram.h"
#include "executor/model/OmFormat.h"

#include <map>

namespace geflow::exec {

namespace {

// Op indices by name; the loader has checked every name.
using OpIndexByName = std::map<std::string, int>;

OpIndexByName indexOps(const om::GraphDef &g) {
  OpIndexByName byName;
  for (int i = 0; i < g.op_size(); ++i)
    byName[g.op(i).name()] = i;
  return byName;
}

/// "producer:k" -> (producer name, k). The loader has checked the form.
std::pair<std::string, int> splitRef(const std::string &ref) {
  size_t colon = ref.rfind(':');
  return {ref.substr(0, colon), std::stoi(ref.substr(colon + 1))};
}

rt::Engine toEngine(om::Engine e) {
  switch (e) {
  case om::AIC:
    return rt::Engine::kAic;
  case om::AIV:
    return rt::Engine::kAiv;
  case om::MIX:
    return rt::Engine::kMix;
  case om::DVPP:
    return rt::Engine::kDvpp;
  case om::AICPU:
  case om::HOST: // host kernels run where AICPU ones do in the simulation
  default:
    return rt::Engine::kAiCpu;
  }
}

TensorInfo infoOf(const std::string &name, const om::TensorDescriptor &d) {
  TensorInfo t;
  t.name = name;
  t.dtype = d.dtype();
  t.shape.assign(d.shape().begin(), d.shape().end());
  t.layout = d.layout();
  t.bytes = uint64_t(d.size());
  return t;
}

} // namespace

rt::Status GearProgram::create(const om::LoadedOm &om,
                               const KernelFactory &factory,
                               const std::string &modelName,
                               std::unique_ptr<GearProgram> *out) {
  std::unique_ptr<GearProgram> p(new GearProgram(om));
  p->describeInputsAndOutputs();
  GEFLOW_RT_RETURN_IF_ERROR(p->prepareKernels(factory, modelName));
  *out = std::move(p);
  return rt::Status::ok();
}

/// Inputs and outputs as the caller sees them.
void GearProgram::describeInputsAndOutputs() {
  const om::GraphDef &g = om_.graph();
  OpIndexByName byName = indexOps(g);
  for (const std::string &in : g.input())
    inputs_.push_back(infoOf(in, g.op(byName[in]).output_desc(0)));
  const om::OpDef *netOutput = nullptr;
  for (const om::OpDef &op : g.op())
    if (op.type() == om::kNetOutputType)
      netOutput = &op;
  std::vector<std::string> outputNames;
  if (netOutput) {
    auto it = netOutput->attr().find("output_names");
    if (it != netOutput->attr().end() &&
        it->second.value_case() == om::AttrDef::kList)
      outputNames.assign(it->second.list().s().begin(),
                         it->second.list().s().end());
  }
  for (int i = 0; i < g.output_size(); ++i) {
    auto [producer, k] = splitRef(g.output(i));
    std::string name = i < int(outputNames.size()) ? outputNames[i]
                       : k == 0                    ? producer
                                                   : g.output(i);
    outputs_.push_back(infoOf(name, g.op(byName[producer]).output_desc(k)));
  }
}

/// Kernels, once per op, in task order, with where each operand lives.
rt::Status GearProgram::prepareKernels(const KernelFactory &factory,
                                       const std::string &modelName) {
  const om::GraphDef &g = om_.graph();
  const om::ModelTaskDef &td = om_.taskDef();
  OpIndexByName byName = indexOps(g);
  // Where every op output lives.
  std::map<std::pair<int, int>, const om::TensorPlacement *> placed;
  for (const om::TensorPlacement &p : om_.memoryPlan().placement())
    placed[{int(p.op_index()), int(p.output_index())}] = &p;
  auto bindingOf = [&](int op, int k, const om::TensorDescriptor *desc) {
    TensorBinding b;
    b.desc = desc;
    const om::TensorPlacement *p = placed.at({op, k});
    b.where = p->location().kind() == om::MemRef::WEIGHT
                  ? TensorBinding::kWeight
                  : TensorBinding::kWorkspace;
    b.offset = uint64_t(p->location().offset());
    return b;
  };

  kernels_.resize(g.op_size());
  kernelTasks_.resize(td.task_size());
  for (int i = 0; i < td.task_size(); ++i) {
    const om::TaskDef &t = td.task(i);
    if (t.type() != om::KERNEL)
      continue;
    const om::OpDef &op = g.op(t.op_index());
    KernelTask &kt = kernelTasks_[i];
    std::vector<const void *> constants;
    std::vector<uint64_t> constantBytes; // per input, 0 unless a constant
    int j = 0;
    for (const std::string &in : op.input()) {
      if (!in.empty() && in[0] == '^')
        continue;
      const om::TensorDescriptor *desc = &op.input_desc(j++);
      if (in.empty()) {
        TensorBinding absent;
        absent.desc = desc;
        kt.bindings.push_back(absent);
        constants.push_back(nullptr);
        constantBytes.push_back(0);
        continue;
      }
      auto [producer, k] = splitRef(in);
      int p = byName[producer];
      kt.bindings.push_back(bindingOf(p, k, desc));
      const om::OpDef &pop = g.op(p);
      const bool constant = pop.type() == om::kConstType;
      constants.push_back(constant ? om_.weights() +
                                         pop.attr().at("weight_offset").i()
                                   : nullptr);
      constantBytes.push_back(constant ? pop.attr().at("weight_size").i() : 0);
    }
    kt.numInputs = kt.bindings.size();
    for (int k = 0; k < op.output_desc_size(); ++k)
      kt.bindings.push_back(
          bindingOf(int(t.op_index()), k, &op.output_desc(k)));
    if (!kernels_[t.op_index()]) {
      kernels::KernelSpec spec;
      spec.op = &op;
      spec.constantInputs = std::move(constants);
      rt::Status st = factory(spec, &kernels_[t.op_index()]);
      if (!st.isOk())
        return rt::makeStatus(st.code(), modelName + ": " + st.message());
      if (!kernels_[t.op_index()])
        return rt::makeStatus(rt::StatusCode::kInternal,
                              modelName + ": node '" + op.name() + "' (" +
                                  op.type() +
                                  "): kernel factory returned no kernel");
      // Weights the kernel packed and will not read again leave memory now,
      // before the next kernel packs its own: as stored and packed, a
      // model's weights were in memory twice (ViT-B/16: 754 MB at the
      // peak). A second reader, if any, brings them back from the file.
      const kernels::Kernel &kernel = *kernels_[t.op_index()];
      for (size_t in = 0; in < constantBytes.size(); ++in)
        if (constantBytes[in] && !kernel.readsConstantAtRun(in))
          om_.dropWeightPages(
              static_cast<const uint8_t *>(spec.constantInputs[in]) -
                  om_.weights(),
              constantBytes[in]);
    }
    kt.kernel = kernels_[t.op_index()].get();
    kt.launch.name = op.name();
    kt.launch.opType = op.type();
    kt.launch.engine = toEngine(t.engine());
    kt.launch.blockDim = t.block_dim();
    kt.launch.cost = {t.flops(), t.bytes()};
    kt.launch.aicoreNum = t.aicore_num();
    kt.launch.vectorcoreNum = t.vectorcore_num();
    kt.viewBase = viewCount_;
    viewCount_ += kt.bindings.size();
  }
  return rt::Status::ok();
}

} // namespace geflow::exec
