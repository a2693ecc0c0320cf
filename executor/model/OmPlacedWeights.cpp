//===- OmPlacedWeights.cpp ------------------------------------------------===//
#include "executor/model/OmPlacedWeights.h"

#include <cstring>
#include <vector>

namespace geflow::om {
namespace {

/// Everything of `inner` but the weights, which are at `weights`.
class PlacedWeights final : public LoadedOm {
public:
  PlacedWeights(const LoadedOm &inner, const uint8_t *weights)
      : inner_(inner), weights_(weights) {}
  const std::string &socName() const override { return inner_.socName(); }
  const ModelDef &modelDef() const override { return inner_.modelDef(); }
  const GraphDef &graph() const override { return inner_.graph(); }
  const ModelTaskDef &taskDef() const override { return inner_.taskDef(); }
  const MemoryPlan &memoryPlan() const override { return inner_.memoryPlan(); }
  const uint8_t *weights() const override { return weights_; }
  uint64_t weightsSize() const override { return inner_.weightsSize(); }
  // The caller's memory is not ours to give back.
  void dropWeightPages(uint64_t, uint64_t) const override {}
  size_t gearCount() const override { return inner_.gearCount(); }
  const LoadedOm &gear(size_t i) const override {
    return gears_.empty() ? *this : *gears_[i];
  }

  /// A view per gear when the model has gears (a static model is its own).
  void placeGears() {
    if (&inner_.gear(0) == &inner_)
      return;
    for (size_t i = 0; i < inner_.gearCount(); ++i)
      gears_.push_back(
          std::make_unique<PlacedWeights>(inner_.gear(i), weights_));
  }

private:
  const LoadedOm &inner_;
  const uint8_t *weights_;
  std::vector<std::unique_ptr<PlacedWeights>> gears_;
};

/// Owns the loaded OM the placed view reads.
class OwningPlacedWeights final : public LoadedOm {
public:
  OwningPlacedWeights(std::unique_ptr<LoadedOm> inner, const uint8_t *weights)
      : inner_(std::move(inner)), view_(*inner_, weights) {
    view_.placeGears();
  }
  const std::string &socName() const override { return view_.socName(); }
  const ModelDef &modelDef() const override { return view_.modelDef(); }
  const GraphDef &graph() const override { return view_.graph(); }
  const ModelTaskDef &taskDef() const override { return view_.taskDef(); }
  const MemoryPlan &memoryPlan() const override { return view_.memoryPlan(); }
  const uint8_t *weights() const override { return view_.weights(); }
  uint64_t weightsSize() const override { return view_.weightsSize(); }
  size_t gearCount() const override { return view_.gearCount(); }
  const LoadedOm &gear(size_t i) const override {
    const LoadedOm &g = view_.gear(i);
    return &g == &view_ ? *this : g;
  }

private:
  std::unique_ptr<LoadedOm> inner_;
  PlacedWeights view_;
};

} // namespace

std::unique_ptr<LoadedOm> placeWeights(std::unique_ptr<LoadedOm> om,
                                       void *memory) {
  if (om->weightsSize())
    std::memcpy(memory, om->weights(), om->weightsSize());
  const auto *weights = static_cast<const uint8_t *>(memory);
  return std::make_unique<OwningPlacedWeights>(std::move(om), weights);
}

} // namespace geflow::om
