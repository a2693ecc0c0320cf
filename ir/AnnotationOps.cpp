//===- AnnotationOps.cpp - verifiers of the annotation ops ------*- C++ -*-===//

#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult NpuStreamSwitchOp::verify() {
  if (getTag().empty())
    return emitOpError() << "stream tag must not be empty";
  if (static_cast<int64_t>(getPriority()) < 0)
    return emitOpError() << "priority is "
                         << static_cast<int64_t>(getPriority())
                         << " but must be >= 0";
  return success();
}

LogicalResult LimitCoreNumOp::verify() {
  if (static_cast<int64_t>(getAicoreNum()) < 1)
    return emitOpError() << "aicore_num is "
                         << static_cast<int64_t>(getAicoreNum())
                         << " but must be >= 1";
  if (static_cast<int64_t>(getVectorcoreNum()) < 0)
    return emitOpError() << "vectorcore_num is "
                         << static_cast<int64_t>(getVectorcoreNum())
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
