//===- GeIndexOps.td - indexing and layout ge ops ----------*- tablegen -*-===//
//
// Ops that read or write elements at positions held in a tensor (gather,
// scatter, one-hot, unpooling), sample at computed coordinates (grid sample,
// RoI align), or move elements by a fixed rule (depth/space, triangles,
// sequence reversal). Operands and attributes keep ONNX opset 17's names and
// defaults; verifiers and shape functions are in IndexOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEINDEXOPS_TD
#define GEFLOW_IR_GEINDEXOPS_TD

def Ge_GatherElementsOp : Ge_TensorOp<"gather_elements",
    [AllElementTypesMatch<["data", "output"]>]> {
  let summary = "output[i][j][k] = data[indices[i][j][k]][j][k] (along axis)";
  let arguments = (ins Ge_Tensor:$data, Ge_IndexTensor:$indices,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_ScatterElementsOp : Ge_TensorOp<"scatter_elements",
    [AllElementTypesMatch<["data", "updates", "output"]>]> {
  let summary = "output = data with data[indices[i][j]][j] (op)= updates[i][j]";
  let description = [{
    ONNX ScatterElements; the deprecated opset 9 Scatter is the same op (the
    importer's version conversion turns it into ScatterElements). `reduction`
    is none, add or mul (opset 16) and also max or min (opset 18). With
    none, duplicate indices leave the last update in index order.
  }];
  let arguments = (ins Ge_Tensor:$data, Ge_IndexTensor:$indices,
                   Ge_Tensor:$updates,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_GatherNDOp : Ge_TensorOp<"gather_nd",
    [AllElementTypesMatch<["data", "output"]>]> {
  let summary = "gather slices of data addressed by the last dim of indices";
  let arguments = (ins Ge_Tensor:$data, Ge_I64Tensor:$indices,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$batch_dims);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_ScatterNDOp : Ge_TensorOp<"scatter_nd",
    [AllElementTypesMatch<["data", "updates", "output"]>]> {
  let summary = "output = data with the slices at indices (op)= updates";
  let description = [{
    ONNX ScatterND; `reduction` is none, add or mul (opset 16), max or min
    (opset 18). Folds when all operands are constant, as the shape
    computations of exported transformers (Swin's window masks) have it.
  }];
  let arguments = (ins Ge_Tensor:$data, Ge_I64Tensor:$indices,
                   Ge_Tensor:$updates,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$reduction);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_OneHotOp : Ge_TensorOp<"one_hot",
    [AllElementTypesMatch<["values", "output"]>]> {
  let summary = "values[1] where indices == position along axis, else values[0]";
  let description = [{
    ONNX OneHot: the output has a new dim of size `depth` at `axis`; a
    negative index counts from depth's end, and an index outside
    [-depth, depth) gives a row of off values. `values` holds [off, on].
  }];
  let arguments = (ins Ge_NumericTensor:$indices, Ge_NumericTensor:$depth,
                   Ge_Tensor:$values,
                   DefaultValuedAttr<Ge_I64Attr, "-1">:$axis);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_MaxUnpoolOp : Ge_TensorOp<"max_unpool",
    [AllElementTypesMatch<["X", "output"]>]> {
  let summary = "scatter X into zeros at MaxPool's flat Indices";
  let description = [{
    ONNX MaxUnpool. `I` holds flat indices into the whole output, as MaxPool's
    Indices do. The output shape is `output_shape` when given, else the
    inverse of the pooling (kernel_shape, pads, strides).
  }];
  let arguments = (ins Ge_NumericTensor:$X, Ge_I64Tensor:$I,
                   Optional<Ge_I64Tensor>:$output_shape,
                   DenseI64ArrayAttr:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Ge_NumericTensor:$output);
  let hasVerifier = 1;
}

def Ge_GridSampleOp : Ge_TensorOp<"grid_sample", [SameOperandsAndResultElementType]> {
  let summary = "sample 4-D X at the normalized (x, y) positions of grid";
  let description = [{
    ONNX GridSample as opset 16 has it: X [N, C, H, W], grid [N, Hout, Wout, 2]
    with x then y in [-1, 1]; mode bilinear, nearest or bicubic; padding_mode
    zeros, border or reflection.
  }];
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$grid,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$align_corners,
                   DefaultValuedAttr<StrAttr, "\"bilinear\"">:$mode,
                   DefaultValuedAttr<StrAttr, "\"zeros\"">:$padding_mode);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_RoiAlignOp : Ge_TensorOp<"roi_align", [AllElementTypesMatch<["X", "rois", "Y"]>]> {
  let summary = "average or max of bilinear samples in each region of interest";
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$rois,
                   Ge_IndexTensor:$batch_indices,
                   DefaultValuedAttr<StrAttr, "\"half_pixel\"">:$coordinate_transformation_mode,
                   DefaultValuedAttr<StrAttr, "\"avg\"">:$mode,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$output_height,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$output_width,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$sampling_ratio,
                   DefaultValuedAttr<F32Attr, "1.0f">:$spatial_scale);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_DepthToSpaceOp : Ge_TensorOp<"depth_to_space",
    [AllElementTypesMatch<["input", "output"]>]> {
  let summary = "move blocks of channels into blocksize x blocksize pixels";
  let arguments = (ins Ge_Tensor:$input, Ge_I64Attr:$blocksize,
                   DefaultValuedAttr<StrAttr, "\"DCR\"">:$mode);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_SpaceToDepthOp : Ge_TensorOp<"space_to_depth",
    [AllElementTypesMatch<["input", "output"]>]> {
  let summary = "move blocksize x blocksize pixels into channels";
  let arguments = (ins Ge_Tensor:$input, Ge_I64Attr:$blocksize);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_TriluOp : Ge_TensorOp<"trilu", [AllTypesMatch<["input", "output"]>]> {
  let summary = "keep the upper or lower triangle of the last two dims";
  let description = [{
    ONNX Trilu: elements on or above (upper = 1) or on or below (upper = 0)
    the k-th diagonal are kept, the others are 0. `k` is an optional scalar
    operand (default 0).
  }];
  let arguments = (ins Ge_Tensor:$input, Optional<Ge_I64Tensor>:$k,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$upper);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
}

def Ge_EyeLikeOp : Ge_TensorOp<"eye_like"> {
  let summary = "a 2-D tensor of input's shape with ones on the k-th diagonal";
  let description = [{
    ONNX EyeLike without its `dtype` attribute: the result's element type is
    the target (the input's when ONNX's dtype is absent), as for ge.cast.
  }];
  let arguments = (ins Ge_NumericOrBoolTensor:$input,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$k);
  let results = (outs Ge_NumericOrBoolTensor:$output);
  let hasVerifier = 1;
}

def Ge_ReverseSequenceOp : Ge_TensorOp<"reverse_sequence",
    [AllTypesMatch<["input", "Y"]>]> {
  let summary = "reverse the first sequence_lens[b] steps of each batch entry";
  let arguments = (ins Ge_Tensor:$input, Ge_I64Tensor:$sequence_lens,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$batch_axis,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$time_axis);
  let results = (outs Ge_Tensor:$Y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GEINDEXOPS_TD
