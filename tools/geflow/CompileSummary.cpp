//===- CompileSummary.cpp - the one-screen summary of a compile -----------===//

#include "tools/geflow/CompileSummary.h"
#include "tools/geflow/TensorFiles.h"
#include "tools/geflow/ToolContext.h"

#include "tools/driver/RuntimeShapesCompile.h"

#include "executor/model/OmFormat.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {

std::string humanBytes(uint64_t bytes) {
  if (bytes < 1024)
    return formatv("{0} B", bytes).str();
  if (bytes < 1024 * 1024)
    return formatv("{0:F1} KiB", bytes / 1024.0).str();
  return formatv("{0:F1} MiB", bytes / (1024.0 * 1024.0)).str();
}

/// A model with gears: the mode, the inputs' template and one line per gear
/// (the totals above sum kernels and tasks and take the largest of the rest).
void printGears(const driver::CompileResult &result) {
  const om::GearTable &table = result.model.modelDef.gears();
  if (table.gear_size() == 0)
    return;
  std::string inputs = shapesText(table.input());
  outs() << formatv("  gears         {0} ({1}, inputs {2})\n",
                    table.gear_size(), om::GearTable::Mode_Name(table.mode()),
                    inputs);
  for (int i = 0; i < table.gear_size(); ++i) {
    const om::Gear &gear = table.gear(i);
    const passes::CompileStats &g = result.gearStats[i];
    outs() << formatv("    {0,-9} dims {1,-9} kernels {2,-5} streams {3,-2} "
                      "predicted {4:F1} us  workspace {5}\n",
                      gear.label(), dimsText(gear.dims()), g.kernelCount,
                      g.streamCount, g.predictedNs / 1e3,
                      humanBytes(g.workspaceBytes));
  }
}

/// The schedule against its lower bound (passes/streams/LowerBound.h), from
/// the OM's attributes: efficiency = predicted makespan / bound.
void printEfficiency(const om::ModelDef &model) {
  auto attr = [&](const char *name) -> double {
    auto it = model.attr().find(name);
    return it == model.attr().end() ? 0.0 : double(it->second.i());
  };
  double bound = attr("lower_bound_ns"),
         predicted = attr("predicted_makespan_ns");
  if (bound <= 0 || predicted <= 0)
    return;
  outs() << formatv("  lower bound   {0:F1} us (critical path {1:F1} us, "
                    "busiest engine {2:F1} us, by segments {3:F1} us)\n",
                    bound / 1e3, attr("lower_bound_critical_path_ns") / 1e3,
                    attr("lower_bound_engine_work_ns") / 1e3,
                    attr("lower_bound_segments_ns") / 1e3);
  outs() << formatv("  efficiency    {0:F2} (predicted / bound)\n",
                    predicted / bound);
}

/// A RUNTIME_SHAPES model: why its shapes wait for run time, its inputs.
void printRuntimeShapesSummary(const driver::CompileResult &result,
                               const CompileJob &job) {
  const om::ModelDef &modelDef = result.model.modelDef;
  auto reason = modelDef.attr().find("rs.reason");
  outs() << formatv("{0}: {1} -> {2}, shapes resolved at run time\n",
                    job.commandName, job.modelPath, job.omPath);
  if (reason != modelDef.attr().end())
    outs() << "  because       " << reason->second.s() << "\n";
  const om::GraphDef &g = modelDef.graph(0);
  for (const om::OpDef &op : g.op()) {
    if (op.type() != om::kDataType)
      continue;
    std::vector<int64_t> dims(op.output_desc(0).shape().begin(),
                              op.output_desc(0).shape().end());
    outs() << formatv("  input         {0}: {1}\n", op.name(),
                      describe(op.output_desc(0).dtype(), dims));
  }
  outs() << formatv("  compile time  {0:F1} ms (stages compile per new "
                    "shape at run time)\n",
                    result.stats.compileTimeMs);
}

} // namespace

void cli::printCompileSummary(const driver::CompileResult &result,
                              const CompileJob &job) {
  if (driver::hasRuntimeShapes(result.model.modelDef)) {
    printRuntimeShapesSummary(result, job);
    return;
  }
  const passes::CompileStats &s = result.stats;
  std::string soc = result.model.socName;
  if (!job.socNote.empty())
    soc += ", " + job.socNote;
  outs() << formatv("{0}: {1} -> {2} ({3})\n", job.commandName, job.modelPath,
                    job.omPath, soc);
  outs() << formatv("  ops           {0} ({1} compute)\n", s.opCount,
                    s.computeOpCount);
  outs() << formatv("  kernels       {0}\n", s.kernelCount);
  outs() << formatv("  tasks         {0}\n", s.taskCount);
  outs() << formatv("  streams       {0}\n", s.streamCount);
  outs() << formatv("  events        {0} ({1} cross-stream dependencies "
                    "before reduction)\n",
                    s.eventCount, s.eventsBeforeReduction);
  if (s.predictedNs > 0)
    outs() << formatv(
        "  predicted     {0:F1} us on {1} stream(s), {2:F1} us on "
        "one (simulated)\n",
        s.predictedNs / 1e3, s.streamCount, s.predictedSingleStreamNs / 1e3);
  printEfficiency(result.model.modelDef);
  outs() << formatv("  weights       {0}\n", humanBytes(s.weightsBytes));
  outs() << formatv("  workspace     {0} ({1} without reuse)\n",
                    humanBytes(s.workspaceBytes),
                    humanBytes(s.workspaceBytesWithoutReuse));
  printGears(result);
  outs() << formatv("  compile time  {0:F1} ms\n", s.compileTimeMs);
}
