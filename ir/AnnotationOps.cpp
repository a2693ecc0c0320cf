//===- AnnotationOps.cpp - verifiers of the annotation ops ------*- C++ -*-===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult NpuStreamSwitchOp::verify() {
  if (getTag().empty())
    return emitOpError() << "stream tag must not be empty";
  if (getPriority() < 0)
    return emitOpError() << "priority is " << getPriority()
                         << " but must be >= 0";
  return success();
}

LogicalResult LimitCoreNumOp::verify() {
  if (getAicoreNum() < 1)
    return emitOpError() << "aicore_num is " << getAicoreNum()
                         << " but must be >= 1";
  if (getVectorcoreNum() < 0)
    return emitOpError() << "vectorcore_num is " << getVectorcoreNum()
                         << " but must be >= 0";
  return success();
}

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (getOperandTypes() != parent->getResultTypes())
    return emitOpError() << "yields " << getOperandTypes().size()
                         << " value(s) whose types do not match the "
                         << parent->getResultTypes().size() << " result(s) of '"
                         << parent->getName() << "'";
  return success();
}
