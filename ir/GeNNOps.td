//===- GeNNOps.td - neural-network ge ops ------------------*- tablegen -*-===//
//
// Convolution, pooling, normalisation, matrix products, softmax, arg/top-k
// and reductions. Layout is NCHW (ONNX); spatial attributes have one entry
// per spatial dim, pads have two ([x1_begin, ..., x1_end, ...]).
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GENNOPS_TD
#define GEFLOW_IR_GENNOPS_TD

def Ge_ConvOp : Ge_TensorOp<"conv", [SameOperandsAndResultElementType]> {
  let summary = "N-D convolution, Y = conv(X, W) + B";
  let description = [{
    ONNX Conv plus `data_format`, which the importer leaves at NCHW (X and Y
    as ONNX has them). `ge-block-channels` sets NC1HWC0 on 2-D convs of one
    group or one channel per group: X is then [N, ceil(C / 16), H, W, 16] and
    Y [N, ceil(M / 16), OH, OW, 16] (ge.trans_data), W and B stay as ONNX's.
  }];
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$W, Optional<Ge_FloatTensor>:$B,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_ConvTransposeOp : Ge_TensorOp<"conv_transpose", [SameOperandsAndResultElementType]> {
  let summary = "N-D transposed convolution";
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$W, Optional<Ge_FloatTensor>:$B,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$group,
                   OptionalAttr<DenseI64ArrayAttr>:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$output_padding,
                   OptionalAttr<DenseI64ArrayAttr>:$output_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_AveragePoolOp : Ge_TensorOp<"average_pool", [SameOperandsAndResultElementType]> {
  let summary = "N-D average pooling";
  let description = [{
    With `data_format` NC1HWC0 (set by `ge-block-channels` on 2-D pools) X
    is [N, C1, H, W, 16] and Y [N, C1, OH, OW, 16]; max_pool's likewise,
    without Indices.
  }];
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$ceil_mode,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$count_include_pad,
                   DenseI64ArrayAttr:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_MaxPoolOp : Ge_TensorOp<"max_pool", [AllElementTypesMatch<["X", "Y"]>]> {
  let summary = "N-D max pooling; Indices (i64) only when something reads it";
  let description = [{
    The importer keeps ONNX's Indices output; canonicalization drops it when
    nothing reads it, so the kernel does not compute it (a search of every
    window for the first tap holding the maximum).
  }];
  let arguments = (ins Ge_NumericTensor:$X,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$ceil_mode,
                   OptionalAttr<DenseI64ArrayAttr>:$dilations,
                   DenseI64ArrayAttr:$kernel_shape,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$storage_order,
                   OptionalAttr<DenseI64ArrayAttr>:$strides,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs Ge_NumericTensor:$Y, Optional<Ge_I64Tensor>:$Indices);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Ge_GlobalAveragePoolOp : Ge_TensorOp<"global_average_pool", [SameOperandsAndResultElementType]> {
  let summary = "average over all spatial dims, keeping them as 1";
  let description = [{
    With `data_format` NC1HWC0 (set by `ge-block-channels`) X is [N, C1, H, W,
    16] and Y [N, C1, 1, 1, 16]: each lane averaged over H and W.
  }];
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<StrAttr, "\"NCHW\"">:$data_format);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_GlobalMaxPoolOp : Ge_TensorOp<"global_max_pool", [SameOperandsAndResultElementType]> {
  let summary = "max over all spatial dims, keeping them as 1";
  let arguments = (ins Ge_FloatTensor:$X);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_BatchNormalizationOp : Ge_TensorOp<"batch_normalization", [AllElementTypesMatch<["X", "Y"]>]> {
  let summary = "inference batch norm: Y = (X - mean) / sqrt(var + eps) * scale + B";
  let description = [{
    ONNX BatchNormalization in inference form only. `training_mode` must be 0
    (the verifier rejects 1), so the op has one result, Y: ONNX's running_mean
    and running_var outputs exist only in training and are not results here.
    `momentum` is kept so the attribute round-trips; inference does not read it.

    `ge-fuse-batchnorm` folds a batch norm that follows a conv, gemm or rank-2
    matmul with constant weights into that op's weights and bias.
  }];
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$scale, Ge_FloatTensor:$B,
                   Ge_FloatTensor:$input_mean, Ge_FloatTensor:$input_var,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon,
                   DefaultValuedAttr<F32Attr, "0.9f">:$momentum,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$training_mode);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_InstanceNormalizationOp : Ge_TensorOp<"instance_normalization", [SameOperandsAndResultElementType]> {
  let summary = "normalise each (n, c) over the spatial dims";
  let arguments = (ins Ge_FloatTensor:$input, Ge_FloatTensor:$scale, Ge_FloatTensor:$B,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon);
  let results = (outs Ge_FloatTensor:$output);
  let hasVerifier = 1;
}

def Ge_LayerNormalizationOp : Ge_TensorOp<"layer_normalization", [SameOperandsAndResultElementType]> {
  let summary = "normalise over dims [axis, rank); Y, and optionally Mean and InvStdDev";
  let description = [{
    ONNX LayerNormalization (opset 17). Its two optional outputs, Mean and
    InvStdDev, are one variadic result group, `statistics`: none or both, never
    one (the importer keeps both when the model reads either). Each has the
    shape of X with the normalised dims [axis, rank) set to 1.

    Exporters before opset 17 write the operation as ReduceMean, Sub, Pow, Add,
    Sqrt and Div; `ge-fuse-layernorm` turns that pattern into this op.
  }];
  let arguments = (ins Ge_FloatTensor:$X, Ge_FloatTensor:$Scale, Optional<Ge_FloatTensor>:$B,
                   DefaultValuedAttr<Ge_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<F32Attr, "1e-5f">:$epsilon,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$stash_type);
  // Mean and InvStdDev (ONNX's optional outputs) come as a pair or not at all.
  let results = (outs Ge_FloatTensor:$Y, Variadic<Ge_FloatTensor>:$statistics);
  let hasVerifier = 1;
}

def Ge_GemmOp : Ge_TensorOp<"gemm", [SameOperandsAndResultElementType]> {
  let summary = "Y = alpha * op(A) * op(B) + beta * C (C broadcast to [M, N])";
  let arguments = (ins Ge_NumericTensor:$A, Ge_NumericTensor:$B,
                   Optional<Ge_NumericTensor>:$C,
                   DefaultValuedAttr<F32Attr, "1.0f">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.0f">:$beta,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$transA,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$transB);
  let results = (outs Ge_NumericTensor:$Y);
  let hasVerifier = 1;
}

def Ge_MatMulOp : Ge_TensorOp<"matmul", [SameOperandsAndResultElementType]> {
  let summary = "numpy matmul with batch broadcasting";
  let arguments = (ins Ge_NumericTensor:$A, Ge_NumericTensor:$B);
  let results = (outs Ge_NumericTensor:$Y);
  let hasVerifier = 1;
}

def Ge_SoftmaxOp : Ge_TensorOp<"softmax", [SameOperandsAndResultType]> {
  let summary = "softmax along axis";
  let arguments = (ins Ge_FloatTensor:$input, DefaultValuedAttr<Ge_I64Attr, "-1">:$axis);
  let results = (outs Ge_FloatTensor:$output);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyAxisAttr(getOperation(), "axis", getAxis(),
          getInput().getType().getRank());
    }
  }];
}

def Ge_LogSoftmaxOp : Ge_TensorOp<"log_softmax", [SameOperandsAndResultType]> {
  let summary = "log(softmax) along axis";
  let arguments = (ins Ge_FloatTensor:$input, DefaultValuedAttr<Ge_I64Attr, "-1">:$axis);
  let results = (outs Ge_FloatTensor:$output);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyAxisAttr(getOperation(), "axis", getAxis(),
          getInput().getType().getRank());
    }
  }];
}

def Ge_ArgMaxOp : Ge_TensorOp<"arg_max"> {
  let summary = "index of the max along axis (i64)";
  let arguments = (ins Ge_NumericTensor:$data,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$select_last_index);
  let results = (outs Ge_I64Tensor:$reduced);
  let hasVerifier = 1;
}

def Ge_TopKOp : Ge_TensorOp<"top_k", [AllElementTypesMatch<["X", "Values"]>]> {
  let summary = "the k largest (or smallest) entries along axis and their indices";
  let arguments = (ins Ge_NumericTensor:$X, Ge_I64Tensor:$K,
                   DefaultValuedAttr<Ge_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$largest,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$sorted);
  let results = (outs Ge_NumericTensor:$Values, Ge_I64Tensor:$Indices);
  let hasVerifier = 1;
}

def Ge_ReduceL2Op : Ge_ReduceOp<"reduce_l2", Ge_NumericTensor> { let summary = "sqrt(sum(x^2))"; }
def Ge_ReduceMaxOp : Ge_ReduceOp<"reduce_max", Ge_NumericTensor> { let summary = "max"; }
def Ge_ReduceMeanOp : Ge_ReduceOp<"reduce_mean", Ge_NumericTensor> { let summary = "mean"; }
def Ge_ReduceMinOp : Ge_ReduceOp<"reduce_min", Ge_NumericTensor> { let summary = "min"; }
def Ge_ReduceProdOp : Ge_ReduceOp<"reduce_prod", Ge_NumericTensor> { let summary = "product"; }
def Ge_ReduceSumSquareOp : Ge_ReduceOp<"reduce_sum_square", Ge_NumericTensor> {
  let summary = "sum(x^2)";
}
def Ge_ReduceL1Op : Ge_ReduceOp<"reduce_l1", Ge_NumericTensor> { let summary = "sum(|x|)"; }
def Ge_ReduceLogSumOp : Ge_ReduceOp<"reduce_log_sum", Ge_FloatTensor> { let summary = "log(sum(x))"; }
def Ge_ReduceLogSumExpOp : Ge_ReduceOp<"reduce_log_sum_exp", Ge_FloatTensor> {
  let summary = "log(sum(exp(x)))";
}

def Ge_ReduceSumOp : Ge_TensorOp<"reduce_sum", [AllElementTypesMatch<["data", "reduced"]>]> {
  let summary = "sum over the axes operand (all dims when absent, unless noop)";
  let description = [{
    ONNX ReduceSum (opset 13 and later): `axes` is an optional i64 operand, not
    an attribute, unlike the other `ge.reduce_*` ops, which keep opset 17's
    `axes` attribute. Without axes it reduces every dim, unless
    `noop_with_empty_axes` = 1, when it returns `data` unchanged.
  }];
  let arguments = (ins Ge_NumericTensor:$data, Optional<Ge_I64Tensor>:$axes,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$noop_with_empty_axes);
  let results = (outs Ge_NumericTensor:$reduced);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GENNOPS_TD
