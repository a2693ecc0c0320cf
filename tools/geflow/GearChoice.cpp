//===- GearChoice.cpp - Which gear `geflow run` runs ----------------------===//

#include "tools/geflow/GearChoice.h"
#include "tools/geflow/GearPadding.h"

using namespace llvm;

namespace geflow::cli {

namespace {

exec::Shapes shapesOf(const std::vector<HostTensor> &tensors) {
  exec::Shapes shapes;
  for (const HostTensor &t : tensors)
    shapes.push_back(t.shape);
  return shapes;
}

} // namespace

Expected<GearChoice> chooseGear(const exec::LoadedModel &model,
                                std::vector<HostTensor> &inputs,
                                bool padToGear) {
  GearChoice choice;
  if (!model.hasGears())
    return choice;
  exec::Shapes given = shapesOf(inputs);
  int gear = model.findGear(given);
  if (gear >= 0) {
    choice.gear = size_t(gear);
    return choice;
  }
  if (!padToGear)
    return createStringError(
        inconvertibleErrorCode(),
        "input shapes " + exec::shapesText(given) + " match no gear of '" +
            model.name() + "' (" + model.describeGears() +
            "); --pad-to-gear runs the smallest gear that holds them");
  gear = exec::smallestGearHolding(model.gearInputShapes(), given);
  if (gear < 0)
    return createStringError(inconvertibleErrorCode(),
                             "input shapes " + exec::shapesText(given) +
                                 " fit in no gear of '" + model.name() + "' (" +
                                 model.describeGears() + ")");
  choice.gear = size_t(gear);
  choice.paddedFrom = given;
  for (size_t i = 0; i < inputs.size(); ++i)
    inputs[i] = fitTensor(inputs[i], model.inputs(choice.gear)[i].shape);
  return choice;
}

void sliceOutputs(const exec::LoadedModel &model, const GearChoice &choice,
                  std::vector<HostTensor> &outputs) {
  if (choice.paddedFrom.empty())
    return;
  std::vector<exec::Shapes> gearInputs = model.gearInputShapes();
  std::vector<exec::Shapes> gearOutputs = model.gearOutputShapes();
  for (size_t o = 0; o < outputs.size(); ++o) {
    exec::Shape real = exec::followedOutputShape(
        gearInputs, gearOutputs, choice.gear, o, choice.paddedFrom);
    if (real != outputs[o].shape)
      outputs[o] = fitTensor(outputs[o], real);
  }
}

std::string describeChoice(const exec::LoadedModel &model,
                           const GearChoice &choice) {
  exec::Shapes shapes = model.gearInputShapes()[choice.gear];
  std::string text =
      model.gearLabel(choice.gear) + " " + exec::shapesText(shapes);
  if (!choice.paddedFrom.empty())
    text += ", inputs padded from " + exec::shapesText(choice.paddedFrom);
  return text;
}

} // namespace geflow::cli
