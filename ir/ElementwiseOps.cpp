#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

LogicalResult ClipOp::verify() { return success(); }
LogicalResult PowOp::verify() { return success(); }
LogicalResult PReluOp::verify() { return success(); }
LogicalResult WhereOp::verify() { return success(); }

LogicalResult mlir::ge::detail::verifyBroadcastOp(Operation *op) { return success(); }
LogicalResult mlir::ge::detail::verifyReduceOp(Operation *op, std::optional<ArrayRef<int64_t>> axes,
                             int64_t keepdims, bool noopWithEmptyAxes) { return success(); }
LogicalResult mlir::ge::detail::verifyAxisAttr(Operation *op, StringRef name, int64_t axis,
                             int64_t rank) { return success(); }
