//===- GeFusedOps.td - ops the fusion pass creates ---------*- tablegen -*-===//
//
// A cube op with its bias and a trailing activation, as one op: fused ops
// are ops of their own, not attributes on the unfused op
// (docs/architecture.md, "The dialect"). The activation follows ONNX Runtime's
// FusedConv convention: `activation` names the ONNX op applied to the result,
// `activation_params` holds its float attributes in ONNX order:
//   none, relu, sigmoid, tanh, hard_swish   no params
//   gelu (erf form), gelu_tanh              no params
//   leaky_relu                              [alpha = 0.01]
//   swish (x * sigmoid(alpha x))            [alpha = 1]
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
  let description = [{
    Not an ONNX op: made by `ge-fuse-batchnorm`, `ge-fuse-bias-activation` and
    `ge-fuse-residual`, never by the importer. It takes conv's operands and
    attributes plus an optional residual `Z` of Y's type, added before the
    activation (ResNet's block ending, ONNX Runtime's FusedConv `Z`). B and Z
    are both optional, so the op carries AttrSizedOperandSegments and the
    textual form names Z: `ge.fused_conv %x, %w, %b residual %z`; in the OM's
    OpDef the inputs are X, W, B (or "") and Z.

    `activation` names the ONNX op applied last (none, relu, sigmoid, tanh,
    hard_swish, gelu (erf form), gelu_tanh, swish, leaky_relu, clip,
    hard_sigmoid); `activation_params` holds its float attributes in ONNX order
    (leaky_relu and swish [alpha], clip [min, max], hard_sigmoid [alpha,
    beta]); trailing params may be left out and take ONNX's defaults. The
    kernel reads the same attributes.

    `data_format` is conv's (below): NC1HWC0 after `ge-block-channels`.
  }];
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$W, Optional<Ge_FloatTensor>:$B,
                   Optional<Ge_FloatTensor>:$Z,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$activation,
                   OptionalAttr<DenseF32ArrayAttr>:$activation_params,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs Ge_FloatTensor:$Y);
  let assemblyFormat = [{
    $X `,` $W (`,` $B^)? (`residual` $Z^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_FusedGemmOp : Ge_TensorOp<"fused_gemm", [SameOperandsAndResultElementType]> {
  let summary = "Y = activation(alpha * op(A) * op(B) + beta * C)";
  let description = [{
    Not an ONNX op: gemm with a trailing activation (and a batch norm folded
    into B and C), made by the cube fusions. Operands and attributes are gemm's,
    plus `activation` and `activation_params` as on `ge.fused_conv`.
  }];
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
  let description = [{
    Not an ONNX op: matmul with an optional `bias` (a constant Add absorbed)
    that broadcasts to Y, and a trailing activation, made by the cube fusions.
    `activation` and `activation_params` are as on `ge.fused_conv`.
  }];
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
  let description = [{
    Not an ONNX op: the attention core of a transformer as torch's
    nn.MultiheadAttention exports it, made by `ge-fuse-attention`. Q is
    [..., Sq, Dh], K [..., Sk, Dh] (or K^T [..., Dh, Sk] when `k_transposed` =
    1), V [..., Sk, Dv], all of one rank >= 2 with the same batch dims; the
    optional mask broadcasts to the scores [..., Sq, Sk]. `scale` is the product
    of the constant factors the pattern held. With `y_perm` (which keeps the
    last dim last) the result is transpose(Y, y_perm), a head-merge transpose
    absorbed; the result may have any shape of that element count, which it
    holds row-major (a reshape absorbed). The kernel (MIX engine) works a block
    of query rows at a time and never writes the scores.
  }];
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
  let description = [{
    Not an ONNX op: a chain of elementwise ops as one program, made by
    `ge-fuse-elementwise` (the last fusion). Values are numbered: the inputs
    0..n-1, then step j's result n+j. Step j applies the op `steps[j]` (the
    unary ops of the dialect plus gelu and gelu_tanh, or the binary add sub mul
    div pow max min prelu) to values `step_operands[2j]` and
    `step_operands[2j+1]` (-1 for a unary step's second). `step_params`, two
    per step when present, hold elu/leaky_relu [alpha], hard_sigmoid [alpha,
    beta], selu [alpha, gamma], clip [min, max], 0 where unused; without it
    every step takes ONNX's defaults (clip unbounded). Y is the last step's
    value, of the inputs' broadcast shape. The kernel evaluates the program tile
    by tile, so memory sees each input and Y once.

    ```mlir
    %y = ge.fused_elementwise %x, %b, %c {steps = ["add", "mul", "sigmoid", "mul"],
           step_operands = array<i64: 0, 1, 3, 2, 4, -1, 4, 5>}
           : (tensor<4x64xf32>, tensor<64xf32>, tensor<f32>) -> tensor<4x64xf32>
    // v3 = x + b, v4 = v3 * c, v5 = sigmoid(v4), y = v4 * v5
    ```
  }];
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
  let description = [{
    Not an ONNX op: torch's as_strided, copied. Y[i_0, ..., i_r-1] =
    X[offset + sum_d i_d * strides[d]]; the result type gives the sizes, any
    element type. The verifier checks that the last element read lies inside
    X. Made by `ge-fuse-layout` from a chain of slice, transpose, reshape,
    squeeze, unsqueeze and flatten whose composition reads its source as a
    strided view; the kernel is the data-movement family's index-table copy.
  }];
  let arguments = (ins Ge_Tensor:$X, DefaultValuedAttr<Ge_I64Attr, "0">:$offset,
                   DenseI64ArrayAttr:$strides);
  let results = (outs Ge_Tensor:$Y);
  let hasVerifier = 1;
}

// A tensor between the plain and the channel-blocked layout (GE's TransData):
// `ge-block-channels` puts one at each edge of a run of ops it keeps in
// NC1HWC0.
def Ge_TransDataOp : Ge_TensorOp<"trans_data", [SameOperandsAndResultElementType]> {
  let summary = "Y = X in another layout: NCHW <-> NC1HWC0";
  let description = [{
    Not an ONNX op: made by `ge-block-channels`, GE's TransData. NC1HWC0 holds
    an [N, C, H, W] tensor as [N, C1, H, W, C0] with C0 = 16 channels
    interleaved per position and C1 = ceil(C / 16) blocks; the last block's
    lanes past C are zero when written here and no op reads them as channels.
    `src_format` NCHW, `dst_format` NC1HWC0: X is [N, C, H, W], Y [N, C1, H,
    W, 16]; the other way round Y's type gives C, which the blocked shape does
    not.
  }];
  let arguments = (ins Ge_FloatTensor:$X, StrAttr:$src_format, StrAttr:$dst_format);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEFUSEDOPS_TD
