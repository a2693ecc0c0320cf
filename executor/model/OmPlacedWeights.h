//===- OmPlacedWeights.h - An OM whose weights live in the caller's memory ===//
//
// aclmdlLoadFromFileWithMem and aclmdlLoadFromMemWithMem place a model's
// weights in memory the caller allocated (aclmdlQuerySize says how much):
// the weights are copied there once, and every kernel reads them there.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OMPLACEDWEIGHTS_H
#define GEFLOW_EXECUTOR_MODEL_OMPLACEDWEIGHTS_H

#include "executor/model/OmModel.h"

#include <memory>

namespace geflow::om {

/// `om` with its weights copied into `memory`, which holds at least
/// om->weightsSize() bytes and outlives the result.
std::unique_ptr<LoadedOm> placeWeights(std::unique_ptr<LoadedOm> om,
                                       void *memory);

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OMPLACEDWEIGHTS_H
