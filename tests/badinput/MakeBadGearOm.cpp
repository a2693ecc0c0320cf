//===- MakeBadGearOm.cpp - crafted bad gear tables ------------------------===//
//
// The gear half of the OM cases: a model compiled with two batch gears
// (x[N,4] at 1 and 2), damaged in its gear table or in one gear's program,
// each written back with a valid container so the loader's gear checks
// (executor/model/OmGearValidation.cpp) are what refuse it.
//
//===----------------------------------------------------------------------===//

#include "tests/badinput/BadInputs.h"

#include <functional>
#include <vector>

namespace geflow::badinput {
namespace {

using namespace geflow::om;

struct GearCase {
  const char *file;
  std::function<void(OmModel &)> damage;
};

const std::vector<GearCase> &gearCases() {
  static const std::vector<GearCase> cases = {
      {"one_gear",
       [](OmModel &m) {
         m.modelDef.mutable_gears()->mutable_gear()->RemoveLast();
         m.modelDef.mutable_graph()->RemoveLast();
         m.taskDef.mutable_gear()->RemoveLast();
         m.memoryPlan.mutable_gear()->RemoveLast();
       }},
      {"graph_missing",
       [](OmModel &m) { m.modelDef.mutable_graph()->RemoveLast(); }},
      {"dims_wrong",
       [](OmModel &m) {
         m.modelDef.mutable_gears()->mutable_gear(1)->set_dims(0, 3);
       }},
      {"output_shape_wrong",
       [](OmModel &m) {
         m.modelDef.mutable_gears()
             ->mutable_gear(1)
             ->mutable_output_shape(0)
             ->set_dim(0, 7);
       }},
      {"top_level_task",
       [](OmModel &m) { *m.taskDef.add_task() = m.taskDef.gear(0).task(0); }},
      {"workspace_small",
       [](OmModel &m) { m.memoryPlan.set_workspace_size(0); }},
      {"program_op_out_of_range",
       [](OmModel &m) {
         for (TaskDef &t : *m.taskDef.mutable_gear(1)->mutable_task())
           if (t.type() == KERNEL) {
             t.set_op_index(100000);
             return;
           }
         fail("gear 1 has no kernel task");
       }},
      {"runtime_without_source",
       [](OmModel &m) {
         m.modelDef.mutable_gears()->set_mode(GearTable::RUNTIME_SHAPES);
       }},
  };
  return cases;
}

} // namespace

void writeGearOmCases(const std::string &gearsOm, const std::string &dir) {
  std::string good = readFile(gearsOm);
  if (decode(good).modelDef.gears().gear_size() != 2)
    fail(gearsOm + " is not a model with two gears");
  for (const GearCase &c : gearCases()) {
    OmModel model = decode(good);
    c.damage(model);
    writeFile(dir + "/gears_" + c.file + ".om", encode(model));
  }
}

} // namespace geflow::badinput
