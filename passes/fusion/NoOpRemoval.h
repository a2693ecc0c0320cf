//===- NoOpRemoval.h - ops that compute nothing at inference -----*- C++
//-*-===//
//
// Patterns that replace an op by its input when it moves no data: Identity,
// Dropout in inference form, and Reshape/Flatten/Squeeze/Unsqueeze/Expand/
// Cast/Tile whose result type is the input's, Transpose with the identity
// perm, Slice of the whole tensor and Pad by zeros. The dialect's folders
// already cover some of these; the patterns make ge-fold-constants complete
// without relying on which folders exist.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_PASSES_FUSION_NOOPREMOVAL_H
#define GEFLOW_PASSES_FUSION_NOOPREMOVAL_H

#include "mlir/IR/PatternMatch.h"

namespace geflow::passes::fusion {

void populateNoOpRemovalPatterns(mlir::RewritePatternSet &patterns);

} // namespace geflow::passes::fusion

#endif // GEFLOW_PASSES_FUSION_NOOPREMOVAL_H
