//===- GeOps.cpp - ge op definitions ----------------------------*- C++ -*-===//
//
// The generated op definitions, shard 0 of 2 (with the registration hook;
// GeOps1.cpp holds the other). Verifiers live in one file per family
// (ElementwiseOps.cpp, ShapeOps.cpp, NNOps.cpp, AnnotationOps.cpp), folders
// in Folders.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ge;

#define GET_OP_DEFS_0
#include "ir/GeOps.cpp.inc"
