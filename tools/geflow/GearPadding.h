//===- GearPadding.h - Inputs padded up to a gear, outputs sliced back -*- C++
//-*-===//
//
// `geflow run --pad-to-gear` runs inputs of a shape no gear has on the
// smallest gear that holds them (ATC's advice to align inputs to a few fixed
// lengths, automated): each input grows to the gear's shape with zeros after
// its own elements in every dimension, and each output is cut back to its
// leading block of the real shape.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_TOOLS_GEFLOW_GEARPADDING_H
#define GEFLOW_TOOLS_GEFLOW_GEARPADDING_H

#include "tools/geflow/TensorFiles.h"

namespace geflow::cli {

/// The block of `shape` (the same rank as `tensor`) at `tensor`'s origin:
/// zeros where `tensor` has no element (padding up to a gear), `tensor`'s
/// elements beyond it left out (slicing an output back).
HostTensor fitTensor(const HostTensor &tensor,
                     const std::vector<int64_t> &shape);

} // namespace geflow::cli

#endif // GEFLOW_TOOLS_GEFLOW_GEARPADDING_H
