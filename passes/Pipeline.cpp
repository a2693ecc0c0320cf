//===- Pipeline.cpp - the GE pipeline, built in one place -----------------===//

#include "passes/Pipeline.h"

#include "passes/GraphDump.h"
#include "passes/PassSupport.h"
#include "passes/Passes.h"
#include "passes/emit/OmEmitter.h"
#include "passes/fusion/FusionSupport.h"
#include "passes/streams/CoreLimits.h"

#include "executor/model/OmFormat.h"

#include "runtime/soc/SocSpec.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

namespace geflow::passes {

#define GEN_PASS_REGISTRATION
#include "passes/Passes.h.inc"

namespace {

/// `geflow-opt --ge-pipeline='soc=... reuse=...'`: CompileOptions' compiler
/// half as pass-pipeline options.
struct GePipelineOptions : mlir::PassPipelineOptions<GePipelineOptions> {
  Option<std::string> soc{*this, "soc",
                          llvm::cl::desc("SoC preset or spec file"),
                          llvm::cl::init("ascend910b-sim")};
  Option<bool> reuse{*this, "reuse",
                     llvm::cl::desc("Reuse the memory of dead buffers"),
                     llvm::cl::init(true)};
  Option<int64_t> alignment{*this, "alignment",
                            llvm::cl::desc("Workspace offset alignment"),
                            llvm::cl::init(64)};
  Option<bool> requireKernels{*this, "require-kernels",
                              llvm::cl::desc("Fail on ops without a kernel"),
                              llvm::cl::init(false)};
  Option<StreamMode> streams{
      *this, "streams", llvm::cl::desc("Logical stream assignment"),
      llvm::cl::init(StreamMode::kAuto),
      llvm::cl::values(
          clEnumValN(StreamMode::kSingle, "single", "one stream"),
          clEnumValN(StreamMode::kLabel, "label", "a stream per user label"),
          clEnumValN(StreamMode::kAuto, "auto", "labels plus GE's split"))};
  Option<unsigned> maxStreams{*this, "max-streams",
                              llvm::cl::desc("At most N streams (0: no cap)"),
                              llvm::cl::init(0)};
};

/// The fusion passes `--no-fuse=NAME` switches off, in pipeline order: the
/// one list of valid names. A pattern pass that makes an op a later one
/// absorbs (ge.gelu, ge.swish for bias-activation) comes before it.
struct FusionPass {
  llvm::StringLiteral name;
  std::unique_ptr<mlir::Pass> (*create)();
};
const FusionPass kFusionPasses[] = {
    {"layernorm", [] { return createFuseLayerNorm(); }},
    {"gelu", [] { return createFuseGelu(); }},
    {"swish", [] { return createFuseSwish(); }},
    {"pad-pool", [] { return createFusePadPool(); }},
    {"attention", [] { return createFuseAttention(); }},
    {"layout", [] { return createFuseLayout(); }},
    {"batchnorm", [] { return createFuseBatchNorm(); }},
    {"bias-activation", [] { return createFuseBiasActivation(); }},
    {"residual", [] { return createFuseResidual(); }},
    {"elementwise", [] { return createFuseElementwise(); }},
    {"block-channels", [] { return createBlockChannels(); }},
};

/// `--no-fuse` takes the names above, or `all`.
llvm::Error checkFusionNames(const std::vector<std::string> &names) {
  for (const std::string &name : names) {
    if (name == "all" || llvm::any_of(kFusionPasses, [&](const FusionPass &p) {
          return p.name == name;
        }))
      continue;
    std::string valid = "all";
    for (const FusionPass &p : kFusionPasses)
      valid += ", " + p.name.str();
    return makeError("--no-fuse: unknown fusion '" + name +
                     "' (valid names: " + valid + ")");
  }
  return llvm::Error::success();
}

bool fusionEnabled(const CompileOptions &options, llvm::StringRef name) {
  return !llvm::is_contained(options.disabledFusions, "all") &&
         !llvm::is_contained(options.disabledFusions, name);
}

} // namespace

void buildGePipeline(mlir::OpPassManager &pm, const CompileOptions &options) {
  // 2. constant folding (the dialect's folders) and dead-op removal.
  pm.addPass(mlir::createCanonicalizerPass(fusion::graphRewriteConfig()));
  pm.addPass(mlir::createCSEPass());
  mlir::OpPassManager &fn = pm.nest<mlir::func::FuncOp>();
  // Ops that are others' compositions become them before folding, so that a
  // constant weight's transpose folds.
  fn.addPass(createLowerRecurrent());
  fn.addPass(createLowerEinsum());
  // QDQ patterns first: folding would turn dequantized weights into floats.
  fn.addPass(createFoldQdq());
  fn.addPass(createFoldConstants());
  // 3. op fusion (each pass can be switched off by name).
  for (const FusionPass &fusion : kFusionPasses)
    if (fusionEnabled(options, fusion.name))
      fn.addPass(fusion.create());
  // 4. engine assignment.
  AssignEnginesOptions engines;
  engines.requireKernels = options.requireKernels;
  fn.addPass(createAssignEngines(engines));
  // 5. user annotations: stream scopes, wait edges and core limits.
  ApplyAnnotationsOptions annotations;
  annotations.soc = options.soc;
  fn.addPass(createApplyAnnotations(annotations));
  // Tasks are sized here, once the core limits are known: stream assignment
  // times them. (Task emission itself, pass 9, is emitOmModel.)
  EmitTasksOptions tasks;
  tasks.soc = options.soc;
  tasks.requireKernels = options.requireKernels;
  fn.addPass(createEmitTasks(tasks));
  // 6. logical stream assignment.
  AssignStreamsOptions streams;
  streams.mode = streamModeName(options.streamMode).str();
  streams.maxStreams = options.maxStreams;
  streams.soc = options.soc;
  streams.aicoreNum = options.aicoreNum;
  streams.vectorcoreNum = options.vectorcoreNum;
  fn.addPass(createAssignStreams(streams));
  // 7. event insertion.
  fn.addPass(createInsertEvents());
  // 8. memory planning over the final op order.
  PlanMemoryOptions memory;
  memory.reuse = options.reuseMemory;
  memory.alignment = options.memoryAlignment;
  fn.addPass(createPlanMemory(memory));
}

void registerGePasses() {
  registerGeflowPasses();
  mlir::PassPipelineRegistration<GePipelineOptions>(
      "ge-pipeline",
      "The GE pipeline (passes/Pipeline.cpp), up to task annotation",
      [](mlir::OpPassManager &pm, const GePipelineOptions &o) {
        CompileOptions options;
        options.soc = o.soc;
        options.reuseMemory = o.reuse;
        options.memoryAlignment = o.alignment;
        options.requireKernels = o.requireKernels;
        options.streamMode = o.streams;
        options.maxStreams = o.maxStreams;
        buildGePipeline(pm, options);
      });
}

/// compileModule; with `borrowResources`, the model's dense_resource weights
/// stay in the context (EmitOptions::borrowResources).
static llvm::Expected<om::OmModel>
compileModuleImpl(mlir::ModuleOp module, const CompileOptions &options,
                  bool borrowResources) {
  rt::SocSpec spec;
  rt::Status st = rt::loadSocSpec(options.soc, spec);
  if (!st.isOk())
    return makeError("SoC '" + options.soc + "': " + st.message());

  if (llvm::Error err = checkFusionNames(options.disabledFusions))
    return err;
  // `--dump-graph`: the graph as imported, then after each stage.
  std::unique_ptr<GraphDumper> dumper;
  if (!options.dumpGraphDir.empty()) {
    auto created = GraphDumper::create(options.dumpGraphDir, options.modelName,
                                       options.dumpStaging, options.dumpLevels);
    if (!created)
      return created.takeError();
    dumper = std::move(*created);
    if (llvm::Error err = dumper->dump(module, "import"))
      return err;
  }
  std::string diagnostic;
  {
    mlir::ScopedDiagnosticHandler handler(
        module.getContext(), [&](mlir::Diagnostic &d) {
          if (d.getSeverity() == mlir::DiagnosticSeverity::Error &&
              diagnostic.empty())
            diagnostic = d.str();
          return mlir::success();
        });
    mlir::PassManager pm(module.getContext());
    buildGePipeline(pm, options);
    if (dumper)
      pm.addInstrumentation(dumper->instrumentation());
    mlir::TimingScope passTiming(
        options.timing ? options.timing->nest("pass pipeline") : mlir::Timer());
    if (options.timing)
      pm.enableTiming(passTiming);
    // The module is verified once, after the last pass, rather than after
    // each of the twenty: on a 100k-op graph each verification costs as much
    // as a pass. (geflow-opt keeps MLIR's default and verifies after each.)
    pm.enableVerifier(false);
    if (mlir::failed(pm.run(module)) || mlir::failed(mlir::verify(module)))
      return makeError(diagnostic.empty() ? "the GE pipeline failed"
                                          : diagnostic);
  }
  if (dumper)
    if (llvm::Error err = dumper->finish(module))
      return err;

  EmitOptions emit;
  emit.modelName = options.modelName;
  emit.requireKernels = options.requireKernels;
  emit.aicoreNum = options.aicoreNum;
  emit.vectorcoreNum = options.vectorcoreNum;
  emit.borrowResources = borrowResources;
  mlir::TimingScope emitTiming(options.timing ? options.timing->nest("emission")
                                              : mlir::Timer());
  llvm::Expected<om::OmModel> model = emitOmModel(module, spec, emit);
  if (!model)
    return model.takeError();
  emitTiming.stop();
  // The loader's checks, here, so an emission bug shows at compile time.
  mlir::TimingScope validTiming(
      options.timing ? options.timing->nest("validation") : mlir::Timer());
  rt::Status valid = om::validateOmModel(
      *model, options.modelName.empty() ? "model" : options.modelName);
  if (!valid.isOk())
    return makeError("internal error: task emission produced an invalid "
                     "model: " +
                     valid.message());
  validTiming.stop();
  if (dumper)
    if (llvm::Error err = dumper->dump(model->modelDef.graph(0), "build"))
      return err;
  return model;
}

llvm::Expected<om::OmModel> compileModule(mlir::ModuleOp module,
                                          const CompileOptions &options) {
  return compileModuleImpl(module, options, /*borrowResources=*/false);
}

llvm::Expected<om::OmModel>
compileModuleBorrowingWeights(mlir::ModuleOp module,
                              const CompileOptions &options) {
  return compileModuleImpl(module, options, /*borrowResources=*/true);
}

CompileStats summarize(const om::OmModel &model) {
  CompileStats stats;
  if (model.modelDef.graph_size() > 0) {
    const om::GraphDef &graph = model.modelDef.graph(0);
    stats.opCount = graph.op_size();
    for (const om::OpDef &op : graph.op())
      if (!om::isStructuralOpType(op.type()))
        ++stats.computeOpCount;
  }
  for (const om::TaskDef &task : model.taskDef.task())
    if (task.type() == om::KERNEL)
      ++stats.kernelCount;
  const auto &attrs = model.modelDef.attr();
  if (auto it = attrs.find("predicted_makespan_single_stream_ns");
      it != attrs.end())
    stats.predictedSingleStreamNs = it->second.i();
  if (auto it = attrs.find("predicted_makespan_ns"); it != attrs.end())
    stats.predictedNs = it->second.i();
  stats.taskCount = model.taskDef.task_size();
  stats.streamCount = model.taskDef.stream_num();
  stats.eventCount = model.taskDef.event_num();
  // ge-insert-events records it; a model built without that pass reduced
  // nothing.
  auto before = model.modelDef.attr().find("events_before_reduction");
  stats.eventsBeforeReduction = before != model.modelDef.attr().end()
                                    ? uint64_t(before->second.i())
                                    : stats.eventCount;
  stats.weightsBytes = model.weightsSize();
  stats.workspaceBytes = model.memoryPlan.workspace_size();
  stats.workspaceBytesWithoutReuse =
      model.memoryPlan.workspace_size_without_reuse();
  return stats;
}

llvm::Error setGlobalCoreLimit(CompileOptions &options, llvm::StringRef text,
                               const rt::SocSpec &spec) {
  llvm::Expected<GlobalCoreLimit> limit = parseGlobalCoreLimit(text, spec);
  if (!limit)
    return limit.takeError();
  options.aicoreNum = limit->aicoreNum;
  options.vectorcoreNum = limit->vectorcoreNum;
  return llvm::Error::success();
}

} // namespace geflow::passes
