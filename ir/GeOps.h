//===- GeOps.h - ge op classes ----------------------------------*- C++ -*-===//

#ifndef GEFLOW_IR_GEOPS_H
#define GEFLOW_IR_GEOPS_H

#include "ir/GeDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "ir/GeOps.h.inc"

#endif // GEFLOW_IR_GEOPS_H
