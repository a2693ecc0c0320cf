//===- GearSelection.cpp - Which compiled gear serves which input shapes --===//

#include "executor/runner/GearSelection.h"

namespace geflow::exec {

namespace {

int64_t elementsOf(const Shapes &shapes) {
  int64_t n = 0;
  for (const Shape &s : shapes) {
    int64_t e = 1;
    for (int64_t d : s)
      e *= d;
    n += e;
  }
  return n;
}

bool holds(const Shapes &gear, const Shapes &given) {
  if (gear.size() != given.size())
    return false;
  for (size_t i = 0; i < gear.size(); ++i) {
    if (gear[i].size() != given[i].size())
      return false;
    for (size_t d = 0; d < gear[i].size(); ++d)
      if (given[i][d] > gear[i][d])
        return false;
  }
  return true;
}

/// The value of dimension `d` of tensor `t` at every gear; empty when some
/// gear's tensor has no such dimension.
std::vector<int64_t> acrossGears(const std::vector<Shapes> &gears, size_t t,
                                 size_t d) {
  std::vector<int64_t> values;
  for (const Shapes &g : gears) {
    if (t >= g.size() || d >= g[t].size())
      return {};
    values.push_back(g[t][d]);
  }
  return values;
}

bool allSame(const std::vector<int64_t> &v) {
  for (int64_t x : v)
    if (x != v.front())
      return false;
  return true;
}

} // namespace

int smallestGearHolding(const std::vector<Shapes> &gearInputs,
                        const Shapes &given) {
  int best = -1;
  for (size_t g = 0; g < gearInputs.size(); ++g)
    if (holds(gearInputs[g], given) &&
        (best < 0 || elementsOf(gearInputs[g]) < elementsOf(gearInputs[best])))
      best = int(g);
  return best;
}

int largestGear(const std::vector<Shapes> &gearInputs) {
  int best = gearInputs.empty() ? -1 : 0;
  for (size_t g = 1; g < gearInputs.size(); ++g)
    if (elementsOf(gearInputs[g]) >= elementsOf(gearInputs[best]))
      best = int(g);
  return best;
}

Shape followedOutputShape(const std::vector<Shapes> &gearInputs,
                          const std::vector<Shapes> &gearOutputs, size_t gear,
                          size_t o, const Shapes &given) {
  Shape shape = gearOutputs[gear][o];
  for (size_t d = 0; d < shape.size(); ++d) {
    std::vector<int64_t> out = acrossGears(gearOutputs, o, d);
    if (out.empty() || allSame(out))
      continue;
    bool found = false;
    for (size_t i = 0; i < given.size() && !found; ++i)
      for (size_t j = 0; j < given[i].size() && !found; ++j)
        if (acrossGears(gearInputs, i, j) == out) {
          shape[d] = given[i][j];
          found = true;
        }
  }
  return shape;
}

std::string shapeText(const Shape &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

std::string shapesText(const Shapes &shapes) {
  std::string s;
  for (const Shape &shape : shapes)
    s += (s.empty() ? "" : " ") + shapeText(shape);
  return s;
}

} // namespace geflow::exec
