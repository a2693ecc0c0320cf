#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult ConvOp::verify() { return success(); }
LogicalResult ConvTransposeOp::verify() { return success(); }
LogicalResult AveragePoolOp::verify() { return success(); }
LogicalResult MaxPoolOp::verify() { return success(); }
LogicalResult GlobalAveragePoolOp::verify() { return success(); }
LogicalResult GlobalMaxPoolOp::verify() { return success(); }
LogicalResult BatchNormalizationOp::verify() { return success(); }
LogicalResult InstanceNormalizationOp::verify() { return success(); }
LogicalResult LayerNormalizationOp::verify() { return success(); }
LogicalResult GemmOp::verify() { return success(); }
LogicalResult MatMulOp::verify() { return success(); }
LogicalResult ArgMaxOp::verify() { return success(); }
LogicalResult TopKOp::verify() { return success(); }
LogicalResult ReduceSumOp::verify() { return success(); }
