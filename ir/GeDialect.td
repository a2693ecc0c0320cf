//===- GeDialect.td - the ge dialect and its type constraints -*- tablegen -*-===//
//
// The `ge` dialect: tensor-level ops for the supported ONNX set (opset 17),
// builtin ranked tensor types, and discardable scheduling attributes
// (`ge.engine`, `ge.stream`, ...) verified by the dialect. See ir/README.md.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEDIALECT_TD
#define GEFLOW_IR_GEDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Ge_Dialect : Dialect {
  let name = "ge";
  let cppNamespace = "::mlir::ge";
  let summary = "GE-style graph dialect for an Ascend-like NPU";
  let description = [{
    Tensor-level ops named after the ONNX operators they import
    (`ge.` + the op type in snake_case), plus user annotation region ops
    (`ge.npu_stream_switch`, `ge.limit_core_num`) and `ge.npu_wait_tensor`.
    Scheduling lives in discardable `ge.*` attributes that passes set.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    // Adds the attributes of GeAttrs.td (defined in GeAttrs.cpp).
    void registerAttributes();

    // Names of the discardable scheduling attributes (ir/README.md).
    static constexpr ::llvm::StringLiteral kEngineAttr = "ge.engine";
    static constexpr ::llvm::StringLiteral kStreamAttr = "ge.stream";
    static constexpr ::llvm::StringLiteral kStreamLabelAttr = "ge.stream_label";
    static constexpr ::llvm::StringLiteral kStreamPriorityAttr = "ge.stream_priority";
    static constexpr ::llvm::StringLiteral kInnerParallelAttr = "ge.inner_parallel";
    static constexpr ::llvm::StringLiteral kAicoreNumAttr = "ge.aicore_num";
    static constexpr ::llvm::StringLiteral kVectorcoreNumAttr = "ge.vectorcore_num";
    static constexpr ::llvm::StringLiteral kSendEventsAttr = "ge.send_events";
    static constexpr ::llvm::StringLiteral kRecvEventsAttr = "ge.recv_events";
    static constexpr ::llvm::StringLiteral kNameAttr = "ge.name";
    // Set by the compiler's passes (passes/ScheduleAttrs.h).
    static constexpr ::llvm::StringLiteral kBlockDimAttr = "ge.block_dim";
    static constexpr ::llvm::StringLiteral kFlopsAttr = "ge.flops";
    static constexpr ::llvm::StringLiteral kBytesAttr = "ge.bytes";
    static constexpr ::llvm::StringLiteral kPredictedMakespanAttr = "ge.predicted_makespan_ns";
    static constexpr ::llvm::StringLiteral kLowerBoundAttr = "ge.lower_bound_ns";
    static constexpr ::llvm::StringLiteral kNoTaskAttr = "ge.no_task";
    static constexpr ::llvm::StringLiteral kOutputOffsetsAttr = "ge.output_offsets";
    static constexpr ::llvm::StringLiteral kInputOffsetsAttr = "ge.input_offsets";
    static constexpr ::llvm::StringLiteral kWorkspaceSizeAttr = "ge.workspace_size";
    static constexpr ::llvm::StringLiteral kWorkspaceSizeNoReuseAttr =
        "ge.workspace_size_no_reuse";
    // On the function, from ge-insert-events: cross-stream dependencies
    // before the transitive reduction left ge.send_events/ge.recv_events.
    static constexpr ::llvm::StringLiteral kEventsBeforeReductionAttr =
        "ge.events_before_reduction";
  }];
}

class Ge_Op<string mnemonic, list<Trait> traits = []>
    : Op<Ge_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Type constraints (ONNX type sets mapped onto builtin element types).
//===----------------------------------------------------------------------===//

defvar Ge_FloatTypes = [F16, BF16, F32, F64];
defvar Ge_SignedIntTypes = [I8, I16, I32, I64];
defvar Ge_UnsignedIntTypes = [UI8, UI16, UI32, UI64];

def Ge_FloatTensor : RankedTensorOf<Ge_FloatTypes>;
def Ge_SignedTensor : RankedTensorOf<!listconcat(Ge_FloatTypes, Ge_SignedIntTypes)>;
def Ge_NumericTensor : RankedTensorOf<
    !listconcat(Ge_FloatTypes, Ge_SignedIntTypes, Ge_UnsignedIntTypes)>;
def Ge_IntTensor : RankedTensorOf<
    !listconcat(Ge_SignedIntTypes, Ge_UnsignedIntTypes)>;
def Ge_BoolTensor : RankedTensorOf<[I1]>;
def Ge_NumericOrBoolTensor : RankedTensorOf<
    !listconcat(Ge_FloatTypes, Ge_SignedIntTypes, Ge_UnsignedIntTypes, [I1])>;
def Ge_Tensor : RankedTensorOf<[AnyType]>;
// Index-like operands: Gather indices, TopK's k, ...
def Ge_IndexTensor : RankedTensorOf<[I32, I64]>;
// Shape-like operands (Reshape's shape, Slice's starts, ...) are int64 in ONNX;
// Slice also allows int32.
def Ge_I64Tensor : RankedTensorOf<[I64]>;

//===----------------------------------------------------------------------===//
// Attribute constraints
//===----------------------------------------------------------------------===//

// ONNX INT: an i64 IntegerAttr, as I64Attr, but ONNX ints are signed
// (axis = -1), so the C++ getter returns int64_t instead of uint64_t.
def Ge_I64Attr : TypedSignlessIntegerAttrBase<
    I64, "int64_t", "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

#endif // GEFLOW_IR_GEDIALECT_TD
