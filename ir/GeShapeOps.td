//===- GeShapeOps.td - shape and data-movement ge ops ------*- tablegen -*-===//
//
// Ops whose "constant in practice" inputs (Reshape's shape, Slice's starts,
// ...) stay operands fed by ge.constant; verifiers check them exactly when
// they are constant and check rank and dtype otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GESHAPEOPS_TD
#define GEFLOW_IR_GESHAPEOPS_TD

def Ge_ConstantOp : Ge_Op<"constant", [Pure, ConstantLike,
                                       AllTypesMatch<["value", "output"]>]> {
  let summary = "a constant tensor (ONNX Constant and initializers)";
  let description = [{
    The one op for ONNX Constant nodes and for initializers. Only `value`
    exists: the importer turns Constant's `value_float`, `value_ints`, ... into
    it. Initializers of 64 KiB or more are `dense_resource<key>` elements whose
    blob points into the model file's mapping (no copy; text IR prints them in
    a `dialect_resources` section). Read constant bytes through
    `ir/ElementsBytes.h`, which serves both forms.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Ge_Tensor:$output);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ElementsAttr":$value), [{
      build($_builder, $_state, value.getType(), value);
    }]>
  ];
}

def Ge_CastOp : Ge_TensorOp<"cast", [SameOperandsAndResultShape]> {
  let summary = "element type conversion; the result type says the target";
  let description = [{
    ONNX Cast without its `to` attribute: the result's element type is the
    target, so `to` would only repeat it. Opset 19's `saturate` does not exist.
  }];
  let arguments = (ins Ge_Tensor:$input);
  let results = (outs Ge_Tensor:$output);
  let hasFolder = 1;
}

def Ge_ConcatOp : Ge_TensorOp<"concat", [SameOperandsAndResultElementType]> {
  let summary = "concatenate along axis";
  let arguments = (ins Variadic<Ge_Tensor>:$inputs, Ge_I64Attr:$axis);
  let results = (outs Ge_Tensor:$concat_result);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_ConstantOfShapeOp : Ge_TensorOp<"constant_of_shape"> {
  let summary = "a tensor of the given shape filled with value (default 0.0f32)";
  let arguments = (ins Ge_I64Tensor:$input, OptionalAttr<ElementsAttr>:$value);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_ExpandOp : Ge_TensorOp<"expand", [AllElementTypesMatch<["input", "output"]>]> {
  let summary = "broadcast input to shape (numpy rules)";
  let arguments = (ins Ge_Tensor:$input, Ge_I64Tensor:$shape);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_FlattenOp : Ge_TensorOp<"flatten", [SameOperandsAndResultElementType]> {
  let summary = "reshape to 2-D: [prod(d[:axis]), prod(d[axis:])]";
  let arguments = (ins Ge_Tensor:$input, DefaultValuedAttr<Ge_I64Attr, "1">:$axis);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_GatherOp : Ge_TensorOp<"gather", [AllElementTypesMatch<["data", "output"]>]> {
  let summary = "gather entries of data along axis";
  let arguments = (ins Ge_Tensor:$data, Ge_IndexTensor:$indices,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_PadOp : Ge_Op<"pad", [Pure, AttrSizedOperandSegments,
                             AllElementTypesMatch<["data", "output"]>]> {
  let summary = "pad with pads = [x1_begin, x2_begin, ..., x1_end, x2_end, ...]";
  let description = [{
    ONNX Pad with the optional `axes` operand of opset 18. `constant_value` and
    `axes` are both optional operands, so the op carries
    AttrSizedOperandSegments (`operandSegmentSizes`), and the textual form names
    them: `ge.pad %x, %pads value %v axes %a`. `pads` holds two entries per
    padded axis, all the begins first.
  }];
  let arguments = (ins Ge_Tensor:$data, Ge_I64Tensor:$pads,
                   Optional<Ge_Tensor>:$constant_value,
                   Optional<Ge_IndexTensor>:$axes,
                   DefaultValuedAttr<StrAttr, "\"constant\"">:$mode);
  let results = (outs Ge_Tensor:$output);
  let assemblyFormat = [{
    $data `,` $pads (`value` $constant_value^)? (`axes` $axes^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_RangeOp : Ge_TensorOp<"range", [AllElementTypesMatch<["start", "limit", "delta", "output"]>]> {
  let summary = "[start, start + delta, ...) up to limit";
  let arguments = (ins Ge_NumericTensor:$start, Ge_NumericTensor:$limit,
                   Ge_NumericTensor:$delta);
  let results = (outs Ge_NumericTensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_ReshapeOp : Ge_TensorOp<"reshape", [AllElementTypesMatch<["data", "reshaped"]>]> {
  let summary = "reshape; 0 copies the input dim (unless allowzero), -1 infers";
  let arguments = (ins Ge_Tensor:$data, Ge_I64Tensor:$shape,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$allowzero);
  let results = (outs Ge_Tensor:$reshaped);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_ShapeOp : Ge_TensorOp<"shape"> {
  let summary = "the shape of data as 1-D i64, sliced to [start, end)";
  let arguments = (ins Ge_Tensor:$data,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$start,
                   OptionalAttr<Ge_I64Attr>:$end);
  let results = (outs Ge_I64Tensor:$shape);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_SliceOp : Ge_Op<"slice", [Pure, AttrSizedOperandSegments,
                                 AllElementTypesMatch<["data", "output"]>]> {
  let summary = "numpy-style slice with starts, ends, axes, steps";
  let description = [{
    ONNX Slice. `axes` and `steps` are optional operands, so the op carries
    AttrSizedOperandSegments and the textual form names them:
    `ge.slice %x, %starts, %ends axes %a steps %s`. All four stay operands fed by
    `ge.constant`; the verifier computes the result shape exactly when they are
    constant and checks rank and element type otherwise.
  }];
  let arguments = (ins Ge_Tensor:$data, Ge_IndexTensor:$starts, Ge_IndexTensor:$ends,
                   Optional<Ge_IndexTensor>:$axes, Optional<Ge_IndexTensor>:$steps);
  let results = (outs Ge_Tensor:$output);
  let assemblyFormat = [{
    $data `,` $starts `,` $ends (`axes` $axes^)? (`steps` $steps^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_SplitOp : Ge_TensorOp<"split"> {
  let summary = "split along axis into the given sizes (or equal parts)";
  let description = [{
    ONNX Split as opset 13 to 17 have it: the sizes come from the optional
    `split` operand; without it the axis is divided into as many equal parts as
    the op has results. Opset 18's `num_outputs` attribute does not exist (the
    result count says it).
  }];
  let arguments = (ins Ge_Tensor:$input, Optional<Ge_I64Tensor>:$split,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis);
  let results = (outs Variadic<Ge_Tensor>:$outputs);
  let hasVerifier = 1;
}

def Ge_SqueezeOp : Ge_TensorOp<"squeeze", [AllElementTypesMatch<["data", "squeezed"]>]> {
  let summary = "remove size-1 dims (all of them when axes is absent)";
  let arguments = (ins Ge_Tensor:$data, Optional<Ge_I64Tensor>:$axes);
  let results = (outs Ge_Tensor:$squeezed);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_UnsqueezeOp : Ge_TensorOp<"unsqueeze", [AllElementTypesMatch<["data", "expanded"]>]> {
  let summary = "insert size-1 dims at axes (of the output)";
  let arguments = (ins Ge_Tensor:$data, Ge_I64Tensor:$axes);
  let results = (outs Ge_Tensor:$expanded);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_TileOp : Ge_TensorOp<"tile", [AllElementTypesMatch<["input", "output"]>]> {
  let summary = "repeat input repeats[i] times along dim i";
  let arguments = (ins Ge_Tensor:$input, Ge_I64Tensor:$repeats);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_TransposeOp : Ge_TensorOp<"transpose", [AllElementTypesMatch<["data", "transposed"]>]> {
  let summary = "permute dims (reverse them when perm is absent)";
  let arguments = (ins Ge_Tensor:$data, OptionalAttr<DenseI64ArrayAttr>:$perm);
  let results = (outs Ge_Tensor:$transposed);
  let hasVerifier = 1;
  // Shape arithmetic (Swin's window pads) transposes small constants.
  let hasFolder = 1;
}

def Ge_ResizeOp : Ge_Op<"resize", [Pure, AttrSizedOperandSegments,
                                   AllElementTypesMatch<["X", "Y"]>]> {
  let summary = "resize by scales or to sizes (modes nearest, linear and cubic)";
  let description = [{
    ONNX Resize with opset 13 to 17's attributes (opset 18's `antialias`, `axes`
    and `keep_aspect_ratio_policy` do not exist). `roi`, `scales` and `sizes`
    are optional operands, so the op carries AttrSizedOperandSegments; the
    textual form names them (`roi %r scales %s sizes %z`). Exactly one of
    `scales` and `sizes` must be given, and an empty (0-element) tensor counts
    as absent, as ONNX's "" placeholder and exporters' empty constants mean it.
    Modes: nearest, linear and cubic.
  }];
  let arguments = (ins Ge_Tensor:$X,
                   Optional<Ge_FloatTensor>:$roi,
                   Optional<RankedTensorOf<[F32]>>:$scales,
                   Optional<Ge_I64Tensor>:$sizes,
                   DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_transformation_mode,
                   DefaultValuedAttr<F32Attr, "-0.75f">:$cubic_coeff_a,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$exclude_outside,
                   DefaultValuedAttr<F32Attr, "0.0f">:$extrapolation_value,
                   DefaultValuedAttr<StrAttr, "\"nearest\"">:$mode,
                   DefaultValuedAttr<StrAttr, "\"round_prefer_floor\"">:$nearest_mode);
  let results = (outs Ge_Tensor:$Y);
  let assemblyFormat = [{
    $X (`roi` $roi^)? (`scales` $scales^)? (`sizes` $sizes^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_DropoutOp : Ge_Op<"dropout", [Pure, AttrSizedOperandSegments,
                                     AllTypesMatch<["data", "output"]>]> {
  let summary = "dropout, inference form: output = data, mask = true";
  let description = [{
    ONNX Dropout, inference only: `output` is `data` and `mask` is all true,
    whatever the ratio. Both results always exist, as ONNX's optional mask
    output is kept as a result whether or not the model reads it. A constant
    true `training_mode` is accepted only with a constant `ratio` of 0 (then
    training is the identity too, as in torchvision's exports of Swin, whose
    attention dropouts are `Dropout(ratio=0, training_mode=True)`); the kernel
    refuses a true one at run time unless the ratio is 0. `ratio` and
    `training_mode` are optional operands (AttrSizedOperandSegments). When the
    op is known to be the identity (`isIdentity`), `ge-fold-constants` removes
    it: its readers get `data`, and a read mask becomes an all-true constant.
  }];
  let arguments = (ins Ge_FloatTensor:$data,
                   Optional<Ge_FloatTensor>:$ratio,
                   Optional<Ge_BoolTensor>:$training_mode,
                   OptionalAttr<Ge_I64Attr>:$seed);
  let results = (outs Ge_FloatTensor:$output, Ge_BoolTensor:$mask);
  let assemblyFormat = [{
    $data (`ratio` $ratio^)? (`training_mode` $training_mode^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let extraClassDeclaration = [{
    /// True when constants show the op copies `data`: training mode absent
    /// or false, or the ratio 0.
    bool isIdentity();
  }];
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GESHAPEOPS_TD
