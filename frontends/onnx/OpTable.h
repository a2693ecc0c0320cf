//===- OpTable.h - which ge op each ONNX op becomes ---------------*- C++
//-*-===//
//
// The importer's view of the op table (ir/GeOpTable.def): for each ai.onnx op
// type it imports (opset 17), the ge op, how the ONNX inputs map to operands
// (ops with more than one optional input use AttrSizedOperandSegments over
// every ONNX input position) and how many results the ge op has. Also the
// per-node attribute rules: Constant's value_* forms, Cast's `to`,
// BatchNormalization's training form, and the user annotations
// (`_user_stream_label`, ...) that become ge.* discardable attributes.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_OPTABLE_H
#define GEFLOW_FRONTENDS_ONNX_OPTABLE_H

#include "onnx/onnx_pb.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace geflow::onnxfe {

struct OpSpec {
  /// How a result beyond the ONNX outputs is typed when the model leaves it out
  /// (ir/README.md keeps optional outputs as results).
  /// Statistics: LayerNormalization's Mean and InvStdDev, imported as a pair
  /// when the model uses either, each typed like the other.
  /// WhenRead: the results past the first exist only when the model reads one
  /// (SoftmaxCrossEntropyLoss's log_prob), typed by shape inference.
  /// RecurrentStates: LSTM/GRU/RNN's Y, Y_h, Y_c, typed from X, R and the
  /// attributes (any of them may be left out).
  enum class ExtraResult {
    None,
    IndicesLikeFirst,
    MaskLikeFirst,
    Statistics,
    WhenRead,
    RecurrentStates
  };

  llvm::StringRef onnxType;
  llvm::StringRef geName;
  /// 0: operands are the present ONNX inputs in order. N > 0: the op has N ODS
  /// operands with AttrSizedOperandSegments, one per ONNX input position.
  unsigned segments = 0;
  /// Number of ge results; -1 means one per ONNX output (Split).
  int numResults = 1;
  ExtraResult extra = ExtraResult::None;
  /// The first ai.onnx opset with this op.
  unsigned since = 1;
};

/// The row for an ai.onnx op type, or null when it has no ge op.
const OpSpec *lookupOpSpec(llvm::StringRef onnxType);

/// Every supported ONNX op type, in table order.
llvm::SmallVector<llvm::StringRef> supportedOnnxOps();

/// Converts `node`'s attributes into `attrs`: ONNX names verbatim with ODS
/// types, Constant's value_* folded into `value`, Cast's `to` dropped, user
/// annotations mapped to ge.* attributes. `where` is the node's description for
/// messages.
llvm::Error
convertNodeAttributes(mlir::MLIRContext &context, const onnx::NodeProto &node,
                      const OpSpec &spec, const std::string &where,
                      llvm::SmallVectorImpl<mlir::NamedAttribute> &attrs);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_OPTABLE_H
