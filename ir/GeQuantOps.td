//===- GeQuantOps.td - int8 quantization ge ops ------------*- tablegen -*-===//
//
// ONNX's linear quantization (opset 13 names): q = saturate(round(x / scale)
// + zero_point), x = (q - zero_point) * scale, rounding halves to even. The
// cube ops take int8/uint8 operands and accumulate in int32; the QLinear ones
// requantize the accumulator to their output scale and zero point.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEQUANTOPS_TD
#define GEFLOW_IR_GEQUANTOPS_TD

def Ge_QuantTensor : RankedTensorOf<[I8, UI8]>;
def Ge_ScaleTensor : RankedTensorOf<[F32]>;
def Ge_QuantAccTensor : RankedTensorOf<[I32]>;

def Ge_QuantizeLinearOp : Ge_TensorOp<"quantize_linear"> {
  let summary = "y = saturate(round(x / y_scale) + y_zero_point)";
  let description = [{
    ONNX QuantizeLinear (opset 13). `y_scale` and `y_zero_point` are scalars
    (per tensor) or 1-D along `axis` (per axis). Without `y_zero_point` the
    result is uint8 with zero point 0; with it, the result has its type.
  }];
  let arguments = (ins RankedTensorOf<[F32, I32]>:$x, Ge_ScaleTensor:$y_scale,
                   Optional<Ge_QuantTensor>:$y_zero_point,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$axis);
  let results = (outs Ge_QuantTensor:$y);
  let hasVerifier = 1;
}

def Ge_DequantizeLinearOp : Ge_TensorOp<"dequantize_linear"> {
  let summary = "y = (x - x_zero_point) * x_scale";
  let description = [{
    ONNX DequantizeLinear (opset 13), per tensor or per axis as
    `ge.quantize_linear`. int32 inputs (quantized biases) take no zero point
    other than 0.
  }];
  let arguments = (ins RankedTensorOf<[I8, UI8, I32]>:$x, Ge_ScaleTensor:$x_scale,
                   Optional<RankedTensorOf<[I8, UI8, I32]>>:$x_zero_point,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$axis);
  let results = (outs Ge_ScaleTensor:$y);
  let hasVerifier = 1;
}

def Ge_DynamicQuantizeLinearOp : Ge_TensorOp<"dynamic_quantize_linear"> {
  let summary = "uint8 quantization with the scale and zero point of x's range";
  let description = [{
    ONNX DynamicQuantizeLinear (opset 11): the range [min(0, min x),
    max(0, max x)] maps onto [0, 255]; results are y, y_scale (scalar f32) and
    y_zero_point (scalar uint8).
  }];
  let arguments = (ins Ge_ScaleTensor:$x);
  let results = (outs RankedTensorOf<[UI8]>:$y, Ge_ScaleTensor:$y_scale,
                 RankedTensorOf<[UI8]>:$y_zero_point);
  let hasVerifier = 1;
}

def Ge_MatMulIntegerOp : Ge_Op<"matmul_integer", [Pure, AttrSizedOperandSegments]> {
  let summary = "int32 numpy matmul of (A - a_zero_point) and (B - b_zero_point)";
  let description = [{
    ONNX MatMulInteger (opset 10). `a_zero_point` is a scalar or 1-D per row
    of A (M entries), `b_zero_point` a scalar or 1-D per column of B (N
    entries); both are optional operands, named in the textual form.
  }];
  let arguments = (ins Ge_QuantTensor:$A, Ge_QuantTensor:$B,
                   Optional<Ge_QuantTensor>:$a_zero_point,
                   Optional<Ge_QuantTensor>:$b_zero_point);
  let results = (outs Ge_QuantAccTensor:$Y);
  let assemblyFormat = [{
    $A `,` $B (`a_zero_point` $a_zero_point^)? (`b_zero_point` $b_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_ConvIntegerOp : Ge_Op<"conv_integer", [Pure, AttrSizedOperandSegments]> {
  let summary = "int32 convolution of (x - x_zero_point) and (w - w_zero_point)";
  let description = [{
    ONNX ConvInteger (opset 10), with Conv's attributes. Padding holds
    x_zero_point (0 after the subtraction). `w_zero_point` is a scalar or 1-D
    per output channel.
  }];
  let arguments = (ins Ge_QuantTensor:$x, Ge_QuantTensor:$w,
                   Optional<Ge_QuantTensor>:$x_zero_point,
                   Optional<Ge_QuantTensor>:$w_zero_point,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Ge_QuantAccTensor:$y);
  let assemblyFormat = [{
    $x `,` $w (`x_zero_point` $x_zero_point^)? (`w_zero_point` $w_zero_point^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_QLinearMatMulOp : Ge_TensorOp<"qlinear_matmul"> {
  let summary = "quantized numpy matmul, requantized to y_scale and y_zero_point";
  let description = [{
    ONNX QLinearMatMul (opset 10): the int32 product of (a - a_zero_point) and
    (b - b_zero_point), times a_scale * b_scale / y_scale, rounded (halves to
    even), plus y_zero_point, saturated. `b_scale` and `b_zero_point` may be
    1-D per column of b; the others are scalars. `ge-fold-qdq` makes it from
    DequantizeLinear -> MatMul -> QuantizeLinear.
  }];
  let arguments = (ins Ge_QuantTensor:$a, Ge_ScaleTensor:$a_scale, Ge_QuantTensor:$a_zero_point,
                   Ge_QuantTensor:$b, Ge_ScaleTensor:$b_scale, Ge_QuantTensor:$b_zero_point,
                   Ge_ScaleTensor:$y_scale, Ge_QuantTensor:$y_zero_point);
  let results = (outs Ge_QuantTensor:$y);
  let hasVerifier = 1;
}

def Ge_QLinearConvOp : Ge_TensorOp<"qlinear_conv"> {
  let summary = "quantized convolution, requantized to y_scale and y_zero_point";
  let description = [{
    ONNX QLinearConv (opset 10), with Conv's attributes: ConvInteger of x and
    w plus the int32 bias B, times x_scale * w_scale / y_scale, rounded
    (halves to even), plus y_zero_point, saturated. `w_scale` and
    `w_zero_point` may be 1-D per output channel. `ge-fold-qdq` makes it from
    DequantizeLinear -> Conv -> QuantizeLinear.
  }];
  let arguments = (ins Ge_QuantTensor:$x, Ge_ScaleTensor:$x_scale, Ge_QuantTensor:$x_zero_point,
                   Ge_QuantTensor:$w, Ge_ScaleTensor:$w_scale, Ge_QuantTensor:$w_zero_point,
                   Ge_ScaleTensor:$y_scale, Ge_QuantTensor:$y_zero_point,
                   Optional<Ge_QuantAccTensor>:$B,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Ge_QuantTensor:$y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEQUANTOPS_TD
