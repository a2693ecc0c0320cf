//===- OpFacts.cpp - lookups over the op table ----------------------------===//

#include "ir/OpFacts.h"

#include "llvm/ADT/StringMap.h"

#include <limits>

using namespace mlir;
using namespace mlir::ge;

namespace {

struct OpFactsRow {
  llvm::StringRef name;
  unsigned step;
  int activationParams; // -1: not an activation
  std::optional<Engine> engine;
};

// The Engine column's values, pasted onto `k`.
constexpr std::optional<Engine> kAIC = Engine::AIC;
constexpr std::optional<Engine> kAIV = Engine::AIV;
constexpr std::optional<Engine> kNone = std::nullopt;

const OpFactsRow kRows[] = {
#define GE_OP(Name, Onnx, Since, Family, Engine, Kernel, Import)               \
  {#Name, 0, -1, k##Engine},
#define GE_ELEMENTWISE(Name, Onnx, Since, Family, Kernel, Types, Step, Act,    \
                       Import)                                                 \
  {#Name, Step, Act, kAIV},
#include "ir/GeOpTable.def"
};

const llvm::StringMap<const OpFactsRow *> &rowIndex() {
  static const llvm::StringMap<const OpFactsRow *> index = [] {
    llvm::StringMap<const OpFactsRow *> map;
    for (const OpFactsRow &row : kRows)
      map[row.name] = &row;
    // A form answers as its op does.
#define GE_FORM(Form, FormOnnx, Name) map[#Form] = map.lookup(#Name);
#include "ir/GeOpTable.def"
    return map;
  }();
  return index;
}

} // namespace

const ElementwiseParams *mlir::ge::elementwiseParams(llvm::StringRef name) {
  static const llvm::StringMap<ElementwiseParams> params = [] {
    llvm::StringMap<ElementwiseParams> map;
    auto nameOf = [](llvm::StringRef param) {
      return param == "_" ? llvm::StringRef() : param;
    };
#define GE_PARAMS(Name, P0, P0Default, P1, P1Default)                          \
  map[#Name] = {{nameOf(#P0), nameOf(#P1)}, {P0Default, P1Default}};
#include "ir/GeOpTable.def"
    return map;
  }();
  auto it = params.find(name);
  return it == params.end() ? nullptr : &it->second;
}

unsigned mlir::ge::elementwiseStepArity(llvm::StringRef name) {
  const OpFactsRow *row = rowIndex().lookup(name);
  return row ? row->step : 0;
}

std::optional<unsigned> mlir::ge::activationParamCount(llvm::StringRef name) {
  if (name == "none")
    return 0;
  const OpFactsRow *row = rowIndex().lookup(name);
  if (!row || row->activationParams < 0)
    return std::nullopt;
  return row->activationParams;
}

std::string mlir::ge::activationNames() {
  std::string names = "none";
  auto add = [&](llvm::StringRef name) {
    if (activationParamCount(name))
      names += ", " + name.str();
  };
  for (const OpFactsRow &row : kRows)
    add(row.name);
#define GE_FORM(Form, FormOnnx, Name) add(#Form);
#include "ir/GeOpTable.def"
  return names;
}

std::optional<Engine> mlir::ge::defaultEngine(llvm::StringRef name) {
  const OpFactsRow *row = rowIndex().lookup(name);
  return row ? row->engine : std::nullopt;
}
