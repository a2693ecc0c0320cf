//===- RunCommand.cpp - geflow run ----------------------------------------===//
//
// geflow run MODEL.om [--input NAME=FILE ...] [--output-dir DIR] [--repeat N]
//                     [--threads N] [--trace FILE] [--profile DIR] [--seed N]
//                     [--sanitize] [--pad-to-gear] [--warmup N]
//                     [--concurrency N [--requests M]] [--device-memory B]
// Loads an OM artifact onto a simulated device, runs it, prints host latency
// (median over repeats, after --warmup untimed executions), the instruction
// set the host kernels ran on and simulated device time, and writes the
// outputs.
// A model with gears runs the gear of the inputs' shapes (GearChoice.h).
// --sanitize checks every task's memory accesses across streams and fails
// the run, listing the findings on stderr, when two are unordered.
// --concurrency runs M executions through N contexts sharing the weights
// (RunConcurrent.h) and reports throughput, latency and fairness instead.
//
//===----------------------------------------------------------------------===//

#include "tools/geflow/Commands.h"
#include "tools/geflow/GearChoice.h"
#include "tools/geflow/Limits.h"
#include "tools/geflow/RunConcurrent.h"
#include "tools/geflow/RunRuntimeShapes.h"
#include "tools/geflow/TensorFiles.h"
#include "tools/geflow/ToolContext.h"

#include "executor/model/OutputFiles.h"
#include "tools/driver/RuntimeShapesCompile.h"

#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"
#include "runtime/Trace.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <thread>

using namespace llvm;
using namespace geflow;
using namespace geflow::cli;

namespace {
cl::SubCommand runSub("run", "Run a compiled OM model on the simulated device");

cl::opt<std::string> modelPath(cl::Positional, cl::Required,
                               cl::desc("<model.om>"), cl::sub(runSub),
                               cl::cat(geflowCategory()));
cl::list<std::string> inputFiles(
    "input",
    cl::desc("An input tensor file, .npy or ONNX TensorProto .pb (repeatable); "
             "without any, seeded random inputs are used"),
    cl::value_desc("name=file"), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Write every output here as <name>.npy "
                                        "(or .pb when the inputs were .pb)"),
                               cl::value_desc("dir"), cl::sub(runSub),
                               cl::cat(geflowCategory()));
cl::opt<unsigned> repeat("repeat",
                         cl::desc("Executions to time (median reported)"),
                         cl::init(1), cl::sub(runSub),
                         cl::cat(geflowCategory()));
cl::opt<unsigned>
    warmup("warmup",
           cl::desc("Executions before the timed ones, not timed (first-touch "
                    "costs out of the median)"),
           cl::init(0), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<int> threads("threads",
                     cl::desc("Host threads running kernels, the calling one "
                              "included (default: one per hardware thread)"),
                     cl::init(-1), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<std::string> tracePath(
    "trace", cl::desc("Write a Chrome/Perfetto trace of the last execution"),
    cl::value_desc("file"), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<std::string> profileDir(
    "profile",
    cl::desc("Write a profile of the last execution here: trace.json, "
             "op_summary.csv, summary.json, timeline.html (read it again with "
             "geflow profile DIR)"),
    cl::value_desc("dir"), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<double> profileGapUs("profile-gap-us",
                             cl::desc("--profile reports a stream idle longer "
                                      "than this before a task"),
                             cl::init(1.0), cl::sub(runSub),
                             cl::cat(geflowCategory()));
cl::list<std::string> expectFiles(
    "expect",
    cl::desc("Check an output against a reference tensor file (repeatable)"),
    cl::value_desc("name=file"), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<double> rtol("rtol", cl::desc("Relative tolerance of --expect"),
                     cl::init(1e-3), cl::sub(runSub),
                     cl::cat(geflowCategory()));
cl::opt<double> atol("atol", cl::desc("Absolute tolerance of --expect"),
                     cl::init(1e-5), cl::sub(runSub),
                     cl::cat(geflowCategory()));
cl::opt<bool> sanitize(
    "sanitize",
    cl::desc("Check every task's reads and writes for pairs no stream order, "
             "event or synchronize orders (the stream sanitizer); findings "
             "fail the run"),
    cl::sub(runSub), cl::cat(geflowCategory()));
cl::list<unsigned> dropWaits(
    "drop-wait",
    cl::desc("Test hook: leave the N-th EVENT_WAIT task (from 0) of TASK_INFO "
             "out of every execution, to seed a missing wait"),
    cl::value_desc("N"), cl::Hidden, cl::sub(runSub),
    cl::cat(geflowCategory()));
cl::opt<bool> padToGear(
    "pad-to-gear",
    cl::desc("For a model with gears: inputs of a shape no gear has are "
             "padded with zeros up to the smallest gear that holds them, and "
             "the outputs cut back"),
    cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the random inputs"),
                       cl::init(0), cl::sub(runSub), cl::cat(geflowCategory()));
cl::opt<int> concurrency(
    "concurrency",
    cl::desc("Run --requests executions through N execution contexts that "
             "share the weights, each on its own streams (continuous "
             "batching); report throughput, p50/p99 latency, fairness and "
             "per-stream busy time"),
    cl::value_desc("N"), cl::init(1), cl::sub(runSub),
    cl::cat(geflowCategory()));
cl::opt<int> requests("requests",
                      cl::desc("Executions in all with --concurrency "
                               "(default: N)"),
                      cl::value_desc("M"), cl::init(0), cl::sub(runSub),
                      cl::cat(geflowCategory()));
cl::opt<std::string> deviceMemory(
    "device-memory",
    cl::desc("The simulated device's memory, e.g. 64M (default: host RAM)"),
    cl::value_desc("bytes"), cl::sub(runSub), cl::cat(geflowCategory()));
LimitFlags limitFlags(runSub,
                      LimitFlags::kModelBytes | LimitFlags::kTensorBytes |
                          LimitFlags::kNodes | LimitFlags::kWorkspaceBytes);

Error runError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}
Error statusError(const rt::Status &status) {
  return runError(status.message());
}

/// Gathers one host tensor per model input, from files or random (of gear
/// 0's shapes). A static model's inputs must have its shapes; a model with
/// gears takes any shape, which chooseGear matches to a gear.
Expected<std::vector<HostTensor>> bindInputs(const exec::LoadedModel &model,
                                             uint64_t maxTensorBytes,
                                             bool *inputsArePb) {
  StringMap<std::string> files;
  for (const std::string &spec : inputFiles) {
    auto [name, file] = StringRef(spec).split('=');
    if (file.empty())
      return runError("--input '" + spec + "': expected NAME=FILE");
    files[name] = file.str();
  }
  for (const auto &entry : files)
    if (llvm::none_of(model.inputs(), [&](const exec::TensorInfo &info) {
          return info.name == entry.getKey();
        })) {
      std::string names;
      for (const exec::TensorInfo &info : model.inputs())
        names += (names.empty() ? "" : ", ") + info.name;
      return runError("--input: the model has no input named '" +
                      entry.getKey() + "' (inputs: " + names + ")");
    }

  std::vector<HostTensor> tensors;
  *inputsArePb = false;
  for (size_t i = 0; i < model.inputs().size(); ++i) {
    const exec::TensorInfo &info = model.inputs()[i];
    std::string expected = describe(info.dtype, info.shape);
    if (files.empty()) {
      tensors.push_back(randomTensor(info.dtype, info.shape, seed + i));
      continue;
    }
    auto it = files.find(info.name);
    if (it == files.end())
      return runError("input '" + info.name + "' (" + expected +
                      ") is missing: give --input " + info.name + "=FILE");
    auto tensor = readTensorFile(it->second, maxTensorBytes);
    if (!tensor)
      return tensor.takeError();
    std::string given = describe(tensor->dtype, tensor->shape);
    if (model.hasGears() ? tensor->dtype != info.dtype : given != expected)
      return runError("input '" + info.name + "': expected " + expected +
                      ", given " + given + " (from '" + it->second + "')");
    *inputsArePb |=
        !sys::path::extension(it->second).equals_insensitive(".npy");
    tensors.push_back(std::move(*tensor));
  }
  return tensors;
}

/// "out/probs.npy"; characters a file name cannot hold become '_'.
std::string outputFileName(const std::string &name, bool pb) {
  std::string file = name;
  for (char &c : file)
    if (c == '/' || c == '\\' || c == ':' || c == '\0')
      c = '_';
  SmallString<256> path(outputDir.getValue());
  sys::path::append(path, file + (pb ? ".pb" : ".npy"));
  return std::string(path);
}

/// min / max / mean of a float output, for the printed summary.
std::string summarizeValues(const HostTensor &tensor) {
  if (tensor.dtype != om::DT_FLOAT || tensor.numElements() == 0)
    return "";
  const float *v = reinterpret_cast<const float *>(tensor.bytes.data());
  int64_t n = tensor.numElements();
  double sum = 0, lo = v[0], hi = v[0];
  for (int64_t i = 0; i < n; ++i) {
    sum += v[i];
    lo = std::min<double>(lo, v[i]);
    hi = std::max<double>(hi, v[i]);
  }
  return formatv("  min {0:G4}  max {1:G4}  mean {2:G4}", lo, hi, sum / n)
      .str();
}

/// The sanitizer's line of the report: its findings, its work, and the host
/// time spent inside its checks. That is a lower bound of its cost: the
/// executor's access lists and the shadow's memory traffic come on top, so
/// the real overhead is measured by running twice (README: 1.04x for
/// ResNet-18, 1.17x for the transformer encoder), not printed here.
void printSanitizerSummary(const rt::StreamSanitizer &sanitizer,
                           double totalHostMs) {
  rt::SanitizerStats stats = sanitizer.stats();
  double checkMs = stats.checkSeconds * 1e3;
  outs() << formatv("  sanitizer: {0} findings, {1} accesses checked, "
                    "{2:F3} ms in checks of {3:F3} ms host time ({4:F1}%)\n",
                    stats.findings, stats.accessesChecked, checkMs, totalHostMs,
                    100.0 * checkMs / std::max(totalHostMs, 1e-9));
}

/// Lists every finding on stderr (streams in the model's numbering).
void printFindings(const rt::StreamSanitizer &sanitizer) {
  rt::SanitizerStats stats = sanitizer.stats();
  std::vector<std::string> findings = sanitizer.findings();
  errs() << formatv("geflow: sanitizer: {0} finding(s)\n", stats.findings);
  for (const std::string &finding : findings)
    errs() << "  " << finding << "\n";
  if (stats.findings > findings.size())
    errs() << formatv("  ... and {0} more\n", stats.findings - findings.size());
}

/// Compares the outputs named by --expect with their reference files.
Error checkExpectations(const std::vector<HostTensor> &outputs) {
  return checkExpectedOutputs(outputs, expectFiles, rtol, atol);
}

/// A device for `om`'s SoC with the flags' threads, trace and sanitizer.
Expected<std::unique_ptr<rt::Device>>
createDevice(const om::LoadedOm &om, rt::DeviceOptions &deviceOptions) {
  deviceOptions.soc = om.socName();
  // The thread that executes the model runs each kernel's unclaimed blocks
  // itself (HostJob::join), so N host threads are N-1 workers plus it: the
  // same count ONNX Runtime's intra_op_num_threads means.
  if (threads == 0 || threads < -1)
    return runError("--threads must be at least 1");
  int hostThreads =
      threads > 0
          ? threads
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  deviceOptions.workerThreads = hostThreads - 1;
  deviceOptions.trace = !tracePath.empty() || !profileDir.empty() ||
                        concurrency.getNumOccurrences() > 0;
  if (!deviceMemory.empty()) {
    auto bytes = parseByteCount("--device-memory", deviceMemory);
    if (!bytes)
      return bytes.takeError();
    deviceOptions.memoryLimitBytes = *bytes;
  }
  deviceOptions.sanitize = sanitize;
  if (profileGapUs < 0)
    return runError("--profile-gap-us must not be negative");
  std::unique_ptr<rt::Device> device;
  if (rt::Status s = rt::Device::create(deviceOptions, &device); !s.isOk())
    return statusError(s);
  return device;
}

/// The load options of --drop-wait: the N-th EVENT_WAIT task left out (of
/// gear 0's tasks, for a model with gears: of every gear's at that index).
Expected<exec::LoadOptions> loadOptionsFor(const om::LoadedOm &om) {
  exec::LoadOptions loadOptions;
  if (dropWaits.empty())
    return loadOptions;
  std::vector<int> dropped, waits;
  const om::ModelTaskDef &tasks = om.gear(0).taskDef();
  for (int i = 0; i < tasks.task_size(); ++i)
    if (tasks.task(i).type() == om::EVENT_WAIT)
      waits.push_back(i);
  for (unsigned n : dropWaits) {
    if (n >= waits.size())
      return runError(formatv("--drop-wait {0}: the model has {1} event "
                              "waits",
                              n, waits.size()));
    dropped.push_back(waits[n]);
  }
  loadOptions.skipTask = [dropped](int task) {
    return llvm::is_contained(dropped, task);
  };
  return loadOptions;
}

/// One zeroed host tensor per output of gear `gear`.
std::vector<HostTensor> allocateOutputs(const exec::LoadedModel &model,
                                        size_t gear) {
  std::vector<HostTensor> outputs;
  for (const exec::TensorInfo &info : model.outputs(gear)) {
    HostTensor tensor;
    tensor.name = info.name;
    tensor.dtype = info.dtype;
    tensor.shape = info.shape;
    tensor.bytes.resize(info.bytes);
    outputs.push_back(std::move(tensor));
  }
  return outputs;
}

std::vector<exec::Buffer> buffersOf(std::vector<HostTensor> &tensors) {
  std::vector<exec::Buffer> buffers;
  for (HostTensor &tensor : tensors)
    buffers.push_back({tensor.bytes.data(), tensor.bytes.size()});
  return buffers;
}

/// Executes the model --repeat times; the host time of each execution, in
/// ms and ascending. A data race lists the sanitizer's findings first.
Expected<std::vector<double>>
executeRepeatedly(exec::LoadedModel &model, size_t gear, rt::Device &device,
                  bool trace, const std::vector<exec::Buffer> &inputBuffers,
                  const std::vector<exec::Buffer> &outputBuffers,
                  exec::ExecutionStats &stats) {
  std::vector<double> hostMs;
  for (unsigned i = 0; i < warmup; ++i)
    if (rt::Status s = model.execute(inputBuffers, outputBuffers, &stats, gear);
        !s.isOk())
      return statusError(s);
  for (unsigned i = 0; i < std::max(1u, repeat.getValue()); ++i) {
    if (trace)
      device.clearTrace(); // keep the last execution only
    auto start = std::chrono::steady_clock::now();
    if (rt::Status s = model.execute(inputBuffers, outputBuffers, &stats, gear);
        !s.isOk()) {
      if (s.code() == rt::StatusCode::kDataRace && device.sanitizer())
        printFindings(*device.sanitizer());
      return statusError(s);
    }
    hostMs.push_back(std::chrono::duration<double, std::milli>(
                         std::chrono::steady_clock::now() - start)
                         .count());
  }
  std::sort(hostMs.begin(), hostMs.end());
  return hostMs;
}

double medianOf(const std::vector<double> &sorted) {
  double median = sorted[sorted.size() / 2];
  if (sorted.size() % 2 == 0)
    median = (sorted[sorted.size() / 2 - 1] + median) / 2;
  return median;
}

/// Stages the --output-dir tensors and the --trace file in `files`.
Error stageRunFiles(const std::vector<HostTensor> &outputs, bool inputsArePb,
                    rt::Device &device, om::OutputFiles &files) {
  if (!outputDir.empty()) {
    if (Error e = toError(files.createFolder(outputDir)))
      return e;
    for (const HostTensor &tensor : outputs)
      if (Error e = stageTensorFile(
              tensor, outputFileName(tensor.name, inputsArePb), files))
        return e;
  }
  if (!tracePath.empty())
    if (Error e = toError(files.stage(
            tracePath, {rt::chromeTraceJson(device.traceRecords())})))
      return e;
  return Error::success();
}

void printRunSummary(const std::string &socName, const std::string &gear,
                     const std::vector<double> &hostMs,
                     const exec::ExecutionStats &stats,
                     const std::vector<HostTensor> &outputs,
                     rt::Device &device) {
  outs() << formatv("geflow run: {0} on {1}, {2} execution(s)\n", modelPath,
                    socName, hostMs.size());
  if (!gear.empty())
    outs() << "  gear           " << gear << "\n";
  outs() << formatv("  host latency   {0:F3} ms (median)\n", medianOf(hostMs));
  outs() << "  isa            " << hostIsaText() << "\n";
  outs() << formatv("  device time    {0:F1} us (simulated)\n",
                    stats.deviceTimeNs / 1000.0);
  for (const HostTensor &tensor : outputs)
    outs() << formatv("  output {0}: {1}{2}\n", tensor.name,
                      describe(tensor.dtype, tensor.shape),
                      summarizeValues(tensor));
  if (device.sanitizer())
    printSanitizerSummary(*device.sanitizer(),
                          std::accumulate(hostMs.begin(), hostMs.end(), 0.0));
}

/// --concurrency / --requests, checked before anything is loaded.
Expected<ConcurrentRunFlags> concurrentFlags() {
  ConcurrentRunFlags flags;
  if (concurrency < 1)
    return runError(formatv("--concurrency {0}: must be at least 1",
                            concurrency.getValue()));
  if (requests.getNumOccurrences() && requests < 1)
    return runError(
        formatv("--requests {0}: must be at least 1", requests.getValue()));
  if (concurrency.getNumOccurrences() && !profileDir.empty())
    return runError("--profile profiles one execution; it does not go with "
                    "--concurrency");
  flags.concurrency = unsigned(concurrency);
  flags.requests = requests > 0 ? unsigned(requests) : flags.concurrency;
  return flags;
}

Error runModel() {
  auto limits = limitFlags.parse();
  if (!limits)
    return limits.takeError();
  auto concurrent = concurrentFlags();
  if (!concurrent)
    return concurrent.takeError();
  std::unique_ptr<om::LoadedOm> om;
  if (rt::Status s = om::loadOmFile(modelPath, &om, limits->omLimits());
      !s.isOk())
    return statusError(s);

  rt::DeviceOptions deviceOptions;
  auto device = createDevice(*om, deviceOptions);
  if (!device)
    return device.takeError();

  if (driver::hasRuntimeShapes(om->modelDef()))
    return runRuntimeShapesModel(std::move(om), **device,
                                 {modelPath, inputFiles, expectFiles, outputDir,
                                  tracePath, profileDir, repeat, rtol, atol,
                                  profileGapUs, limits->tensorBytes});

  std::string socName = om->socName();
  auto loadOptions = loadOptionsFor(*om);
  if (!loadOptions)
    return loadOptions.takeError();
  std::unique_ptr<exec::LoadedModel> model;
  if (rt::Status s = exec::LoadedModel::create(exec::makeDeviceTarget(**device),
                                               std::move(om), modelPath, &model,
                                               *loadOptions);
      !s.isOk())
    return statusError(s);

  bool inputsArePb = false;
  auto inputs = bindInputs(*model, limits->tensorBytes, &inputsArePb);
  if (!inputs)
    return inputs.takeError();
  auto gear = chooseGear(*model, *inputs, padToGear);
  if (!gear)
    return gear.takeError();
  std::vector<HostTensor> outputs = allocateOutputs(*model, gear->gear);
  std::vector<exec::Buffer> inputBuffers = buffersOf(*inputs);
  std::vector<exec::Buffer> outputBuffers = buffersOf(outputs);

  if (concurrency.getNumOccurrences()) {
    outs() << formatv("geflow run: {0} on {1}\n", modelPath, socName);
    if (Error e = runConcurrent(*model, gear->gear, **device, inputBuffers,
                                outputBuffers, *concurrent, outs()))
      return e;
    sliceOutputs(*model, *gear, outputs);
    om::OutputFiles files;
    if (Error e = stageRunFiles(outputs, inputsArePb, **device, files))
      return e;
    if (Error e = checkExpectations(outputs))
      return e;
    return toError(files.commit());
  }

  exec::ExecutionStats stats;
  auto hostMs =
      executeRepeatedly(*model, gear->gear, **device, deviceOptions.trace,
                        inputBuffers, outputBuffers, stats);
  if (!hostMs)
    return hostMs.takeError();
  sliceOutputs(*model, *gear, outputs);

  // Outputs, trace and profile are committed together once --expect passed:
  // a failed run leaves no file.
  om::OutputFiles files;
  if (Error e = stageRunFiles(outputs, inputsArePb, **device, files))
    return e;
  printRunSummary(socName,
                  model->hasGears() ? describeChoice(*model, *gear) : "",
                  *hostMs, stats, outputs, **device);
  if (!profileDir.empty())
    if (Error e = writeRunProfile(**device, *model, socName, profileDir,
                                  profileGapUs, files))
      return e;
  if (Error e = checkExpectations(outputs))
    return e;
  return toError(files.commit());
}

int runRun() {
  if (Error error = runModel())
    return reportError(std::move(error));
  return 0;
}

Command command{runSub, runRun};
} // namespace

Command &geflow::cli::runCommand() { return command; }
