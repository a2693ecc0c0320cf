//===- GearChoice.h - Which gear `geflow run` runs ------------*- C++ -*-===//
//
// A model with gears runs the gear whose inputs have the given inputs'
// shapes; with --pad-to-gear, inputs no gear has are padded up to the
// smallest gear that holds them and the outputs cut back afterwards. A static
// model is its one gear (bindInputs has checked the shapes).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_GEARCHOICE_H
#define GEFLOW_TOOLS_GEFLOW_GEARCHOICE_H

#include "executor/runner/ModelExecutor.h"
#include "tools/geflow/TensorFiles.h"

#include "llvm/Support/Error.h"

namespace geflow::cli {

struct GearChoice {
  size_t gear = 0;
  /// The inputs' shapes as given; set only when they were padded.
  std::vector<std::vector<int64_t>> paddedFrom;
};

/// The gear for `inputs` (in the model's input order); with `padToGear`,
/// pads `inputs` in place when no gear has their shapes. A shape no gear has
/// (or holds, with `padToGear`) is an error listing the gears.
llvm::Expected<GearChoice> chooseGear(const exec::LoadedModel &model,
                                      std::vector<HostTensor> &inputs,
                                      bool padToGear);

/// After a padded execution: every output dimension that follows an input
/// dimension across the gears cut back to the given input's.
void sliceOutputs(const exec::LoadedModel &model, const GearChoice &choice,
                  std::vector<HostTensor> &outputs);

/// "Batch_1 [2,4]", with " padded from [3,4]" when it was.
std::string describeChoice(const exec::LoadedModel &model,
                           const GearChoice &choice);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_GEARCHOICE_H
