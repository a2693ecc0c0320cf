//===- GeRecurrentOps.td - recurrent nets and einsum -------*- tablegen -*-===//
//
// ONNX LSTM, GRU and RNN as imported, the recurrences ge-lower-recurrent
// turns them into, and Einsum. ONNX names and defaults (opset 17).
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GERECURRENTOPS_TD
#define GEFLOW_IR_GERECURRENTOPS_TD

def Ge_F32Tensor : RankedTensorOf<[F32]>;
def Ge_I32Tensor : RankedTensorOf<[I32]>;

// The attributes every recurrent op shares, in ONNX's spelling.
defvar Ge_RecurrentAttrs = (ins
    OptionalAttr<DenseF32ArrayAttr>:$activation_alpha,
    OptionalAttr<DenseF32ArrayAttr>:$activation_beta,
    OptionalAttr<StrArrayAttr>:$activations,
    OptionalAttr<F32Attr>:$clip,
    DefaultValuedAttr<StrAttr, "\"forward\"">:$direction,
    OptionalAttr<Ge_I64Attr>:$hidden_size,
    DefaultValuedAttr<Ge_I64Attr, "0">:$layout);

// Optional operands print as `B %b`, `sequence_lens %s`, ...
defvar Ge_OptionalStateFormat =
    "(`B` $B^)? (`sequence_lens` $sequence_lens^)? (`initial_h` $initial_h^)?";
defvar Ge_LstmFormat = " (`initial_c` $initial_c^)? (`P` $P^)?";

// An ONNX recurrent op as imported: X, W, R and the optional inputs, one
// segment per ONNX input position. Y and Y_h (and LSTM's Y_c) are always
// results; the importer types the ones the model leaves out.
class Ge_RecurrentOp<string mnemonic, dag extraIns, dag states,
                     string extraFormat = "">
    : Ge_Op<mnemonic, [Pure, AttrSizedOperandSegments]> {
  let arguments = !con((ins Ge_F32Tensor:$X, Ge_F32Tensor:$W, Ge_F32Tensor:$R,
                            Optional<Ge_F32Tensor>:$B,
                            Optional<Ge_I32Tensor>:$sequence_lens,
                            Optional<Ge_F32Tensor>:$initial_h),
                       extraIns, Ge_RecurrentAttrs);
  let results = !con((outs Ge_F32Tensor:$Y), states);
  let assemblyFormat = !strconcat("$X `,` $W `,` $R ", Ge_OptionalStateFormat,
      extraFormat, " attr-dict `:` functional-type(operands, results)");
  let hasVerifier = 1;
}

// The recurrence of a lowered recurrent op: `XW` is X * W^T for every time
// step and direction, computed before by one ge.matmul. The rest is the
// ONNX op's.
class Ge_RecurrenceOp<string mnemonic, dag extraIns, dag states,
                      string extraFormat = "">
    : Ge_Op<mnemonic, [Pure, AttrSizedOperandSegments]> {
  let arguments = !con((ins Ge_F32Tensor:$XW, Ge_F32Tensor:$R,
                            Optional<Ge_F32Tensor>:$B,
                            Optional<Ge_I32Tensor>:$sequence_lens,
                            Optional<Ge_F32Tensor>:$initial_h),
                       extraIns, Ge_RecurrentAttrs);
  let results = !con((outs Ge_F32Tensor:$Y), states);
  let assemblyFormat = !strconcat("$XW `,` $R ", Ge_OptionalStateFormat,
      extraFormat, " attr-dict `:` functional-type(operands, results)");
  let hasVerifier = 1;
}

defvar Ge_LstmIns = (ins Optional<Ge_F32Tensor>:$initial_c,
                         Optional<Ge_F32Tensor>:$P,
                         DefaultValuedAttr<Ge_I64Attr, "0">:$input_forget);
defvar Ge_GruIns = (ins DefaultValuedAttr<Ge_I64Attr, "0">:$linear_before_reset);

def Ge_LSTMOp : Ge_RecurrentOp<"lstm", Ge_LstmIns,
                               (outs Ge_F32Tensor:$Y_h, Ge_F32Tensor:$Y_c),
                               Ge_LstmFormat> {
  let summary = "ONNX LSTM (gates i, o, f, c); lowered by ge-lower-recurrent";
}
def Ge_GRUOp : Ge_RecurrentOp<"gru", Ge_GruIns, (outs Ge_F32Tensor:$Y_h)> {
  let summary = "ONNX GRU (gates z, r, h); lowered by ge-lower-recurrent";
}
def Ge_RNNOp : Ge_RecurrentOp<"rnn", (ins), (outs Ge_F32Tensor:$Y_h)> {
  let summary = "ONNX RNN; lowered by ge-lower-recurrent";
}

def Ge_LstmRecurrenceOp : Ge_RecurrenceOp<"lstm_recurrence", Ge_LstmIns,
                               (outs Ge_F32Tensor:$Y_h, Ge_F32Tensor:$Y_c),
                               Ge_LstmFormat> {
  let summary = "the per-step part of LSTM, given XW = X * W^T";
  let description = [{
    `XW` is [num_directions, T * batch, 4 * hidden_size], rows in X's order
    (t * batch + b for layout 0, b * T + t for layout 1). One kernel runs all
    T steps of every direction: h * R^T on the cube, then the gates.
  }];
}
def Ge_GruRecurrenceOp : Ge_RecurrenceOp<"gru_recurrence", Ge_GruIns,
                                         (outs Ge_F32Tensor:$Y_h)> {
  let summary = "the per-step part of GRU, given XW = X * W^T";
  let description = [{ `XW` as for ge.lstm_recurrence, 3 * hidden_size wide. }];
}
def Ge_RnnRecurrenceOp : Ge_RecurrenceOp<"rnn_recurrence", (ins),
                                         (outs Ge_F32Tensor:$Y_h)> {
  let summary = "the per-step part of RNN, given XW = X * W^T";
  let description = [{ `XW` as for ge.lstm_recurrence, hidden_size wide. }];
}

def Ge_EinsumOp : Ge_TensorOp<"einsum", [SameOperandsAndResultElementType]> {
  let summary = "Einstein summation over the operands, by `equation`";
  let description = [{
    ONNX Einsum: explicit (`ij,jk->ik`) and implicit (`ij,jk`) outputs,
    `...` ellipsis, repeated letters in one operand (a diagonal). Dims of a
    letter must agree; ellipsis dims broadcast. `ge-lower-einsum` rewrites
    the equations that are a batched matmul, a transpose or a sum into those
    ops; the kernel computes any other.
  }];
  let arguments = (ins Variadic<Ge_NumericTensor>:$Inputs, StrAttr:$equation);
  let results = (outs Ge_NumericTensor:$Output);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GERECURRENTOPS_TD
