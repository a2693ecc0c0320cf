//===- RuntimeShapesModel.cpp - running a RUNTIME_SHAPES OM ---------------===//

#include "tools/driver/RuntimeShapesModel.h"
#include "tools/driver/CompileDriver.h"
#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/RuntimeShapesControlFlow.h"
#include "tools/driver/ShapeOperands.h"

#include "executor/model/OmFormat.h"
#include "executor/runner/DeviceTarget.h"

#include "frontends/onnx/ModelLoader.h"
#include "runtime/Device.h"
#include "runtime/Stream.h"

using namespace geflow;
using namespace geflow::driver;

namespace {

using Clock = std::chrono::steady_clock;

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

exec::TensorInfo infoOf(const std::string &name,
                        const om::TensorDescriptor &desc) {
  exec::TensorInfo info;
  info.name = name;
  info.dtype = desc.dtype();
  info.shape.assign(desc.shape().begin(), desc.shape().end());
  info.layout = desc.layout();
  return info;
}

/// "float32[-1,3]" with "?" for an unknown rank.
std::string describeDeclared(const exec::TensorInfo &info) {
  if (info.shape.size() == 1 && info.shape[0] == -2)
    return cli::describe(info.dtype, {}) + "?";
  return cli::describe(info.dtype, info.shape);
}

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

} // namespace

RuntimeShapesModel::RuntimeShapesModel(rt::Device &device,
                                       std::unique_ptr<om::LoadedOm> om,
                                       const RuntimeShapesOptions &options)
    : device_(device), om_(std::move(om)), options_(options) {}

RuntimeShapesModel::~RuntimeShapesModel() {
  lru_.clear(); // the stages' streams go first
  if (stream_) {
    (void)device_.synchronizeStream(stream_);
    (void)device_.destroyStream(stream_);
  }
}

llvm::Expected<std::unique_ptr<RuntimeShapesModel>>
RuntimeShapesModel::create(rt::Device &device, std::unique_ptr<om::LoadedOm> om,
                           const RuntimeShapesOptions &options) {
  if (!hasRuntimeShapes(om->modelDef()))
    return makeError("'" + om->modelDef().name() +
                     "' is not a model with run-time shapes");
  std::unique_ptr<RuntimeShapesModel> model(
      new RuntimeShapesModel(device, std::move(om), options));
  const om::ModelDef &def = model->om_->modelDef();
  if (!model->source_.ParseFromString(def.source_model()))
    return makeError("'" + def.name() + "': source_model is not an ONNX model");
  model->planner_ = std::make_unique<StagePlanner>(model->source_);
  model->ifs_ =
      std::make_unique<IfBranches>(device, *model->om_, *model->planner_);
  model->compileOptions_ = stageCompileOptions(def, model->om_->socName());
  if (auto cap = def.attr().find("rs.max_data_dependent_bytes");
      cap != def.attr().end() && cap->second.i() > 0)
    model->maxDataDependentBytes_ = static_cast<uint64_t>(cap->second.i());
  const om::GraphDef &g = def.graph(0);
  for (const om::OpDef &op : g.op()) {
    if (op.type() == om::kDataType)
      model->inputs_.push_back(infoOf(op.name(), op.output_desc(0)));
    if (op.type() != om::kNetOutputType)
      continue;
    auto names = op.attr().find("output_names");
    for (int k = 0; k < op.input_desc_size(); ++k)
      model->outputs_.push_back(
          infoOf(names == op.attr().end() ? "" : names->second.list().s(k),
                 op.input_desc(k)));
  }
  return model;
}

std::vector<rt::StreamId> RuntimeShapesModel::streamIds() const {
  std::vector<rt::StreamId> ids;
  for (const auto &stage : lastStages_)
    for (rt::StreamId id : stage->model->streamIds())
      ids.push_back(id);
  if (stream_)
    ids.push_back(stream_->id());
  return ids;
}

llvm::Error RuntimeShapesModel::checkInputs(
    const std::vector<cli::HostTensor> &inputs) const {
  if (inputs.size() != inputs_.size())
    return makeError("'" + name() + "' takes " +
                     std::to_string(inputs_.size()) + " inputs, given " +
                     std::to_string(inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const exec::TensorInfo &want = inputs_[i];
    const cli::HostTensor &got = inputs[i];
    bool unknownRank = want.shape.size() == 1 && want.shape[0] == -2;
    bool fits = got.dtype == want.dtype &&
                (unknownRank || got.shape.size() == want.shape.size());
    for (size_t d = 0; fits && !unknownRank && d < got.shape.size(); ++d)
      fits = want.shape[d] < 0 || want.shape[d] == got.shape[d];
    std::optional<uint64_t> bytes = got.byteSize();
    if (!fits || !bytes || *bytes != got.bytes.size())
      return makeError("input '" + want.name + "': the model takes " +
                       describeDeclared(want) + ", given " +
                       cli::describe(got.dtype, got.shape));
  }
  return llvm::Error::success();
}

bool RuntimeShapesModel::outputsKnown(const KnownTensors &known) const {
  return std::all_of(
      outputs_.begin(), outputs_.end(), [&](const exec::TensorInfo &output) {
        return known.count(output.name) || planner_->isInitializer(output.name);
      });
}

llvm::Error
RuntimeShapesModel::execute(const std::vector<cli::HostTensor> &inputs,
                            std::vector<cli::HostTensor> *outputs,
                            RuntimeShapesStats *statsOut) {
  std::lock_guard<std::mutex> lock(mu_);
  RuntimeShapesStats stats;
  lastStages_.clear();
  if (llvm::Error error = checkInputs(inputs))
    return error;
  KnownTensors known;
  for (size_t i = 0; i < inputs.size(); ++i) {
    known[inputs_[i].name] = inputs[i];
    known[inputs_[i].name].name = inputs_[i].name;
  }
  const onnx::GraphProto &graph = source_.graph();
  std::vector<bool> done(graph.node_size(), false);
  while (!outputsKnown(known)) {
    Clock::time_point start = Clock::now();
    StagePlan widest = planner_->widestStage(done, known);
    int compiledBefore = stats.stagesCompiled;
    if (!widest.nodes.empty()) {
      auto stage = stageFor(widest, done, known, stats);
      if (!stage)
        return stage.takeError();
      stats.hostShapeMs += msSince(start);
      stats.hostSpans.push_back(
          {(stats.stagesCompiled > compiledBefore ? "compile stage "
                                                  : "plan stage (cached) ") +
               std::to_string(stats.stagesRun + 1),
           start, Clock::now()});
      if (llvm::Error error = runStage(**stage, known, stats))
        return error;
      if ((*stage)->model)
        lastStages_.push_back(*stage);
      for (int n : (*stage)->plan.nodes)
        done[n] = true;
      continue;
    }
    // No stage can grow: the data-dependent ops whose inputs are known run,
    // all of them, so that independent ones (a detector's per-class
    // NonZeros) do not each cut the stages after them.
    std::vector<int> ready;
    for (int i = 0; i < graph.node_size(); ++i)
      if (!done[i] && isDataDependentOnnxOp(graph.node(i).op_type()) &&
          std::all_of(graph.node(i).input().begin(),
                      graph.node(i).input().end(), [&](const std::string &in) {
                        return in.empty() || known.count(in) ||
                               planner_->isInitializer(in);
                      }))
        ready.push_back(i);
    if (int n = ready.empty() ? ifs_->readyNode(done, known) : -1; n >= 0) {
      if (llvm::Error error = ifs_->run(n, known, stats))
        return error;
      done[n] = true;
      continue;
    }
    if (ready.empty()) {
      auto first = std::find(done.begin(), done.end(), false);
      int index = static_cast<int>(first - done.begin());
      if (first == done.end())
        return makeError("'" + name() + "': a graph output is never computed");
      return makeError(onnxfe::describeNode(graph.node(index),
                                            onnxfe::getDefaultOpset(source_),
                                            index) +
                       ": its inputs are never computed");
    }
    for (int next : ready) {
      if (llvm::Error error = runDataDependent(next, known, stats))
        return error;
      done[next] = true;
    }
  }

  outputs->clear();
  for (const exec::TensorInfo &output : outputs_) {
    if (auto it = known.find(output.name); it != known.end()) {
      outputs->push_back(it->second);
    } else {
      auto value = cli::fromTensorProto(planner_->initializer(output.name),
                                        "initializer '" + output.name + "'");
      if (!value)
        return value.takeError();
      outputs->push_back(std::move(*value));
    }
    outputs->back().name = output.name;
  }
  if (statsOut)
    *statsOut = std::move(stats);
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<RuntimeShapesModel::CompiledStage>>
RuntimeShapesModel::stageFor(const StagePlan &widest,
                             const std::vector<bool> &done,
                             const KnownTensors &known,
                             RuntimeShapesStats &stats) {
  std::string key = planner_->cacheKey(widest, known);
  if (auto it = cache_.find(key); it != cache_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    ++stats.cacheHits;
    return it->second->second;
  }
  auto compiled = compileStage(widest, done, known);
  if (!compiled)
    return compiled.takeError();
  ++stats.stagesCompiled;
  lru_.emplace_front(key, std::move(*compiled));
  cache_[key] = lru_.begin();
  while (lru_.size() > std::max<size_t>(1, options_.cacheCapacity)) {
    cache_.erase(lru_.back().first);
    lru_.pop_back();
  }
  return lru_.front().second;
}

llvm::Expected<std::unique_ptr<RuntimeShapesModel::CompiledStage>>
RuntimeShapesModel::compileStage(StagePlan plan, const std::vector<bool> &done,
                                 const KnownTensors &known) {
  CompileOptions options;
  static_cast<passes::CompileOptions &>(options) = compileOptions_;
  std::string stageName = name() + "_stage" + std::to_string(++compiledCount_);
  options.modelName = stageName;
  auto stage = std::make_unique<CompiledStage>();
  llvm::Expected<CompileResult> result = makeError("no outputs");
  if (!plan.outputs.empty())
    result =
        compileOnnxModel(planner_->buildModel(plan, known), stageName, options);
  if (!plan.outputs.empty() && !result) {
    // Some output shapes wait for values this stage computes: run the part
    // libonnx can infer now, and bind what it computes into the next.
    std::string message = llvm::toString(result.takeError());
    if (!isShapeNotStaticError(message))
      return makeError(message);
    auto nodes = planner_->inferableNodes(plan, known);
    if (!nodes)
      return nodes.takeError();
    if (nodes->empty() || nodes->size() == plan.nodes.size())
      return makeError(message);
    plan = planner_->restrict(*nodes, done, known);
    if (!plan.outputs.empty())
      result = compileOnnxModel(planner_->buildModel(plan, known), stageName,
                                options);
  }
  stage->plan = std::move(plan);
  if (stage->plan.outputs.empty()) {
    llvm::consumeError(result.takeError());
    return stage; // dead nodes: nothing reads what they compute
  }
  if (!result)
    return result.takeError();
  std::string bytes;
  if (rt::Status s = om::serializeOm(result->model, &bytes); !s.isOk())
    return makeError(s.message());
  std::unique_ptr<om::LoadedOm> loaded;
  if (rt::Status s = om::loadOmBytes(bytes, stageName, &loaded); !s.isOk())
    return makeError(s.message());
  if (rt::Status s = exec::LoadedModel::create(exec::makeDeviceTarget(device_),
                                               std::move(loaded), stageName,
                                               &stage->model);
      !s.isOk())
    return makeError(s.message());
  return stage;
}

llvm::Error RuntimeShapesModel::runStage(const CompiledStage &stage,
                                         KnownTensors &known,
                                         RuntimeShapesStats &stats) {
  if (!stage.model)
    return llvm::Error::success();
  exec::LoadedModel &model = *stage.model;
  static uint8_t empty[1];
  auto bufferOf = [](std::vector<uint8_t> &bytes) {
    return exec::Buffer{bytes.empty() ? empty : bytes.data(), bytes.size()};
  };
  std::vector<exec::Buffer> in, out;
  for (const std::string &name : stage.plan.inputs)
    in.push_back(bufferOf(known.at(name).bytes));
  std::vector<cli::HostTensor> results(model.outputs().size());
  for (size_t k = 0; k < results.size(); ++k) {
    const exec::TensorInfo &info = model.outputs()[k];
    results[k].dtype = info.dtype;
    results[k].shape = info.shape;
    results[k].bytes.resize(info.bytes);
    out.push_back(bufferOf(results[k].bytes));
  }
  exec::ExecutionStats execStats;
  if (rt::Status s = model.execute(in, out, &execStats); !s.isOk())
    return makeError(s.message());
  stats.deviceTimeNs += execStats.deviceTimeNs;
  ++stats.stagesRun;
  if (results.size() != stage.plan.outputs.size())
    return makeError("stage '" + model.name() + "' has " +
                     std::to_string(results.size()) + " outputs, expected " +
                     std::to_string(stage.plan.outputs.size()));
  for (size_t k = 0; k < results.size(); ++k) {
    results[k].name = stage.plan.outputs[k];
    known[stage.plan.outputs[k]] = std::move(results[k]);
  }
  return llvm::Error::success();
}
