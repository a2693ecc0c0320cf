//===- GearSelection.h - Which compiled gear serves which input shapes -*- C++
//-*-===//
//
// Shape arithmetic over a model's gears, each gear given as its inputs'
// shapes (LoadedModel::inputs(g)) and, where needed, its outputs' shapes: no
// model, device or file, so `geflow run`, aclmdl* and the tests share one
// rule.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_GEARSELECTION_H
#define GEFLOW_EXECUTOR_RUNNER_GEARSELECTION_H

#include <cstdint>
#include <string>
#include <vector>

namespace geflow::exec {

using Shape = std::vector<int64_t>;
/// One shape per tensor, for one gear.
using Shapes = std::vector<Shape>;

/// The gear with the fewest input elements whose every input holds the given
/// one (same rank, no dimension smaller), or -1: ATC's advice to align inputs
/// to a few fixed lengths, as `geflow run --pad-to-gear` applies it.
int smallestGearHolding(const std::vector<Shapes> &gearInputs,
                        const Shapes &given);

/// The gear with the most input elements (the last of equals): what
/// AscendCL's descriptions report for a model with gears.
int largestGear(const std::vector<Shapes> &gearInputs);

/// Output `o`'s shape after an execution of gear `gear` on inputs of shapes
/// `given` (each held by the gear's): every output dimension that follows an
/// input dimension across the gears (equal to it at every gear, and not the
/// same at all of them) takes that input dimension's given value; the others
/// keep the gear's. What a padded execution's outputs are sliced back to.
Shape followedOutputShape(const std::vector<Shapes> &gearInputs,
                          const std::vector<Shapes> &gearOutputs, size_t gear,
                          size_t o, const Shapes &given);

/// "[1,3,224,224]".
std::string shapeText(const Shape &shape);
/// "[1,4] [2]": one per tensor.
std::string shapesText(const Shapes &shapes);

} // namespace geflow::exec

#endif // GEFLOW_EXECUTOR_RUNNER_GEARSELECTION_H
