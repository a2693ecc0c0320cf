//===- GeDialect.cpp - the ge dialect ---------------------------*- C++ -*-===//
//
// Dialect registration, constant materialisation and the verification of the
// discardable scheduling attributes listed in ir/README.md.
//
//===----------------------------------------------------------------------===//

#include "ir/GeDialect.h"
#include "ir/GeOps.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::ge;

#include "ir/GeDialect.cpp.inc"

void GeDialect::initialize() {
  registerGeDialectOperations(this);
  registerAttributes();
}

void mlir::ge::registerGeDialect(DialectRegistry &registry) {
  registry.insert<GeDialect>();
}

Operation *GeDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, elements);
}

//===----------------------------------------------------------------------===//
// Scheduling attributes
//===----------------------------------------------------------------------===//

/// Checks one `ge.*` attribute wherever it sits; `emitError` names the place.
static LogicalResult
verifyScheduleAttr(NamedAttribute attr,
                   function_ref<InFlightDiagnostic()> emitError) {
  StringRef name = attr.getName().strref();
  Attribute value = attr.getValue();

  auto requireInt = [&](int64_t min) -> LogicalResult {
    auto i = dyn_cast<IntegerAttr>(value);
    if (!i || !i.getType().isInteger(64))
      return emitError() << "attribute '" << name << "' must be an i64 integer";
    if (i.getInt() < min)
      return emitError() << "attribute '" << name << "' is " << i.getInt()
                         << " but must be >= " << min;
    return success();
  };
  auto requireString = [&]() -> FailureOr<StringRef> {
    auto s = dyn_cast<StringAttr>(value);
    if (!s)
      return emitError() << "attribute '" << name << "' must be a string";
    if (s.getValue().empty())
      return emitError() << "attribute '" << name << "' must not be empty";
    return s.getValue();
  };

  if (name == GeDialect::kEngineAttr) {
    if (!isa<EngineAttr>(value))
      return emitError() << "attribute '" << name
                         << "' must be an engine (#ge.engine<AIC>, AIV, MIX, "
                            "AICPU, DVPP or HOST)";
    return success();
  }
  if (name == GeDialect::kStreamAttr ||
      name == GeDialect::kStreamPriorityAttr ||
      name == GeDialect::kVectorcoreNumAttr ||
      name == GeDialect::kWorkspaceSizeAttr ||
      name == GeDialect::kWorkspaceSizeNoReuseAttr ||
      name == GeDialect::kEventsBeforeReductionAttr)
    return requireInt(0);
  if (name == GeDialect::kAicoreNumAttr || name == GeDialect::kBlockDimAttr)
    return requireInt(1);
  if (name == GeDialect::kFlopsAttr || name == GeDialect::kBytesAttr) {
    auto f = dyn_cast<FloatAttr>(value);
    if (!f || f.getValueAsDouble() < 0)
      return emitError() << "attribute '" << name << "' must be a float >= 0";
    return success();
  }
  if (name == GeDialect::kStreamLabelAttr || name == GeDialect::kNameAttr)
    return requireString();
  if (name == GeDialect::kInnerParallelAttr) {
    if (!isa<BoolAttr>(value))
      return emitError() << "attribute '" << name << "' must be a bool";
    return success();
  }
  if (name == GeDialect::kSendEventsAttr ||
      name == GeDialect::kRecvEventsAttr ||
      name == GeDialect::kOutputOffsetsAttr ||
      name == GeDialect::kInputOffsetsAttr ||
      name == GeDialect::kPredictedMakespanAttr ||
      name == GeDialect::kLowerBoundAttr) {
    auto ids = dyn_cast<DenseI64ArrayAttr>(value);
    if (!ids)
      return emitError() << "attribute '" << name << "' must be an array<i64>";
    for (int64_t id : ids.asArrayRef())
      if (id < 0)
        return emitError() << "attribute '" << name << "' has " << id
                           << " but its values must be >= 0";
    return success();
  }
  if (name == GeDialect::kNoTaskAttr) {
    if (!isa<UnitAttr>(value))
      return emitError() << "attribute '" << name << "' must be a unit";
    return success();
  }
  return emitError()
         << "unknown attribute '" << name
         << "' (ge scheduling attributes are listed in ir/README.md)";
}

LogicalResult GeDialect::verifyOperationAttribute(Operation *op,
                                                  NamedAttribute attr) {
  return verifyScheduleAttr(attr, [&] { return op->emitOpError(); });
}

LogicalResult GeDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attr) {
  return verifyScheduleAttr(attr, [&] {
    return op->emitOpError() << "argument #" << argIndex << ": ";
  });
}

LogicalResult GeDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attr) {
  return verifyScheduleAttr(attr, [&] {
    return op->emitOpError() << "result #" << resultIndex << ": ";
  });
}
