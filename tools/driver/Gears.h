//===- Gears.h - ATC's dynamic gears: one OM, one program per gear -*- C++ -*-//
//
// `geflow compile --dynamic-batch-size "1,2,4,8"` (or --dynamic-image-size,
// --dynamic-dims) compiles the model once per gear, every -1 of the inputs
// filled with the gear's values, and merges the programs into one OM model:
// graph[i], TASK_INFO gear[i] and MEMORY gear[i] are gear i's, WEIGHTS holds
// each distinct constant once, and the GearTable says which gear is which
// (executor/model/om.proto). The checks are ATC's; each error is one line.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_DRIVER_GEARS_H
#define GEFLOW_TOOLS_DRIVER_GEARS_H

#include "tools/driver/CompileDriver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace geflow::driver {

/// The three ATC options as given on the command line; at most one is set.
struct GearOptions {
  std::string dynamicBatchSize; // "1,2,4,8"
  std::string dynamicImageSize; // "224,224;448,448"
  std::string dynamicDims;      // "1,16;1,32"

  /// True when any of the three is set.
  bool any() const {
    return !dynamicBatchSize.empty() || !dynamicImageSize.empty() ||
           !dynamicDims.empty();
  }
};

/// ATC allows 2 to 100 gears.
inline constexpr size_t kMinGears = 2;
inline constexpr size_t kMaxGears = 100;

/// The gears of one compile: each input's shape with its -1s (the template)
/// and, per gear, the values that fill them and every input's full shape.
struct GearPlan {
  om::GearTable::Mode mode = om::GearTable::STATIC;
  std::vector<std::string> inputNames;
  std::vector<std::vector<int64_t>> inputTemplate; // -1 where a gear fills
  struct Gear {
    std::vector<int64_t> dims; // ATC's profile: "4", "224,224", "1,16"
    std::string label;         // "Batch_0", ...
    std::vector<std::vector<int64_t>> inputShapes;
  };
  std::vector<Gear> gears;
};

/// The gear label GE gives gear `i`: "Batch_<i>" whatever the mode.
std::string gearLabel(size_t i);

/// Checks `gears` against the inputs and builds the plan. `declared` are the
/// model's inputs (readOnnxInputSignature); `inputShapes` the --input-shape
/// entries, whose -1s open a dim (a dim the model leaves symbolic and no
/// entry fixes is -1 too). ATC's rules: exactly one option, 2..100 gears, no
/// duplicate gear, values > 0, every gear fills every -1; the -1s of
/// --dynamic-batch-size at dim 0, of --dynamic-image-size at dims 2 and 3
/// of 4-D inputs.
llvm::Expected<GearPlan> planGears(const GearOptions &gears,
                                   const std::vector<DeclaredInput> &declared,
                                   const std::vector<InputShape> &inputShapes);

/// Builds one model with gears from one compile per gear of `plan`, added in
/// plan order (each a static model). WEIGHTS holds each distinct constant
/// once; the merged model keeps (through keepAlive) the gears whose bytes it
/// stores and lets the others go as soon as they are added, so merging N
/// batch gears holds about one compile's memory, not N. `name` is the
/// ModelDef's name.
class GearMerger {
public:
  GearMerger(const GearPlan &plan, llvm::StringRef name);
  ~GearMerger();
  llvm::Error add(om::OmModel gear);
  /// The merged model, validated as the loader would; once, after every
  /// gear of the plan is added.
  llvm::Expected<om::OmModel> finish();

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// GearMerger over compiles already made.
llvm::Expected<om::OmModel> mergeGears(const GearPlan &plan,
                                       std::vector<om::OmModel> gears,
                                       llvm::StringRef name);

/// planGears on the file's inputs and options.import.inputShapes, one
/// compileOnnxFile per gear, mergeGears. `stats` sums kernels and tasks over
/// the gears and takes the largest streams, events and workspace;
/// CompileResult::gearStats holds each gear's. With options.dumpGraphDir,
/// gear i's stages go to DIR/Batch_<i>/.
llvm::Expected<CompileResult>
compileOnnxFileWithGears(llvm::StringRef path, const CompileOptions &options,
                         const GearOptions &gears);

} // namespace geflow::driver

#endif // GEFLOW_TOOLS_DRIVER_GEARS_H
