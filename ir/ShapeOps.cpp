#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult ConcatOp::verify() { return success(); }
LogicalResult ConstantOfShapeOp::verify() { return success(); }
LogicalResult ExpandOp::verify() { return success(); }
LogicalResult FlattenOp::verify() { return success(); }
LogicalResult GatherOp::verify() { return success(); }
LogicalResult PadOp::verify() { return success(); }
LogicalResult RangeOp::verify() { return success(); }
LogicalResult ReshapeOp::verify() { return success(); }
LogicalResult ShapeOp::verify() { return success(); }
LogicalResult SliceOp::verify() { return success(); }
LogicalResult SplitOp::verify() { return success(); }
LogicalResult SqueezeOp::verify() { return success(); }
LogicalResult UnsqueezeOp::verify() { return success(); }
LogicalResult TileOp::verify() { return success(); }
LogicalResult TransposeOp::verify() { return success(); }
LogicalResult ResizeOp::verify() { return success(); }
LogicalResult DropoutOp::verify() { return success(); }
