//===- GeSignalOps.td - signal processing ge ops -----------*- tablegen -*-===//
//
// ONNX 17's signal ops: the window functions, DFT, STFT and MelWeightMatrix.
// Their sizes come from operands; after import every result shape is static,
// so the verifiers check the shape operands against the result whenever
// they are constants, and the kernels check them at run time otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GESIGNALOPS_TD
#define GEFLOW_IR_GESIGNALOPS_TD

// `size` samples of a cosine-sum window; `periodic` = 1 leaves out the last
// sample of the symmetric window of size + 1 (the form spectral analysis
// wants).
class Ge_WindowOp<string mnemonic> : Ge_TensorOp<mnemonic> {
  let arguments = (ins Ge_IndexTensor:$size,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$output_datatype,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$periodic);
  let results = (outs Ge_NumericTensor:$output);
  let hasVerifier = 1;
}

def Ge_HannWindowOp : Ge_WindowOp<"hann_window"> {
  let summary = "0.5 - 0.5 cos(2 pi n / N)";
}
def Ge_HammingWindowOp : Ge_WindowOp<"hamming_window"> {
  let summary = "25/46 - 21/46 cos(2 pi n / N)";
}
def Ge_BlackmanWindowOp : Ge_WindowOp<"blackman_window"> {
  let summary = "0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)";
}

def Ge_DFTOp : Ge_TensorOp<"dft"> {
  let summary = "discrete Fourier transform along one axis";
  let description = [{
    ONNX DFT (opset 17). The last dimension of `input` holds one (real) or
    two (real, imaginary) components; the result's holds two. The transform
    runs along `axis` (counted with the batch dimension; never the last)
    over `dft_length` samples, the input cut or zero-padded to that length
    (its size along `axis` when `dft_length` is absent). `onesided` = 1
    keeps bins 0 ... length / 2, for real input only; `inverse` = 1 is the
    inverse transform, scaled by 1 / length.
  }];
  let arguments = (ins Ge_FloatTensor:$input,
                   Optional<Ge_IndexTensor>:$dft_length,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$axis,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$inverse,
                   DefaultValuedAttr<Ge_I64Attr, "0">:$onesided);
  let results = (outs Ge_FloatTensor:$output);
  let hasVerifier = 1;
}

def Ge_STFTOp : Ge_Op<"stft", [Pure, AttrSizedOperandSegments,
                               AllElementTypesMatch<["signal", "output"]>]> {
  let summary = "short-time Fourier transform";
  let description = [{
    ONNX STFT (opset 17). `signal` is [batch, length, 1 or 2] (real or
    complex); frames of `frame_length` samples start every `frame_step`
    samples, each multiplied by `window` when it is given (its length is the
    frame length then). The result is [batch, frames, bins, 2] with
    frames = (length - frame_length) / frame_step + 1 and bins =
    frame_length / 2 + 1 when `onesided` (real signals only), else
    frame_length. `window` and `frame_length` are optional operands, so the
    op carries AttrSizedOperandSegments and the textual form names them.
  }];
  let arguments = (ins Ge_FloatTensor:$signal, Ge_IndexTensor:$frame_step,
                   Optional<Ge_FloatTensor>:$window,
                   Optional<Ge_IndexTensor>:$frame_length,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$onesided);
  let results = (outs Ge_FloatTensor:$output);
  let assemblyFormat = [{
    $signal `,` $frame_step (`window` $window^)? (`length` $frame_length^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Ge_MelWeightMatrixOp : Ge_TensorOp<"mel_weight_matrix"> {
  let summary = "triangular mel filters over the bins of a onesided DFT";
  let description = [{
    ONNX MelWeightMatrix (opset 17): [dft_length / 2 + 1, num_mel_bins]
    weights that map a onesided magnitude spectrum onto num_mel_bins mel
    bands between lower_edge_hertz and upper_edge_hertz, computed as ONNX's
    reference does (band edges at num_mel_bins + 2 points of the mel scale,
    floored to DFT bins).
  }];
  let arguments = (ins Ge_IndexTensor:$num_mel_bins, Ge_IndexTensor:$dft_length,
                   Ge_IndexTensor:$sample_rate, Ge_FloatTensor:$lower_edge_hertz,
                   Ge_FloatTensor:$upper_edge_hertz,
                   DefaultValuedAttr<Ge_I64Attr, "1">:$output_datatype);
  let results = (outs Ge_NumericTensor:$output);
  let hasVerifier = 1;
}

#endif // GEFLOW_IR_GESIGNALOPS_TD
