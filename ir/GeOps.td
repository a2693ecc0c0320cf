//===- GeOps.td - ge op classes and the op families -------*- tablegen -*-===//
//
// Op classes shared by the families, then one .td per family. The operands,
// attributes and defaults follow ir/README.md (ONNX opset 17 names verbatim).
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEOPS_TD
#define GEFLOW_IR_GEOPS_TD

include "ir/GeDialect.td"
include "ir/GeAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

// Most ops print as `ge.op %a, %b {attrs} : (operand types) -> result types`.
class Ge_TensorOp<string mnemonic, list<Trait> traits = []>
    : Ge_Op<mnemonic, !listconcat([Pure], traits)> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

// Elementwise unary op: `%y = ge.relu %x : tensor<4xf32>`.
class Ge_UnaryOp<string mnemonic, Type T, list<Trait> traits = []>
    : Ge_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType], traits)> {
  let arguments = (ins T:$X);
  let results = (outs T:$Y);
  let assemblyFormat = "$X attr-dict `:` type($Y)";
}

// Binary op with multidirectional (numpy) broadcasting; C = broadcast(A, B).
class Ge_BroadcastBinaryOp<string mnemonic, Type T, list<Trait> traits = []>
    : Ge_TensorOp<mnemonic, !listconcat([SameOperandsAndResultElementType], traits)> {
  let arguments = (ins T:$A, T:$B);
  let results = (outs T:$C);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyBroadcastOp(getOperation());
    }
  }];
}

// Broadcasting comparison; the result is i1.
class Ge_ComparisonOp<string mnemonic, Type T, list<Trait> traits = []>
    : Ge_TensorOp<mnemonic, !listconcat([SameOperandsElementType], traits)> {
  let arguments = (ins T:$A, T:$B);
  let results = (outs Ge_BoolTensor:$C);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyBroadcastOp(getOperation());
    }
  }];
}

// Variadic broadcasting op (Max, Min, Mean, Sum): 1..N operands.
class Ge_VariadicBroadcastOp<string mnemonic, Type T, list<Trait> traits = []>
    : Ge_TensorOp<mnemonic, !listconcat([SameOperandsAndResultElementType], traits)> {
  let arguments = (ins Variadic<T>:$data_0);
  let results = (outs T:$output);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyBroadcastOp(getOperation());
    }
  }];
}

// Reduction with an `axes` attribute (opset 17 ReduceMax, ReduceMean, ...).
class Ge_ReduceOp<string mnemonic, Type T, list<Trait> traits = []>
    : Ge_TensorOp<mnemonic, !listconcat([SameOperandsAndResultElementType], traits)> {
  let arguments = (ins T:$data,
                   OptionalAttr<DenseI64ArrayAttr>:$axes,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$keepdims);
  let results = (outs T:$reduced);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyReduceOp(getOperation(), getAxes(),
                                                getKeepdims(), false);
    }
  }];
}

include "ir/GeElementwiseOps.td"
include "ir/GeShapeOps.td"
include "ir/GeNNOps.td"
include "ir/GeFusedOps.td"
include "ir/GeAnnotationOps.td"
include "ir/GeIndexOps.td"
include "ir/GeSignalOps.td"
include "ir/GeLossOps.td"
include "ir/GeRecurrentOps.td"
include "ir/GeQuantOps.td"

#endif // GEFLOW_IR_GEOPS_TD
