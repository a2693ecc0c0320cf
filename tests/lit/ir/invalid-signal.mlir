// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @window_size_mismatch() {
  %c = ge.constant dense<10> : tensor<i64>
  // expected-error @+1 {{'ge.hann_window' op result has shape [9] but expected [10]}}
  %0 = ge.hann_window %c : (tensor<i64>) -> tensor<9xf32>
  return
}

// -----

func.func @window_negative_size() {
  %c = ge.constant dense<-1> : tensor<i64>
  // expected-error @+1 {{'ge.hann_window' op operand 'size' is -1 but must be at least 0}}
  %0 = ge.hann_window %c : (tensor<i64>) -> tensor<1xf32>
  return
}

// -----

func.func @window_datatype(%n: tensor<i64>) {
  // expected-error @+1 {{'ge.hamming_window' op result element type 'f32' is not 'f64', which output_datatype 11 names}}
  %0 = ge.hamming_window %n {output_datatype = 11} : (tensor<i64>) -> tensor<4xf32>
  return
}

// -----

func.func @window_unknown_datatype(%n: tensor<i64>) {
  // expected-error @+1 {{'ge.hamming_window' op attribute 'output_datatype' is 8 but must name a numeric ONNX data type}}
  %0 = ge.hamming_window %n {output_datatype = 8} : (tensor<i64>) -> tensor<4xf32>
  return
}

// -----

func.func @window_periodic_flag(%n: tensor<i64>) {
  // expected-error @+1 {{'ge.blackman_window' op attribute 'periodic'}}
  %0 = ge.blackman_window %n {periodic = 2} : (tensor<i64>) -> tensor<4xf32>
  return
}

// -----

func.func @window_size_not_scalar(%n: tensor<2xi64>) {
  // expected-error @+1 {{'ge.blackman_window' op operand 'size' has shape [2] but must hold exactly one element}}
  %0 = ge.blackman_window %n : (tensor<2xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @dft_components(%x: tensor<1x10x3xf32>) {
  // expected-error @+1 {{'ge.dft' op operand 'input' has shape [1, 10, 3] but its last dim must be 1 (real) or 2 (complex)}}
  %0 = ge.dft %x : (tensor<1x10x3xf32>) -> tensor<1x10x2xf32>
  return
}

// -----

func.func @dft_axis_on_components(%x: tensor<1x10x1xf32>) {
  // expected-error @+1 {{'ge.dft' op attribute 'axis' is 2 but must lie in [-3, 1] (not the components dim)}}
  %0 = ge.dft %x {axis = 2} : (tensor<1x10x1xf32>) -> tensor<1x10x2xf32>
  return
}

// -----

func.func @dft_onesided_complex(%x: tensor<1x10x2xf32>) {
  // expected-error @+1 {{'ge.dft' op onesided = 1 needs a real input (last dim 1)}}
  %0 = ge.dft %x {onesided = 1} : (tensor<1x10x2xf32>) -> tensor<1x6x2xf32>
  return
}

// -----

func.func @dft_result_shape(%x: tensor<1x10x1xf32>) {
  // expected-error @+1 {{'ge.dft' op result has shape [1, 10, 2] but expected [1, 6, 2]}}
  %0 = ge.dft %x {onesided = 1} : (tensor<1x10x1xf32>) -> tensor<1x10x2xf32>
  return
}

// -----

func.func @dft_length_zero(%x: tensor<1x10x1xf32>) {
  %n = ge.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ge.dft' op operand 'dft_length' is 0 but must be at least 1}}
  %0 = ge.dft %x, %n : (tensor<1x10x1xf32>, tensor<i64>) -> tensor<1x10x2xf32>
  return
}

// -----

func.func @dft_inverse_flag(%x: tensor<1x10x2xf32>) {
  // expected-error @+1 {{'ge.dft' op attribute 'inverse'}}
  %0 = ge.dft %x {inverse = 5} : (tensor<1x10x2xf32>) -> tensor<1x10x2xf32>
  return
}

// -----

func.func @stft_needs_length(%s: tensor<1x128x1xf32>, %step: tensor<i64>) {
  // expected-error @+1 {{'ge.stft' op needs a window or a frame_length}}
  %0 = ge.stft %s, %step : (tensor<1x128x1xf32>, tensor<i64>) -> tensor<1x15x9x2xf32>
  return
}

// -----

func.func @stft_window_and_length_disagree(%s: tensor<1x128x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) {
  %len = ge.constant dense<8> : tensor<i64>
  // expected-error @+1 {{'ge.stft' op frame_length is 8 but the window has 16 samples}}
  %0 = ge.stft %s, %step window %w length %len : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, tensor<i64>) -> tensor<1x15x9x2xf32>
  return
}

// -----

func.func @stft_frames(%s: tensor<1x128x1xf32>, %w: tensor<16xf32>) {
  %step = ge.constant dense<8> : tensor<i64>
  // expected-error @+1 {{'ge.stft' op result has shape [1, 14, 9, 2] but expected [1, 15, 9, 2]}}
  %0 = ge.stft %s, %step window %w : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x14x9x2xf32>
  return
}

// -----

func.func @stft_signal_rank(%s: tensor<128xf32>, %step: tensor<i64>, %w: tensor<16xf32>) {
  // expected-error @+1 {{'ge.stft' op signal has shape [128] but must be [batch, length, 1 or 2]}}
  %0 = ge.stft %s, %step window %w : (tensor<128xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x15x9x2xf32>
  return
}

// -----

func.func @stft_frame_too_long(%s: tensor<1x8x1xf32>, %step: tensor<i64>, %w: tensor<16xf32>) {
  // expected-error @+1 {{'ge.stft' op frame length 16 is longer than the signal (8)}}
  %0 = ge.stft %s, %step window %w : (tensor<1x8x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x1x9x2xf32>
  return
}

// -----

func.func @mel_shape(%lo: tensor<f32>, %hi: tensor<f32>) {
  %bins = ge.constant dense<8> : tensor<i32>
  %len = ge.constant dense<16> : tensor<i32>
  %rate = ge.constant dense<8192> : tensor<i32>
  // expected-error @+1 {{'ge.mel_weight_matrix' op result has shape [8, 9] but expected [9, 8]}}
  %0 = ge.mel_weight_matrix %bins, %len, %rate, %lo, %hi : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<8x9xf32>
  return
}

// -----

func.func @mel_edge_not_scalar(%b: tensor<i32>, %lo: tensor<2xf32>, %hi: tensor<f32>) {
  // expected-error @+1 {{'ge.mel_weight_matrix' op operand 'lower_edge_hertz' has shape [2] but must hold exactly one element}}
  %0 = ge.mel_weight_matrix %b, %b, %b, %lo, %hi : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<9x8xf32>
  return
}

// -----

func.func @dft_onesided_inverse(%x: tensor<1x10x1xf32>) {
  // expected-error @+1 {{'ge.dft' op onesided and inverse cannot both be 1 (ONNX)}}
  %0 = ge.dft %x {onesided = 1, inverse = 1} : (tensor<1x10x1xf32>) -> tensor<1x6x2xf32>
  return
}
