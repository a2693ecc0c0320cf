//===- GeFusedOps.td - ops the fusion pass creates ---------*- tablegen -*-===//
//
// A cube op with its bias and a trailing activation, as one op (DESIGN.md:
// fused ops are ops of their own). The activation follows ONNX Runtime's
// FusedConv convention: `activation` names the ONNX op applied to the result,
// `activation_params` holds its float attributes in ONNX order:
//   none, relu, sigmoid, tanh, hard_swish   no params
//   gelu (erf form), gelu_tanh              no params
//   leaky_relu                              [alpha = 0.01]
//   clip                                    [min = -inf, max = +inf]
//   hard_sigmoid                            [alpha = 0.2, beta = 0.5]
// Trailing params may be left out and take those (ONNX's) defaults.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEFUSEDOPS_TD
#define GEFLOW_IR_GEFUSEDOPS_TD

// Z, when present, is a residual of Y's shape added before the activation
// (ONNX Runtime's FusedConv Z): the conv adds it while the output tile is hot.
def Ge_FusedConvOp : Ge_TensorOp<"fused_conv", [SameOperandsAndResultElementType,
                                               AttrSizedOperandSegments]> {
  let summary = "Y = activation(conv(X, W) + B + Z)";
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$W, Optional<Ge_FloatTensor>:$B,
                   Optional<Ge_FloatTensor>:$Z,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$activation,
                   OptionalAttr<DenseF32ArrayAttr>:$activation_params);
  let results = (outs Ge_FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W (`,` $B^)? (`residual` $Z^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_FusedGemmOp : Ge_TensorOp<"fused_gemm", [SameOperandsAndResultElementType]> {
  let summary = "Y = activation(alpha * op(A) * op(B) + beta * C)";
  let arguments = (ins Ge_NumericTensor:$A, Ge_NumericTensor:$B,
                   Optional<Ge_NumericTensor>:$C,
                   DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0f">:$beta,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$transA,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$transB,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$activation,
                   OptionalAttr<DenseF32ArrayAttr>:$activation_params);
  let results = (outs Ge_NumericTensor:$Y);
  let hasVerifier = 1;
}

def Ge_FusedMatMulOp : Ge_TensorOp<"fused_matmul", [SameOperandsAndResultElementType]> {
  let summary = "Y = activation(matmul(A, B) + bias); bias broadcasts to Y";
  let arguments = (ins Ge_NumericTensor:$A, Ge_NumericTensor:$B,
                   Optional<Ge_NumericTensor>:$bias,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$activation,
                   OptionalAttr<DenseF32ArrayAttr>:$activation_params);
  let results = (outs Ge_NumericTensor:$Y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEFUSEDOPS_TD
