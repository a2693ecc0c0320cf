//===- GeOps1.cpp - generated op definitions, shard 1 of 2 ---*- C++ -*-===//
//
// See GeOps.cpp: the generated definitions are sharded to keep compiles short.
//
//===----------------------------------------------------------------------===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

#define GET_OP_DEFS_1
#include "ir/GeOps.cpp.inc"
