#include "ir/GeOps.h"
#include "ir/GeVerifiers.h"

using namespace mlir;
using namespace mlir::ge;

OpFoldResult AddOp::fold(FoldAdaptor) { return {}; }
OpFoldResult CastOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ConcatOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult DivOp::fold(FoldAdaptor) { return {}; }
OpFoldResult EqualOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ExpandOp::fold(FoldAdaptor) { return {}; }
OpFoldResult GatherOp::fold(FoldAdaptor) { return {}; }
OpFoldResult IdentityOp::fold(FoldAdaptor) { return {}; }
OpFoldResult MulOp::fold(FoldAdaptor) { return {}; }
OpFoldResult RangeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ReshapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ShapeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SliceOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SqueezeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult SubOp::fold(FoldAdaptor) { return {}; }
OpFoldResult UnsqueezeOp::fold(FoldAdaptor) { return {}; }
OpFoldResult WhereOp::fold(FoldAdaptor) { return {}; }
OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }
