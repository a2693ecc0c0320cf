//===- OpFacts.h - what the op table says about a ge op ----------*- C++
//-*-===//
//
// Lookups over ir/GeOpTable.def for the dialect and the passes: the step a
// fused elementwise program may take, the activations a fused cube op may
// end with, their float parameters, and the engine an op runs on. Names are
// mnemonics without the "ge." prefix ("hard_swish"), or a form of one
// ("gelu_tanh").
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_IR_OPFACTS_H
#define GEFLOW_IR_OPFACTS_H

#include "ir/GeDialect.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::ge {

/// Operands `name` reads as a step of ge.fused_elementwise: 1 or 2; 0 when
/// it is not a step.
unsigned elementwiseStepArity(llvm::StringRef name);

/// The number of `activation_params` activation `name` takes ("none" takes
/// 0); nullopt when it cannot end a fused cube op.
std::optional<unsigned> activationParamCount(llvm::StringRef name);

/// "none, relu, ..." in table order, for messages.
std::string activationNames();

/// The float attributes of an elementwise op in ONNX order, with ONNX's
/// defaults; an absent one has an empty name.
struct ElementwiseParams {
  llvm::StringRef names[2];
  float defaults[2];
};
/// Null when `name` takes no float attributes.
const ElementwiseParams *elementwiseParams(llvm::StringRef name);

/// The engine op `name` runs on (cube work on AIC, the rest on AIV); nullopt
/// for an op that is not a task or is not in the table.
std::optional<Engine> defaultEngine(llvm::StringRef name);

} // namespace mlir::ge

#endif // GEFLOW_IR_OPFACTS_H
