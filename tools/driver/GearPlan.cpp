//===- GearPlan.cpp - ATC's gear options checked against the inputs -------===//

#include "tools/driver/Gears.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace geflow::driver {
namespace {

llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string joined(const std::vector<int64_t> &values) {
  return llvm::join(
      llvm::map_range(values, [](int64_t v) { return std::to_string(v); }),
      ",");
}

/// The option that is set, its flag and its mode; an error unless exactly
/// one is.
struct ChosenOption {
  llvm::StringRef flag;
  llvm::StringRef text;
  om::GearTable::Mode mode;
};

llvm::Expected<ChosenOption> chooseOption(const GearOptions &gears) {
  std::vector<ChosenOption> set;
  if (!gears.dynamicBatchSize.empty())
    set.push_back({"--dynamic-batch-size", gears.dynamicBatchSize,
                   om::GearTable::DYNAMIC_BATCH});
  if (!gears.dynamicImageSize.empty())
    set.push_back({"--dynamic-image-size", gears.dynamicImageSize,
                   om::GearTable::DYNAMIC_IMAGE_SIZE});
  if (!gears.dynamicDims.empty())
    set.push_back(
        {"--dynamic-dims", gears.dynamicDims, om::GearTable::DYNAMIC_DIMS});
  if (set.size() != 1)
    return fail("give exactly one of --dynamic-batch-size, "
                "--dynamic-image-size and --dynamic-dims (" +
                llvm::Twine(set.size()) + " given)");
  return set[0];
}

/// The profile of each gear: --dynamic-batch-size separates gears with ',',
/// the others with ';' and the values of one gear with ','.
llvm::Expected<std::vector<std::vector<int64_t>>>
parseProfiles(const ChosenOption &option) {
  auto bad = [&](const llvm::Twine &why) {
    return fail(option.flag + " '" + option.text + "': " + why);
  };
  bool batch = option.mode == om::GearTable::DYNAMIC_BATCH;
  llvm::SmallVector<llvm::StringRef> groups;
  option.text.split(groups, batch ? ',' : ';', -1, /*KeepEmpty=*/true);
  std::vector<std::vector<int64_t>> profiles;
  for (llvm::StringRef group : groups) {
    llvm::SmallVector<llvm::StringRef> parts;
    if (batch)
      parts.push_back(group);
    else
      group.split(parts, ',', -1, /*KeepEmpty=*/true);
    std::vector<int64_t> values;
    for (llvm::StringRef part : parts) {
      int64_t v;
      if (part.trim().getAsInteger(10, v) || v <= 0)
        return bad("'" + part.trim() + "' is not a positive integer");
      values.push_back(v);
    }
    profiles.push_back(std::move(values));
  }
  if (profiles.size() < kMinGears || profiles.size() > kMaxGears)
    return bad(llvm::formatv("{0} gears; ATC allows {1} to {2}",
                             profiles.size(), kMinGears, kMaxGears)
                   .str());
  std::map<std::vector<int64_t>, size_t> seen;
  for (size_t i = 0; i < profiles.size(); ++i) {
    auto [it, fresh] = seen.emplace(profiles[i], i);
    if (!fresh)
      return bad(llvm::formatv("gear {0} ({1}) repeats gear {2}", i,
                               joined(profiles[i]), it->second)
                     .str());
  }
  return profiles;
}

/// Each input's shape: its --input-shape entry, else as the model declares
/// it; -1 where a gear fills.
llvm::Error buildTemplate(const std::vector<DeclaredInput> &declared,
                          const std::vector<InputShape> &inputShapes,
                          GearPlan &plan) {
  std::map<std::string, const std::vector<int64_t> *> given;
  for (const InputShape &entry : inputShapes) {
    if (!llvm::any_of(declared, [&](const DeclaredInput &in) {
          return in.name == entry.first;
        }))
      return fail("--input-shape: the model has no input named '" +
                  entry.first + "'");
    given[entry.first] = &entry.second;
  }
  for (const DeclaredInput &in : declared) {
    std::vector<int64_t> dims = in.dims;
    if (auto it = given.find(in.name); it != given.end()) {
      const std::vector<int64_t> &fixed = *it->second;
      if (in.hasShape && fixed.size() != in.dims.size())
        return fail(llvm::formatv("--input-shape: input '{0}' has rank {1}, "
                                  "but {2} dims were given",
                                  in.name, in.dims.size(), fixed.size())
                        .str());
      for (size_t d = 0; in.hasShape && d < fixed.size(); ++d)
        if (fixed[d] == -1 && in.dims[d] != -1)
          return fail(llvm::formatv("--input-shape: input '{0}' dim {1} is "
                                    "fixed to {2} by the model, not -1",
                                    in.name, d, in.dims[d])
                          .str());
      dims = fixed;
    } else if (!in.hasShape) {
      return fail("graph input '" + in.name +
                  "' has no shape; give it with --input-shape " + in.name +
                  ":<d0,d1,...>");
    }
    plan.inputNames.push_back(in.name);
    plan.inputTemplate.push_back(std::move(dims));
  }
  return llvm::Error::success();
}

/// Where the mode wants the -1s, and how many values a gear gives.
llvm::Expected<size_t> checkTemplate(const ChosenOption &option,
                                     const GearPlan &plan) {
  size_t open = 0;
  for (size_t i = 0; i < plan.inputTemplate.size(); ++i) {
    const std::vector<int64_t> &dims = plan.inputTemplate[i];
    const std::string &name = plan.inputNames[i];
    size_t inputOpen = llvm::count(dims, -1);
    open += inputOpen;
    if (inputOpen == 0)
      continue;
    if (option.mode == om::GearTable::DYNAMIC_BATCH)
      for (size_t d = 1; d < dims.size(); ++d)
        if (dims[d] == -1)
          return fail(llvm::formatv("{0} needs each input's -1 at dim 0, but "
                                    "input '{1}' has one at dim {2}",
                                    option.flag, name, d)
                          .str());
    if (option.mode == om::GearTable::DYNAMIC_IMAGE_SIZE &&
        (dims.size() != 4 || dims[0] == -1 || dims[1] == -1 || dims[2] != -1 ||
         dims[3] != -1))
      return fail(option.flag +
                  " needs the -1s at H and W (dims 2, 3) of a "
                  "4-D NCHW input, but input '" +
                  name + "' is [" + joined(dims) + "]");
  }
  if (open == 0)
    return fail(option.flag + ": no input has a -1 dim; open one with "
                              "--input-shape NAME:-1,...");
  switch (option.mode) {
  case om::GearTable::DYNAMIC_BATCH:
    return 1;
  case om::GearTable::DYNAMIC_IMAGE_SIZE:
    return 2;
  default:
    return open;
  }
}

/// Every input's shape in one gear.
std::vector<std::vector<int64_t>> fill(const GearPlan &plan,
                                       const std::vector<int64_t> &values) {
  std::vector<std::vector<int64_t>> shapes = plan.inputTemplate;
  size_t next = 0;
  for (std::vector<int64_t> &dims : shapes)
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] != -1)
        continue;
      switch (plan.mode) {
      case om::GearTable::DYNAMIC_BATCH:
        dims[d] = values[0];
        break;
      case om::GearTable::DYNAMIC_IMAGE_SIZE:
        dims[d] = values[d - 2];
        break;
      default:
        dims[d] = values[next++];
        break;
      }
    }
  return shapes;
}

} // namespace

std::string gearLabel(size_t i) { return "Batch_" + std::to_string(i); }

llvm::Expected<GearPlan> planGears(const GearOptions &gears,
                                   const std::vector<DeclaredInput> &declared,
                                   const std::vector<InputShape> &inputShapes) {
  llvm::Expected<ChosenOption> option = chooseOption(gears);
  if (!option)
    return option.takeError();
  auto profiles = parseProfiles(*option);
  if (!profiles)
    return profiles.takeError();
  GearPlan plan;
  plan.mode = option->mode;
  if (llvm::Error err = buildTemplate(declared, inputShapes, plan))
    return std::move(err);
  llvm::Expected<size_t> perGear = checkTemplate(*option, plan);
  if (!perGear)
    return perGear.takeError();
  for (size_t i = 0; i < profiles->size(); ++i) {
    std::vector<int64_t> &values = (*profiles)[i];
    if (values.size() != *perGear)
      return fail(llvm::formatv("{0} '{1}': gear {2} ({3}) has {4} value(s), "
                                "the inputs' -1s need {5}",
                                option->flag, option->text, i, joined(values),
                                values.size(), *perGear)
                      .str());
    GearPlan::Gear gear;
    gear.inputShapes = fill(plan, values);
    gear.dims = std::move(values);
    gear.label = gearLabel(i);
    plan.gears.push_back(std::move(gear));
  }
  return plan;
}

} // namespace geflow::driver
