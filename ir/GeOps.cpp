//===- GeOps.cpp - ge op definitions ----------------------------*- C++ -*-===//
//
// The generated op definitions. Verifiers live in one file per family
// (ElementwiseOps.cpp, ShapeOps.cpp, NNOps.cpp, AnnotationOps.cpp), folders
// in Folders.cpp.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::ge;

#define GET_OP_CLASSES
#include "ir/GeOps.cpp.inc"
