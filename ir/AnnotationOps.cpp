#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult NpuStreamSwitchOp::verify() { return success(); }
LogicalResult LimitCoreNumOp::verify() { return success(); }
LogicalResult YieldOp::verify() { return success(); }
