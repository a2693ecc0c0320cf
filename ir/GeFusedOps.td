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

// softmax(scale * Q K^T + mask) V in one op (the attention core of a
// transformer): the kernel takes one block of query rows at a time, so the
// [..., Sq, Sk] score tensor never exists in memory. Q [..., Sq, Dh],
// K [..., Sk, Dh] (or K^T [..., Dh, Sk] when k_transposed = 1),
// V [..., Sk, Dv], the same batch dims; mask broadcasts to the scores.
// With y_perm the result is transpose(Y, y_perm) (a head merge absorbed);
// y_perm keeps the last dim last, so each row of Y is written contiguously.
// The result may have any shape of the same element count: it holds that
// tensor row-major (a reshape absorbed).
def Ge_FusedAttentionOp : Ge_TensorOp<"fused_attention",
                                      [SameOperandsAndResultElementType]> {
  let summary = "Y = softmax(scale * Q K^T + mask, last axis) V";
  let arguments = (ins Ge_FloatTensor:$Q, Ge_FloatTensor:$K, Ge_FloatTensor:$V,
                   Optional<Ge_FloatTensor>:$mask,
                   DefaultValuedAttr<F32Attr, "1.0f">:$scale,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$k_transposed,
                   OptionalAttr<DenseI64ArrayAttr>:$y_perm);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

// A chain of elementwise ops evaluated tile by tile in one pass over memory.
// Values are numbered: the inputs 0..n-1, then step j's result n+j; each
// step names its op (`steps`, ONNX names as in the ge dialect, plus gelu and
// gelu_tanh) and reads two values (`step_operands`, -1 for a unary step's
// second); the result is the last step's. `step_params`, two per step when
// present, hold elu/leaky_relu [alpha], hard_sigmoid [alpha, beta], selu
// [alpha, gamma], clip [min, max]; absent, every step takes ONNX's defaults.
def Ge_FusedElementwiseOp : Ge_TensorOp<"fused_elementwise",
                                        [SameOperandsAndResultElementType]> {
  let summary = "Y = the last step of an elementwise program over the inputs";
  let arguments = (ins Variadic<Ge_FloatTensor>:$inputs, StrArrayAttr:$steps,
                   DenseI64ArrayAttr:$step_operands,
                   OptionalAttr<DenseF32ArrayAttr>:$step_params);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

// A chain of data-movement ops (slice, reshape, transpose, squeeze,
// unsqueeze, flatten) whose composition reads its input as a strided view,
// as one copy: Y[i_0, ..., i_r-1] = X[offset + sum_d i_d * strides[d]]
// (torch.as_strided). The result type gives the sizes.
def Ge_AsStridedOp : Ge_TensorOp<"as_strided", [AllElementTypesMatch<["X", "Y"]>]> {
  let summary = "Y = the strided view (offset, strides) of X, copied";
  let arguments = (ins Ge_Tensor:$X, DefaultValuedAttr<Ge_I64Attr, "0">:$offset,
                   DenseI64ArrayAttr:$strides);
  let results = (outs Ge_Tensor:$Y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEFUSEDOPS_TD
