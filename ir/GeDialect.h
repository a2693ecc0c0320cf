//===- GeDialect.h - the ge dialect -----------------------------*- C++ -*-===//
//
// Include this to register the dialect; include ir/GeOps.h to use its ops.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEDIALECT_H
#define GEFLOW_IR_GEDIALECT_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "ir/GeDialect.h.inc"
#include "ir/GeEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ir/GeAttrs.h.inc"

namespace mlir::ge {
/// Adds the ge dialect to `registry` (for geflow-opt and the importer).
void registerGeDialect(DialectRegistry &registry);
} // namespace mlir::ge

#endif // GEFLOW_IR_GEDIALECT_H
