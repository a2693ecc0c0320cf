//===- Gears.cpp - compile an ONNX file once per gear ---------------------===//

#include "tools/driver/Gears.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <chrono>

namespace geflow::driver {

llvm::Expected<CompileResult>
compileOnnxFileWithGears(llvm::StringRef path, const CompileOptions &options,
                         const GearOptions &gears) {
  auto start = std::chrono::steady_clock::now();
  auto declared = readOnnxInputSignature(path, options.import);
  if (!declared)
    return declared.takeError();
  auto plan = planGears(gears, *declared, options.import.inputShapes);
  if (!plan)
    return plan.takeError();

  std::string name = options.modelName.empty()
                         ? llvm::sys::path::stem(path).str()
                         : options.modelName;
  GearMerger merger(*plan, name);
  CompileResult result;
  passes::CompileStats &total = result.stats;
  for (const GearPlan::Gear &gear : plan->gears) {
    CompileOptions one = options;
    one.modelName = name;
    one.import.inputShapes.clear();
    for (size_t i = 0; i < plan->inputNames.size(); ++i)
      one.import.inputShapes.emplace_back(plan->inputNames[i],
                                          gear.inputShapes[i]);
    if (!options.dumpGraphDir.empty()) {
      llvm::SmallString<256> dir(options.dumpGraphDir);
      llvm::sys::path::append(dir, gear.label);
      one.dumpGraphDir = std::string(dir);
    }
    auto compiled = compileOnnxFile(path, one);
    if (!compiled) {
      std::string values;
      for (int64_t v : gear.dims)
        values += (values.empty() ? "" : ",") + std::to_string(v);
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "gear " + gear.label + " (" + values +
              "): " + llvm::toString(compiled.takeError()));
    }
    const passes::CompileStats &s = compiled->stats;
    total.opCount += s.opCount;
    total.computeOpCount += s.computeOpCount;
    total.kernelCount += s.kernelCount;
    total.taskCount += s.taskCount;
    total.streamCount = std::max(total.streamCount, s.streamCount);
    total.eventCount = std::max(total.eventCount, s.eventCount);
    total.eventsBeforeReduction =
        std::max(total.eventsBeforeReduction, s.eventsBeforeReduction);
    total.workspaceBytes = std::max(total.workspaceBytes, s.workspaceBytes);
    total.workspaceBytesWithoutReuse = std::max(
        total.workspaceBytesWithoutReuse, s.workspaceBytesWithoutReuse);
    result.gearStats.push_back(s);
    if (llvm::Error err = merger.add(std::move(compiled->model)))
      return std::move(err);
  }
  auto merged = merger.finish();
  if (!merged)
    return merged.takeError();
  result.model = std::move(*merged);
  result.validated = true; // GearMerger::finish validated the merge
  total.weightsBytes = result.model.weightsSize();
  total.compileTimeMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - start)
                            .count();
  return result;
}

} // namespace geflow::driver
