//===- Conformance.cpp - ONNX backend tests through compile and run -------===//
//
// geflow-conformance [--root DIR] [--folder NAME]... [--expected-failures FILE]
//                    [--filter SUBSTRING] [--streams single|label|auto]
//                    [--sanitize] [--verbose]
//
// For every test_*/model.onnx under the folders of libonnx's backend test data:
// compile it as `geflow compile` does (tools/driver), load it on a simulated
// device, run every test_data_set_N and compare with output_K.pb using the
// backend's tolerances (|got - want| <= atol + rtol * |want|, rtol 1e-3,
// atol 1e-7; integers and booleans exactly). A model with an op outside the
// dialect is skipped. With --streams auto (the default), a model compiled
// onto several streams must also take no more simulated time than on one
// stream. With --sanitize the device runs the stream sanitizer: a finding
// fails the test.
//
// Two figures: the strict one, with nothing from the test data in the
// compiler (what a user meets: a model whose shape operands are graph inputs
// compiles to a RUNTIME_SHAPES OM and runs with its shapes resolved per
// execution, as `geflow run` does), and, beside it, the one with the data's
// values bound into shape operands that are graph inputs (TestDataBinding.h),
// which static-shape compilation otherwise cannot take.
//
// Prints a line for each strict non-pass with its reason, then both figures;
// the last line is the strict `N passed, N failed, N skipped`. Exits 1 when
// a test does not pass strictly and the expected-failures list does not name
// it, or when a listed test passes (so the list only shrinks).
//
//===----------------------------------------------------------------------===//

#include "tests/conformance/TestDataBinding.h"
#include "tools/driver/CompileDriver.h"
#include "tools/driver/RuntimeShapesCompile.h"
#include "tools/driver/RuntimeShapesModel.h"
#include "tools/geflow/TensorFiles.h"

#include "executor/runner/ModelExecutor.h"
#include "passes/Pipeline.h"
#include "runtime/Device.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using namespace geflow;
using namespace geflow::conformance;

namespace {

constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-7;

enum class Verdict { kPass, kFail, kSkip };

struct Outcome {
  Verdict verdict;
  std::string reason;
};

Outcome fail(const std::string &reason) { return {Verdict::kFail, reason}; }

/// A test's verdicts under the two rules the runner measures.
struct Verdicts {
  /// As a user meets it: `geflow compile model.onnx`, then `geflow run` with
  /// the data sets' inputs; nothing from the test data enters the compiler.
  Outcome strict;
  /// With the test data's values bound into shape operands that are graph
  /// inputs (TestDataBinding.h); the same as `strict` for the other tests.
  Outcome bound;
};

class Runner {
public:
  Runner(rt::Device &device, std::string tempDir, passes::StreamMode streams)
      : device_(device), tempDir_(std::move(tempDir)), streams_(streams) {}

  Verdicts run(const fs::path &testDir) {
    fs::path modelPath = testDir / "model.onnx";
    onnx::ModelProto proto;
    {
      std::ifstream in(modelPath, std::ios::binary);
      if (!proto.ParseFromIstream(&in))
        return both(fail("cannot parse model.onnx"));
    }
    std::vector<fs::path> dataSets;
    for (const auto &entry : fs::directory_iterator(testDir))
      if (entry.is_directory() &&
          entry.path().filename().string().rfind("test_data_set_", 0) == 0)
        dataSets.push_back(entry.path());
    std::sort(dataSets.begin(), dataSets.end());
    if (dataSets.empty())
      return both({Verdict::kSkip, "no test data"});

    std::string compileError;
    Outcome strict = compileAndRun(modelPath.string(), dataSets,
                                   runtimeInputPositions(proto), &compileError);
    if (compileError.empty() || !needsBinding(compileError))
      return both(strict);

    // The friendlier rule: the runtime inputs by position in the data sets;
    // constants bound from the first data set drop out.
    std::vector<int> runtimeInputs = bindShapeInputs(proto, dataSets.front());
    std::string boundPath = tempDir_ + "/bound.onnx";
    {
      std::ofstream out(boundPath, std::ios::binary | std::ios::trunc);
      if (!proto.SerializeToOstream(&out))
        return {strict, fail("cannot write the bound model")};
    }
    return {strict,
            compileAndRun(boundPath, dataSets, runtimeInputs, &compileError)};
  }

private:
  static Verdicts both(const Outcome &outcome) { return {outcome, outcome}; }

  /// Compiles `modelPath` as `geflow compile` does and runs every data set
  /// on it. A compile error is also left in `*compileError`.
  Outcome compileAndRun(const std::string &modelPath,
                        const std::vector<fs::path> &dataSets,
                        const std::vector<int> &runtimeInputs,
                        std::string *compileError) {
    compileError->clear();
    auto model = compile(modelPath, streams_);
    if (!model) {
      *compileError = llvm::toString(model.takeError());
      return classifyCompileError(*compileError);
    }
    if (driver::hasRuntimeShapes(model->modelDef))
      return runWithRuntimeShapes(*model, dataSets, runtimeInputs);
    std::unique_ptr<exec::LoadedModel> loaded;
    if (Outcome o = load(*model, &loaded); o.verdict != Verdict::kPass)
      return o;
    rt::VirtualNs deviceTime = 0;
    for (const fs::path &dataSet : dataSets) {
      Outcome outcome =
          runDataSet(*loaded, dataSet, runtimeInputs, &deviceTime);
      if (outcome.verdict != Verdict::kPass)
        return outcome;
    }
    if (streams_ == passes::StreamMode::kAuto &&
        model->taskDef.stream_num() > 1)
      return checkNotSlowerThanOneStream(modelPath, dataSets.back(),
                                         runtimeInputs, deviceTime);
    return {Verdict::kPass, ""};
  }

  llvm::Expected<om::OmModel> compile(const std::string &modelPath,
                                      passes::StreamMode streams) {
    driver::CompileOptions options;
    options.streamMode = streams;
    auto result = driver::compileOnnxFileAnyShapes(modelPath, options);
    if (!result)
      return result.takeError();
    return std::move(result->model);
  }
  Outcome load(const om::OmModel &model,
               std::unique_ptr<exec::LoadedModel> *loaded) {
    std::string omPath = tempDir_ + "/model.om";
    if (rt::Status s = om::writeOmFile(model, omPath); !s.isOk())
      return fail("write OM: " + s.message());
    if (rt::Status s = exec::LoadedModel::load(device_, omPath, loaded);
        !s.isOk())
      return fail("load: " + s.message());
    return {Verdict::kPass, ""};
  }

  /// A RUNTIME_SHAPES OM as `geflow run` takes it: through the file, every
  /// data set's inputs in their own shapes, stages compiled per execution.
  Outcome runWithRuntimeShapes(const om::OmModel &model,
                               const std::vector<fs::path> &dataSets,
                               const std::vector<int> &runtimeInputs) {
    std::string omPath = tempDir_ + "/model.om";
    if (rt::Status s = om::writeOmFile(model, omPath); !s.isOk())
      return fail("write OM: " + s.message());
    std::unique_ptr<om::LoadedOm> om;
    if (rt::Status s = om::loadOmFile(omPath, &om); !s.isOk())
      return fail("load: " + s.message());
    auto loaded = driver::RuntimeShapesModel::create(device_, std::move(om));
    if (!loaded)
      return fail("load: " + llvm::toString(loaded.takeError()));
    for (const fs::path &dataSet : dataSets) {
      std::vector<cli::HostTensor> inputs, outputs;
      for (int position : runtimeInputs) {
        auto tensor = cli::readTensorFile(
            (dataSet / ("input_" + std::to_string(position) + ".pb")).string());
        if (!tensor)
          return fail(llvm::toString(tensor.takeError()));
        inputs.push_back(std::move(*tensor));
      }
      if (llvm::Error e = (*loaded)->execute(inputs, &outputs))
        return fail("run: " + llvm::toString(std::move(e)));
      if (Outcome o = compareOutputs(dataSet, outputs);
          o.verdict != Verdict::kPass)
        return o;
    }
    return {Verdict::kPass, ""};
  }

  /// Every output_K.pb of `dataSet` against output K.
  static Outcome compareOutputs(const fs::path &dataSet,
                                const std::vector<cli::HostTensor> &outputs) {
    for (size_t k = 0; k < outputs.size(); ++k) {
      auto path = dataSet / ("output_" + std::to_string(k) + ".pb");
      if (!fs::exists(path))
        continue; // an optional output the test does not check
      auto want = cli::readTensorFile(path.string());
      if (!want)
        return fail(llvm::toString(want.takeError()));
      std::string diff = cli::compareTensors(outputs[k], *want, kRtol, kAtol);
      if (!diff.empty())
        return fail("output " + std::to_string(k) + ": " + diff);
    }
    return {Verdict::kPass, ""};
  }

  /// `--streams auto` keeps extra streams only where the simulated makespan
  /// is shorter; the run must show it (pipeline step 6,
  /// docs/architecture.md).
  Outcome checkNotSlowerThanOneStream(const std::string &modelPath,
                                      const fs::path &dataSet,
                                      const std::vector<int> &runtimeInputs,
                                      rt::VirtualNs autoTime) {
    auto single = compile(modelPath, passes::StreamMode::kSingle);
    if (!single)
      return fail("compile on one stream: " +
                  llvm::toString(single.takeError()));
    std::unique_ptr<exec::LoadedModel> loaded;
    if (Outcome o = load(*single, &loaded); o.verdict != Verdict::kPass)
      return o;
    rt::VirtualNs singleTime = 0;
    if (Outcome o = runDataSet(*loaded, dataSet, runtimeInputs, &singleTime);
        o.verdict != Verdict::kPass)
      return o;
    if (autoTime > singleTime)
      return fail("--streams auto took " + std::to_string(autoTime) +
                  " ns of simulated time, one stream " +
                  std::to_string(singleTime) + " ns");
    return {Verdict::kPass, ""};
  }

  static Outcome classifyCompileError(const std::string &message) {
    if (message.find("unsupported op") != std::string::npos)
      return {Verdict::kSkip, message};
    return fail("compile: " + message);
  }

  Outcome runDataSet(exec::LoadedModel &model, const fs::path &dataSet,
                     const std::vector<int> &runtimeInputs,
                     rt::VirtualNs *deviceTime) {
    if (runtimeInputs.size() != model.inputs().size())
      return fail("model has " + std::to_string(model.inputs().size()) +
                  " inputs, test data binds " +
                  std::to_string(runtimeInputs.size()));
    std::vector<cli::HostTensor> inputs;
    std::vector<exec::Buffer> inputBuffers;
    for (size_t i = 0; i < runtimeInputs.size(); ++i) {
      auto path =
          dataSet / ("input_" + std::to_string(runtimeInputs[i]) + ".pb");
      auto tensor = cli::readTensorFile(path.string());
      if (!tensor)
        return fail(llvm::toString(tensor.takeError()));
      const exec::TensorInfo &info = model.inputs()[i];
      if (cli::describe(tensor->dtype, tensor->shape) !=
          cli::describe(info.dtype, info.shape))
        return fail("input " + std::to_string(i) + ": model wants " +
                    cli::describe(info.dtype, info.shape) + ", data is " +
                    cli::describe(tensor->dtype, tensor->shape));
      inputs.push_back(std::move(*tensor));
    }
    for (cli::HostTensor &t : inputs)
      inputBuffers.push_back({t.bytes.data(), t.bytes.size()});

    std::vector<cli::HostTensor> outputs(model.outputs().size());
    std::vector<exec::Buffer> outputBuffers;
    for (size_t i = 0; i < outputs.size(); ++i) {
      const exec::TensorInfo &info = model.outputs()[i];
      outputs[i].dtype = info.dtype;
      outputs[i].shape = info.shape;
      outputs[i].bytes.resize(info.bytes);
      outputBuffers.push_back(
          {outputs[i].bytes.data(), outputs[i].bytes.size()});
    }
    exec::ExecutionStats stats;
    if (rt::Status s = model.execute(inputBuffers, outputBuffers, &stats);
        !s.isOk())
      return fail("run: " + s.message());
    *deviceTime = stats.deviceTimeNs;
    return compareOutputs(dataSet, outputs);
  }

  rt::Device &device_;
  std::string tempDir_;
  passes::StreamMode streams_;
};

/// Counts of each verdict.
struct Tally {
  std::array<int, 3> counts{};
  void add(Verdict v) { ++counts[static_cast<int>(v)]; }
  std::string str() const {
    return std::to_string(counts[0]) + " passed, " + std::to_string(counts[1]) +
           " failed, " + std::to_string(counts[2]) + " skipped";
  }
};

std::set<std::string> readList(const std::string &path) {
  std::set<std::string> names;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    llvm::StringRef name = llvm::StringRef(line).trim();
    if (!name.empty())
      names.insert(name.str());
  }
  return names;
}

} // namespace

int main(int argc, char **argv) {
  std::string root = "/usr/share/libonnx-testdata/data";
  std::vector<std::string> folders;
  std::string expectedFailuresPath, filter;
  bool verbose = false, sanitize = false;
  passes::StreamMode streams = passes::StreamMode::kAuto;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        llvm::errs() << "geflow-conformance: error: " << arg
                     << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--root")
      root = next();
    else if (arg == "--folder")
      folders.push_back(next());
    else if (arg == "--expected-failures")
      expectedFailuresPath = next();
    else if (arg == "--filter")
      filter = next();
    else if (arg == "--verbose")
      verbose = true;
    else if (arg == "--sanitize")
      sanitize = true;
    else if (arg == "--streams") {
      std::string mode = next();
      if (auto parsed = passes::parseStreamMode(mode))
        streams = *parsed;
      else {
        llvm::errs() << "geflow-conformance: error: --streams '" << mode
                     << "' is not one of single, label, auto\n";
        return 2;
      }
    } else {
      llvm::errs() << "geflow-conformance: error: unknown argument '" << arg
                   << "'\n";
      return 2;
    }
  }
  if (folders.empty())
    folders = {"node", "pytorch-converted", "pytorch-operator", "simple"};
  std::set<std::string> expectedFailures;
  if (!expectedFailuresPath.empty())
    expectedFailures = readList(expectedFailuresPath);

  rt::DeviceOptions deviceOptions;
  deviceOptions.workerThreads = 2;
  deviceOptions.sanitize = sanitize;
  std::unique_ptr<rt::Device> device;
  if (rt::Status s = rt::Device::create(deviceOptions, &device); !s.isOk()) {
    llvm::errs() << "geflow-conformance: error: " << s.message() << "\n";
    return 1;
  }
  llvm::SmallString<128> tempDir;
  if (std::error_code ec =
          llvm::sys::fs::createUniqueDirectory("geflow-conformance", tempDir)) {
    llvm::errs()
        << "geflow-conformance: error: cannot make a temporary folder: "
        << ec.message() << "\n";
    return 1;
  }
  Runner runner(*device, std::string(tempDir), streams);

  // The expected-failures list names every test that does not pass under
  // the strict rule (failures and unsupported ops alike), with its reason.
  int unexpected = 0;
  std::map<std::string, Tally> strictTally, boundTally;
  Tally strictTotal, boundTotal;
  for (const std::string &folder : folders) {
    fs::path dir = fs::path(root) / folder;
    if (!fs::is_directory(dir))
      continue;
    std::vector<fs::path> tests;
    for (const auto &entry : fs::directory_iterator(dir))
      if (fs::exists(entry.path() / "model.onnx"))
        tests.push_back(entry.path());
    std::sort(tests.begin(), tests.end());
    for (const fs::path &test : tests) {
      std::string name = folder + "/" + test.filename().string();
      if (!filter.empty() && name.find(filter) == std::string::npos)
        continue;
      Verdicts verdicts = runner.run(test);
      strictTally[folder].add(verdicts.strict.verdict);
      strictTotal.add(verdicts.strict.verdict);
      boundTally[folder].add(verdicts.bound.verdict);
      boundTotal.add(verdicts.bound.verdict);
      bool listed = expectedFailures.count(name) != 0;
      bool passed = verdicts.strict.verdict == Verdict::kPass;
      if (passed == listed)
        ++unexpected;
      if (passed && listed)
        llvm::outs() << "UNEXPECTED PASS " << name
                     << ": remove it from the expected-failures list\n";
      else if (passed && verbose)
        llvm::outs() << "PASS " << name << "\n";
      else if (!passed)
        llvm::outs() << (listed ? "XFAIL " : "FAIL ")
                     << (verdicts.strict.verdict == Verdict::kSkip
                             ? "(unsupported) "
                             : "")
                     << name << ": " << verdicts.strict.reason << "\n";
      if (!passed && verdicts.bound.verdict == Verdict::kPass)
        llvm::outs() << "  passes with its shape inputs bound\n";
    }
  }
  llvm::sys::fs::remove_directories(tempDir);

  for (const auto &[folder, tally] : strictTally)
    llvm::outs() << "  " << folder << ": " << tally.str()
                 << "; with shape inputs bound: " << boundTally[folder].str()
                 << "\n";
  if (unexpected)
    llvm::outs() << unexpected
                 << " result(s) disagree with the expected-failures list\n";
  if (const rt::StreamSanitizer *sanitizer = device->sanitizer()) {
    rt::SanitizerStats stats = sanitizer->stats();
    llvm::outs() << "sanitizer: " << stats.findings << " findings, "
                 << stats.accessesChecked << " accesses checked, "
                 << llvm::format("%.3f", stats.checkSeconds)
                 << " s inside the sanitizer\n";
  }
  llvm::outs() << "with shape inputs bound from the test data: "
               << boundTotal.str() << "\n";
  llvm::outs() << strictTotal.str() << "\n";
  return unexpected ? 1 : 0;
}
