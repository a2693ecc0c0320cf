//===- GeElementwiseOps.td - elementwise ge ops ------------*- tablegen -*-===//
//
// Unary ops (result type = operand type), float predicates, size,
// broadcasting binary ops, logical and bit ops and comparisons, variadic
// broadcasting ops, clip, where and cast_like.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEELEMENTWISEOPS_TD
#define GEFLOW_IR_GEELEMENTWISEOPS_TD

// BitShift's operands (ONNX: uint8 to uint64 only).
def Ge_UnsignedTensor : RankedTensorOf<Ge_UnsignedIntTypes>;

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

def Ge_AbsOp : Ge_UnaryOp<"abs", Ge_NumericTensor> { let summary = "|x|"; }
def Ge_CeilOp : Ge_UnaryOp<"ceil", Ge_FloatTensor> { let summary = "ceil(x)"; }
def Ge_CosOp : Ge_UnaryOp<"cos", Ge_FloatTensor> { let summary = "cos(x)"; }
def Ge_ErfOp : Ge_UnaryOp<"erf", Ge_FloatTensor> { let summary = "erf(x)"; }
def Ge_ExpOp : Ge_UnaryOp<"exp", Ge_FloatTensor> { let summary = "e^x"; }
def Ge_FloorOp : Ge_UnaryOp<"floor", Ge_FloatTensor> { let summary = "floor(x)"; }
def Ge_HardSwishOp : Ge_UnaryOp<"hard_swish", Ge_FloatTensor> {
  let summary = "x * max(0, min(1, x/6 + 1/2))";
}
def Ge_IdentityOp : Ge_UnaryOp<"identity", Ge_Tensor> {
  let summary = "y = x";
  let hasFolder = 1;
}
def Ge_LogOp : Ge_UnaryOp<"log", Ge_FloatTensor> { let summary = "ln(x)"; }
def Ge_NegOp : Ge_UnaryOp<"neg", Ge_SignedTensor> {
  let summary = "-x";
  let hasFolder = 1;
}
def Ge_NotOp : Ge_UnaryOp<"not", Ge_BoolTensor> { let summary = "logical not"; }
def Ge_ReciprocalOp : Ge_UnaryOp<"reciprocal", Ge_FloatTensor> { let summary = "1/x"; }
def Ge_ReluOp : Ge_UnaryOp<"relu", Ge_SignedTensor> { let summary = "max(0, x)"; }
def Ge_RoundOp : Ge_UnaryOp<"round", Ge_FloatTensor> {
  let summary = "round to the nearest integer, halves to even";
}
def Ge_SigmoidOp : Ge_UnaryOp<"sigmoid", Ge_FloatTensor> { let summary = "1/(1+e^-x)"; }
def Ge_SignOp : Ge_UnaryOp<"sign", Ge_NumericTensor> { let summary = "sign(x)"; }
def Ge_SinOp : Ge_UnaryOp<"sin", Ge_FloatTensor> { let summary = "sin(x)"; }
def Ge_SoftplusOp : Ge_UnaryOp<"softplus", Ge_FloatTensor> { let summary = "ln(e^x + 1)"; }
def Ge_SoftsignOp : Ge_UnaryOp<"softsign", Ge_FloatTensor> { let summary = "x/(1+|x|)"; }
def Ge_SqrtOp : Ge_UnaryOp<"sqrt", Ge_FloatTensor> { let summary = "sqrt(x)"; }
def Ge_TanhOp : Ge_UnaryOp<"tanh", Ge_FloatTensor> { let summary = "tanh(x)"; }

// Trigonometric and hyperbolic functions (ONNX 7 and 9), float only.
def Ge_TanOp : Ge_UnaryOp<"tan", Ge_FloatTensor> { let summary = "tan(x)"; }
def Ge_AsinOp : Ge_UnaryOp<"asin", Ge_FloatTensor> { let summary = "asin(x)"; }
def Ge_AcosOp : Ge_UnaryOp<"acos", Ge_FloatTensor> { let summary = "acos(x)"; }
def Ge_AtanOp : Ge_UnaryOp<"atan", Ge_FloatTensor> { let summary = "atan(x)"; }
def Ge_SinhOp : Ge_UnaryOp<"sinh", Ge_FloatTensor> { let summary = "sinh(x)"; }
def Ge_CoshOp : Ge_UnaryOp<"cosh", Ge_FloatTensor> { let summary = "cosh(x)"; }
def Ge_AsinhOp : Ge_UnaryOp<"asinh", Ge_FloatTensor> { let summary = "asinh(x)"; }
def Ge_AcoshOp : Ge_UnaryOp<"acosh", Ge_FloatTensor> { let summary = "acosh(x)"; }
def Ge_AtanhOp : Ge_UnaryOp<"atanh", Ge_FloatTensor> { let summary = "atanh(x)"; }

def Ge_CeluOp : Ge_UnaryOp<"celu", Ge_FloatTensor> {
  let summary = "max(0, x) + min(0, alpha * (e^(x/alpha) - 1))";
  let arguments = (ins Ge_FloatTensor:$X, DefaultValuedAttr<F32Attr, "1.0f">:$alpha);
  let hasVerifier = 1;
}
def Ge_ThresholdedReluOp : Ge_UnaryOp<"thresholded_relu", Ge_FloatTensor> {
  let summary = "x > alpha ? x : 0";
  let arguments = (ins Ge_FloatTensor:$X, DefaultValuedAttr<F32Attr, "1.0f">:$alpha);
}
def Ge_ShrinkOp : Ge_UnaryOp<"shrink", Ge_NumericTensor> {
  let summary = "x < -lambd ? x + bias : x > lambd ? x - bias : 0";
  let description = [{
    ONNX Shrink. On integer tensors bias and lambd are converted to the
    element type before the comparison and the arithmetic.
  }];
  let arguments = (ins Ge_NumericTensor:$input,
                   DefaultValuedAttr<F32Attr, "0.0f">:$bias,
                   DefaultValuedAttr<F32Attr, "0.5f">:$lambd);
  let results = (outs Ge_NumericTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($output)";
}

// Float classification: a bool tensor of the input's shape.
class Ge_FloatPredicateOp<string mnemonic>
    : Ge_Op<mnemonic, [Pure, SameOperandsAndResultShape]> {
  let results = (outs Ge_BoolTensor:$Y);
  let assemblyFormat = "$X attr-dict `:` functional-type(operands, results)";
}
def Ge_IsInfOp : Ge_FloatPredicateOp<"is_inf"> {
  let summary = "x is +inf (detect_positive) or -inf (detect_negative)";
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$detect_negative,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$detect_positive);
  let hasVerifier = 1;
}
def Ge_IsNaNOp : Ge_FloatPredicateOp<"is_nan"> {
  let summary = "x is NaN";
  let arguments = (ins Ge_FloatTensor:$X);
}

def Ge_SizeOp : Ge_TensorOp<"size"> {
  let summary = "the number of elements of data, as an i64 scalar";
  let description = [{
    ONNX Size. Shapes are static after import, so the op folds to a
    constant; its kernel serves IR that is run unfolded.
  }];
  let arguments = (ins Ge_Tensor:$data);
  let results = (outs Ge_I64Tensor:$size);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_EluOp : Ge_UnaryOp<"elu", Ge_FloatTensor> {
  let summary = "x < 0 ? alpha * (e^x - 1) : x";
  let arguments = (ins Ge_FloatTensor:$X, DefaultValuedAttr<F32Attr, "1.0f">:$alpha);
}
def Ge_HardSigmoidOp : Ge_UnaryOp<"hard_sigmoid", Ge_FloatTensor> {
  let summary = "max(0, min(1, alpha * x + beta))";
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<F32Attr, "0.2f">:$alpha,
                   DefaultValuedAttr<F32Attr, "0.5f">:$beta);
}
def Ge_LeakyReluOp : Ge_UnaryOp<"leaky_relu", Ge_FloatTensor> {
  let summary = "x < 0 ? alpha * x : x";
  let arguments = (ins Ge_FloatTensor:$X, DefaultValuedAttr<F32Attr, "0.01f">:$alpha);
}
def Ge_SeluOp : Ge_UnaryOp<"selu", Ge_FloatTensor> {
  let summary = "gamma * (x <= 0 ? alpha * (e^x - 1) : x)";
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<F32Attr, "1.67326319217681884765625f">:$alpha,
                   DefaultValuedAttr<F32Attr, "1.05070102214813232421875f">:$gamma);
}

// ONNX 20 Gelu; the importer's opset has none, ge-fuse-gelu makes it from
// the decomposed patterns exporters write.
def Ge_GeluOp : Ge_UnaryOp<"gelu", Ge_FloatTensor> {
  let summary = "0.5 x (1 + erf(x / sqrt 2)), or its tanh approximation";
  let description = [{
    ONNX 20's Gelu, which the importer's opset (17) does not have: only
    `ge-fuse-gelu` makes it, from the decomposed forms exporters write.
    `approximate` is "none" (the erf form, 0.5 x (1 + erf(x / sqrt 2))) or
    "tanh" (0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))); the verifier
    rejects anything else.
  }];
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<StrAttr, "\"none\"">:$approximate);
  let hasVerifier = 1;
}

// ONNX 24 Swish; the importer's opset has none, ge-fuse-swish makes it from
// x * Sigmoid(x), PyTorch's SiLU as exporters write it.
def Ge_SwishOp : Ge_UnaryOp<"swish", Ge_FloatTensor> {
  let summary = "x * sigmoid(alpha * x)";
  let arguments = (ins Ge_FloatTensor:$X,
                   DefaultValuedAttr<F32Attr, "1.0f">:$alpha);
}

def Ge_ClipOp : Ge_Op<"clip", [Pure, AttrSizedOperandSegments,
                               AllTypesMatch<["input", "output"]>]> {
  let summary = "clamp to [min, max]; min and max are optional scalars";
  let description = [{
    ONNX Clip (opset 11 and later): `min` and `max` are optional scalar
    operands, not attributes, so the op carries AttrSizedOperandSegments and
    the textual form names them: `ge.clip %x min %lo max %hi`. An absent bound
    does not clamp.
  }];
  let arguments = (ins Ge_NumericTensor:$input,
                   Optional<Ge_NumericTensor>:$min,
                   Optional<Ge_NumericTensor>:$max);
  let results = (outs Ge_NumericTensor:$output);
  let assemblyFormat = [{
    $input (`min` $min^)? (`max` $max^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Binary with broadcasting
//===----------------------------------------------------------------------===//

def Ge_AddOp : Ge_BroadcastBinaryOp<"add", Ge_NumericTensor> {
  let summary = "A + B"; let hasFolder = 1;
}
def Ge_SubOp : Ge_BroadcastBinaryOp<"sub", Ge_NumericTensor> {
  let summary = "A - B"; let hasFolder = 1;
}
def Ge_MulOp : Ge_BroadcastBinaryOp<"mul", Ge_NumericTensor> {
  let summary = "A * B"; let hasFolder = 1;
}
def Ge_DivOp : Ge_BroadcastBinaryOp<"div", Ge_NumericTensor> {
  let summary = "A / B (integer division truncates)"; let hasFolder = 1;
  let description = [{
    Integer division truncates toward zero (C and ONNX Runtime; numpy would
    floor). A zero integer divisor gives 0 at run time instead of a trap, and
    the folder leaves division by zero and INT_MIN / -1 to run time.
  }];
}

def Ge_ModOp : Ge_BroadcastBinaryOp<"mod", Ge_NumericTensor> {
  let summary = "A mod B: the divisor's sign (fmod = 0) or the dividend's (fmod = 1)";
  let description = [{
    ONNX Mod. With `fmod` = 0 (integers only) the remainder takes the sign
    of the divisor, as Python's `%`; with `fmod` = 1 it takes the sign of
    the dividend, as C's `fmod`. Float tensors need `fmod` = 1 (ONNX). A
    zero integer divisor gives 0 at run time instead of a trap.
  }];
  let arguments = (ins Ge_NumericTensor:$A, Ge_NumericTensor:$B,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$fmod);
  let extraClassDefinition = [{}];
  // Shape arithmetic (Swin's window padding) takes integer remainders.
  let hasFolder = 1;
}

def Ge_BitShiftOp : Ge_BroadcastBinaryOp<"bit_shift", Ge_UnsignedTensor> {
  let summary = "X << Y (direction \"LEFT\") or X >> Y (\"RIGHT\")";
  let description = [{
    ONNX BitShift on unsigned integers. A shift by the bit width or more
    gives 0 (C leaves it undefined).
  }];
  let arguments = (ins Ge_UnsignedTensor:$X, Ge_UnsignedTensor:$Y,
                   StrAttr:$direction);
  let results = (outs Ge_UnsignedTensor:$Z);
  let extraClassDefinition = [{}];
}

// Logical ops on bool tensors with broadcasting.
def Ge_AndOp : Ge_BroadcastBinaryOp<"and", Ge_BoolTensor> { let summary = "A and B"; }
def Ge_OrOp : Ge_BroadcastBinaryOp<"or", Ge_BoolTensor> { let summary = "A or B"; }
def Ge_XorOp : Ge_BroadcastBinaryOp<"xor", Ge_BoolTensor> { let summary = "A xor B"; }

def Ge_PowOp : Ge_TensorOp<"pow", [AllElementTypesMatch<["X", "Z"]>]> {
  let summary = "X ^ Y with broadcasting; Y may have another element type";
  let description = [{
    ONNX Pow: the exponent Y may have another numeric element type than the
    base X; Z has X's.
  }];
  let arguments = (ins Ge_NumericTensor:$X, Ge_NumericTensor:$Y);
  let results = (outs Ge_NumericTensor:$Z);
  let hasVerifier = 1;
}

def Ge_PReluOp : Ge_TensorOp<"prelu", [SameOperandsAndResultElementType]> {
  let summary = "x < 0 ? slope * x : x; slope broadcasts to X";
  let arguments = (ins Ge_SignedTensor:$X, Ge_SignedTensor:$slope);
  let results = (outs Ge_SignedTensor:$Y);
  let hasVerifier = 1;
}

def Ge_EqualOp : Ge_ComparisonOp<"equal", Ge_NumericOrBoolTensor> {
  let summary = "A == B"; let hasFolder = 1;
}
def Ge_GreaterOp : Ge_ComparisonOp<"greater", Ge_NumericTensor> { let summary = "A > B"; }
def Ge_LessOp : Ge_ComparisonOp<"less", Ge_NumericTensor> { let summary = "A < B"; }
def Ge_GreaterOrEqualOp : Ge_ComparisonOp<"greater_or_equal", Ge_NumericTensor> {
  let summary = "A >= B";
}
def Ge_LessOrEqualOp : Ge_ComparisonOp<"less_or_equal", Ge_NumericTensor> {
  let summary = "A <= B";
}

//===----------------------------------------------------------------------===//
// Variadic with broadcasting
//===----------------------------------------------------------------------===//

def Ge_MaxOp : Ge_VariadicBroadcastOp<"max", Ge_NumericTensor> { let summary = "elementwise max"; }
def Ge_MinOp : Ge_VariadicBroadcastOp<"min", Ge_NumericTensor> { let summary = "elementwise min"; }
def Ge_MeanOp : Ge_VariadicBroadcastOp<"mean", Ge_FloatTensor> { let summary = "elementwise mean"; }
def Ge_SumOp : Ge_VariadicBroadcastOp<"sum", Ge_FloatTensor> { let summary = "elementwise sum"; }

def Ge_WhereOp : Ge_TensorOp<"where", [AllElementTypesMatch<["X", "Y", "output"]>]> {
  let summary = "condition ? X : Y, three-way broadcast";
  let arguments = (ins Ge_BoolTensor:$condition, Ge_Tensor:$X, Ge_Tensor:$Y);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Ge_CastLikeOp : Ge_TensorOp<"cast_like"> {
  let summary = "input converted to target_type's element type";
  let description = [{
    ONNX CastLike: the result's element type is target_type's; only that
    operand's type matters. Canonicalization rewrites it to `ge.cast`.
  }];
  let arguments = (ins Ge_Tensor:$input, Ge_Tensor:$target_type);
  let results = (outs Ge_Tensor:$output);
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

#endif // GEFLOW_IR_GEELEMENTWISEOPS_TD
