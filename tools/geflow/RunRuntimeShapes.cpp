//===- RunRuntimeShapes.cpp - geflow run for run-time shapes --------------===//

#include "tools/geflow/RunRuntimeShapes.h"
#include "tools/geflow/Commands.h"
#include "tools/geflow/TensorFiles.h"
#include "tools/geflow/ToolContext.h"
#include "tools/geflow/profile/Profile.h"

#include "tools/driver/RuntimeShapesModel.h"

#include "executor/model/OmFormat.h"
#include "executor/model/OutputFiles.h"
#include "runtime/Device.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {

Error runError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// "name=file" pairs by name.
Expected<StringMap<std::string>>
namedFiles(const std::vector<std::string> &specs, const char *flag) {
  StringMap<std::string> files;
  for (const std::string &spec : specs) {
    auto [name, file] = StringRef(spec).split('=');
    if (file.empty())
      return runError(Twine(flag) + " '" + spec + "': expected NAME=FILE");
    files[name] = file.str();
  }
  return files;
}

/// One tensor per model input, each from its file: the shapes are the
/// files' (random inputs would need a shape for every -1).
Expected<std::vector<HostTensor>>
readInputs(const driver::RuntimeShapesModel &model,
           const RuntimeShapesRunFlags &flags, bool *inputsArePb) {
  auto files = namedFiles(flags.inputFiles, "--input");
  if (!files)
    return files.takeError();
  std::string names;
  for (const exec::TensorInfo &info : model.inputs())
    names += (names.empty() ? "" : ", ") + info.name;
  for (const auto &entry : *files)
    if (llvm::none_of(model.inputs(), [&](const exec::TensorInfo &info) {
          return info.name == entry.getKey();
        }))
      return runError("--input: the model has no input named '" +
                      entry.getKey() + "' (inputs: " + names + ")");
  std::vector<HostTensor> tensors;
  *inputsArePb = false;
  for (const exec::TensorInfo &info : model.inputs()) {
    auto it = files->find(info.name);
    if (it == files->end())
      return runError("input '" + info.name +
                      "' is missing: a model whose "
                      "shapes are resolved at run time takes every input "
                      "from --input " +
                      info.name + "=FILE");
    auto tensor = readTensorFile(it->second, flags.maxTensorBytes);
    if (!tensor)
      return tensor.takeError();
    *inputsArePb |=
        !sys::path::extension(it->second).equals_insensitive(".npy");
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

/// The profile of the last execution: every stage's streams (and the
/// data-dependent ops' stream) as the model's, plus the host's shape work
/// as its own track.
Error stageProfile(rt::Device &device, const driver::RuntimeShapesModel &model,
                   const driver::RuntimeShapesStats &stats,
                   const RuntimeShapesRunFlags &flags, om::OutputFiles &files) {
  std::vector<profile::HostSpan> spans;
  auto origin = stats.hostSpans.empty() ? std::chrono::steady_clock::now()
                                        : stats.hostSpans.front().start;
  auto ns = [&](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin)
        .count();
  };
  for (const driver::HostSpan &span : stats.hostSpans)
    spans.push_back({span.name, ns(span.start), ns(span.end)});
  return writeStreamsProfile(device, model.name(), model.socName(),
                             model.streamIds(), std::move(spans),
                             flags.profileDir, flags.profileGapUs, files);
}

std::string outputFileName(const std::string &dir, const std::string &name,
                           bool pb) {
  std::string file = name;
  for (char &c : file)
    if (c == '/' || c == '\\' || c == ':' || c == '\0')
      c = '_';
  SmallString<256> path(dir);
  sys::path::append(path, file + (pb ? ".pb" : ".npy"));
  return std::string(path);
}

} // namespace

Error cli::runRuntimeShapesModel(std::unique_ptr<om::LoadedOm> om,
                                 rt::Device &device,
                                 const RuntimeShapesRunFlags &flags) {
  auto model = driver::RuntimeShapesModel::create(device, std::move(om));
  if (!model)
    return model.takeError();
  bool inputsArePb = false;
  auto inputs = readInputs(**model, flags, &inputsArePb);
  if (!inputs)
    return inputs.takeError();

  bool trace = !flags.tracePath.empty() || !flags.profileDir.empty();
  std::vector<HostTensor> outputs;
  driver::RuntimeShapesStats stats, first;
  std::vector<double> hostMs;
  for (unsigned i = 0; i < std::max(1u, flags.repeat); ++i) {
    if (trace)
      device.clearTrace(); // keep the last execution only
    auto start = std::chrono::steady_clock::now();
    if (Error e = (*model)->execute(*inputs, &outputs, &stats))
      return e;
    hostMs.push_back(std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count());
    if (i == 0)
      first = stats;
  }

  om::OutputFiles files;
  if (!flags.outputDir.empty()) {
    if (Error e = toError(files.createFolder(flags.outputDir)))
      return e;
    for (const HostTensor &tensor : outputs)
      if (Error e = stageTensorFile(
              tensor, outputFileName(flags.outputDir, tensor.name, inputsArePb),
              files))
        return e;
  }
  if (!flags.tracePath.empty())
    if (Error e = toError(files.stage(
            flags.tracePath, {rt::chromeTraceJson(device.traceRecords())})))
      return e;

  std::vector<double> sorted = hostMs;
  std::sort(sorted.begin(), sorted.end());
  outs() << formatv("geflow run: {0} on {1}, {2} execution(s), shapes "
                    "resolved at run time\n",
                    flags.modelPath, (*model)->socName(), hostMs.size());
  outs() << formatv("  host latency   {0:F3} ms (median), first {1:F3} ms\n",
                    sorted[sorted.size() / 2], hostMs.front());
  outs() << "  isa            " << hostIsaText() << "\n";
  outs() << formatv("  device time    {0:F1} us (simulated)\n",
                    stats.deviceTimeNs / 1000.0);
  outs() << formatv("  stages         {0} run, {1} data-dependent op(s); "
                    "first execution compiled {2}, the last {3} "
                    "({4} cached)\n",
                    stats.stagesRun, stats.dataDependentOps,
                    first.stagesCompiled, stats.stagesCompiled,
                    (*model)->cachedStages());
  outs() << formatv("  shape work     {0:F3} ms on the host (last execution; "
                    "first {1:F3} ms)\n",
                    stats.hostShapeMs, first.hostShapeMs);
  for (const HostTensor &tensor : outputs)
    outs() << formatv("  output {0}: {1}\n", tensor.name,
                      describe(tensor.dtype, tensor.shape));
  if (!flags.profileDir.empty())
    if (Error e = stageProfile(device, **model, stats, flags, files))
      return e;
  if (Error e = checkExpectedOutputs(outputs, flags.expectFiles, flags.rtol,
                                     flags.atol))
    return e;
  return toError(files.commit());
}
