//===- OmGearValidation.h - the loader's checks of a model's gears -*- C++ -*-//
//
// A model with gears (om.proto's GearTable) is validated gear by gear: each
// gear's program as a static model is, then the table against the programs.
// Internal to the OM library; callers use validateOmModel (OmFormat.h).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_MODEL_OMGEARVALIDATION_H
#define GEFLOW_EXECUTOR_MODEL_OMGEARVALIDATION_H

#include "executor/model/OmModel.h"

#include <string>

namespace geflow::om {

/// True when any partition has a gear section: a gear table, a second
/// graph, or per-gear tasks or memory plans.
bool hasGearSections(const ModelDef &modelDef, const ModelTaskDef &tasks,
                     const MemoryPlan &memory);

/// The gear table, every gear's program and how the top-level sections
/// cover them. Each failure names the gear.
rt::Status validateGears(const ModelDef &modelDef, const ModelTaskDef &tasks,
                         const MemoryPlan &memory, uint64_t weightsSize,
                         const std::string &sourceName, const OmLimits &limits);

/// Gear `gear`'s program (graph[gear] with `tasks` and `memory`) as a static
/// model is validated (OmValidation.cpp).
rt::Status validateGearProgram(const ModelDef &modelDef, int gear,
                               const ModelTaskDef &tasks,
                               const MemoryPlan &memory, uint64_t weightsSize,
                               const std::string &sourceName,
                               const OmLimits &limits);

} // namespace geflow::om

#endif // GEFLOW_EXECUTOR_MODEL_OMGEARVALIDATION_H
