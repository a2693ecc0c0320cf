//===- GeLossOps.td - losses, picking and normalisation ops -*- tablegen -*-===//
//
// The loss functions (inference form: the loss values, no gradients), the
// arg/one-hot picks along an axis, the scan, the local normalisations and the
// determinant. Names, operands, attributes and defaults are ONNX opset 17's.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GELOSSOPS_TD
#define GEFLOW_IR_GELOSSOPS_TD

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss share their operands
// and attributes: [N, C, d1..dk] scores, [N, d1..dk] class indices, an
// optional [C] class weight, a reduction and an optional ignored class.
class Ge_LossOp<string mnemonic, dag operands, dag outputs>
    : Ge_TensorOp<mnemonic> {
  let arguments = !con(operands, (ins
                   DefaultValuedAttr<StrAttr, "\"mean\"">:$reduction,
                   OptionalAttr<Ge_I64Attr>:$ignore_index));
  let results = outputs;
  let hasVerifier = 1;
}

def Ge_NegativeLogLikelihoodLossOp : Ge_LossOp<"negative_log_likelihood_loss",
    (ins Ge_FloatTensor:$input, Ge_IndexTensor:$target,
         Optional<Ge_FloatTensor>:$weight),
    (outs Ge_FloatTensor:$loss)> {
  let summary = "-input[n, target[n, d...], d...] * weight[target], reduced";
  let description = [{
    ONNX NegativeLogLikelihoodLoss. `input` holds log-probabilities
    [N, C, d1..dk], `target` the classes [N, d1..dk]. With `reduction` "none"
    the loss has target's shape; "sum" and "mean" give a scalar, "mean"
    dividing by the summed weights of the elements not ignored. Elements whose
    target is `ignore_index` contribute 0; any other target outside [0, C) is
    a run-time error of the kernel.
  }];
}

def Ge_SoftmaxCrossEntropyLossOp : Ge_LossOp<"softmax_cross_entropy_loss",
    (ins Ge_FloatTensor:$scores, Ge_IndexTensor:$labels,
         Optional<Ge_FloatTensor>:$weights),
    (outs Ge_FloatTensor:$output, Optional<Ge_FloatTensor>:$log_prob)> {
  let summary = "negative_log_likelihood_loss(log_softmax(scores, axis 1))";
  let description = [{
    ONNX SoftmaxCrossEntropyLoss: log_softmax over the class dim (1), then
    the negative log likelihood of `labels` as ge.negative_log_likelihood_loss
    computes it. ONNX's optional second output, the log-probabilities, is a
    result only when the model reads it (the importer drops it otherwise).
  }];
}

def Ge_ArgMinOp : Ge_TensorOp<"arg_min"> {
  let summary = "index of the min along axis (i64)";
  let arguments = (ins Ge_NumericTensor:$data,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$keepdims,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$select_last_index);
  let results = (outs Ge_I64Tensor:$reduced);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::ge::detail::verifyArgReduceOp(getOperation(), getAxis(),
          getKeepdims(), getSelectLastIndex());
    }
  }];
}

def Ge_HardmaxOp : Ge_TensorOp<"hardmax", [SameOperandsAndResultType]> {
  let summary = "1 at the first max along axis, 0 elsewhere";
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

def Ge_CumSumOp : Ge_TensorOp<"cum_sum", [AllTypesMatch<["x", "y"]>]> {
  let summary = "running sum along the axis operand";
  let description = [{
    ONNX CumSum: `axis` is a scalar (or 1-element) i32/i64 operand. With
    `exclusive` = 1 an element's own value is left out of its sum; with
    `reverse` = 1 the sums run from the end of the axis.
  }];
  let arguments = (ins Ge_NumericTensor:$x, Ge_IndexTensor:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$exclusive,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$reverse);
  let results = (outs Ge_NumericTensor:$y);
  let hasVerifier = 1;
}

def Ge_LRNOp : Ge_TensorOp<"lrn", [SameOperandsAndResultType]> {
  let summary = "local response normalisation across channels";
  let description = [{
    ONNX LRN on [N, C, ...]: y = x / (bias + alpha / size * sum of x^2 over
    the `size` channels around c)^beta, the window being
    [c - floor((size - 1) / 2), c + ceil((size - 1) / 2)].
  }];
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<F32Attr, "0.0001f">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.75f">:$beta,
                   DefaultValuedAttr<F32Attr, "1.0f">:$bias,
                   Ge_I64Attr:$size);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_MeanVarianceNormalizationOp : Ge_TensorOp<"mean_variance_normalization",
    [SameOperandsAndResultType]> {
  let summary = "(X - mean) / (sqrt(variance) + 1e-9) over axes";
  let description = [{
    ONNX MeanVarianceNormalization: mean and (population) variance over
    `axes` (default [0, 2, 3]); epsilon is ONNX's fixed 1e-9.
  }];
  let arguments = (ins Ge_FloatTensor:$X, OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_LpNormalizationOp : Ge_TensorOp<"lp_normalization", [SameOperandsAndResultType]> {
  let summary = "x / ||x||_p along axis (p = 1 or 2)";
  let arguments = (ins Ge_FloatTensor:$input,
                   DefaultValuedAttr<Ge_I64Attr, "-1">:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "2">:$p);
  let results = (outs Ge_FloatTensor:$output);
  let hasVerifier = 1;
}

def Ge_GlobalLpPoolOp : Ge_TensorOp<"global_lp_pool", [SameOperandsAndResultElementType]> {
  let summary = "(sum |x|^p)^(1/p) over all spatial dims, keeping them as 1";
  let arguments = (ins Ge_FloatTensor:$X, DefaultValuedAttr<Ge_I64Attr, "2">:$p);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_LpPoolOp : Ge_TensorOp<"lp_pool", [SameOperandsAndResultElementType]> {
  let summary = "N-D pooling of (sum |x|^p)^(1/p) over each window";
  let description = [{
    ONNX LpPool (opset 11): padding contributes nothing to a window's sum.
  }];
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<StrAttr, "\"NOTSET\"">:$auto_pad,
                   DenseI64ArrayAttr:$kernel_shape,
                   DefaultValuedAttr<Ge_I64Attr, "2">:$p,
                   OptionalAttr<DenseI64ArrayAttr>:$pads,
                   OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

def Ge_DetOp : Ge_TensorOp<"det", [SameOperandsAndResultElementType]> {
  let summary = "determinant of each [M, M] matrix of [*, M, M]";
  let arguments = (ins Ge_FloatTensor:$X);
  let results = (outs Ge_FloatTensor:$Y);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GELOSSOPS_TD
