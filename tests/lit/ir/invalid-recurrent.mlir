// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @bad_direction(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op direction 'sideways' must be forward, reverse or bidirectional}}
  %0:2 = ge.rnn %x, %w, %r {direction = "sideways"} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @hidden_size(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op hidden_size is 5 but R's last dim is 4}}
  %0:2 = ge.rnn %x, %w, %r {hidden_size = 5 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @gates(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'ge.lstm' op input 'R' has shape [1, 12, 4] but must be [1, 16, 4]}}
  %0:3 = ge.lstm %x, %w, %r : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @bidirectional_needs_two(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'ge.gru' op input 'R' has shape [1, 12, 4] but must be [2, 12, 4]}}
  %0:2 = ge.gru %x, %w, %r {direction = "bidirectional"} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>)
  return
}

// -----

func.func @input_size(%x: tensor<5x2x3xf32>, %w: tensor<1x4x7xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op input 'W' has shape [1, 4, 7] but must be [1, 4, 3]}}
  %0:2 = ge.rnn %x, %w, %r : (tensor<5x2x3xf32>, tensor<1x4x7xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @bias(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op input 'B' has shape [1, 4] but must be [1, 8]}}
  %0:2 = ge.rnn %x, %w, %r B %b : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @layout_state(%x: tensor<2x5x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %h: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op input 'initial_h' has shape [1, 2, 4] but must be [2, 1, 4]}}
  %0:2 = ge.rnn %x, %w, %r initial_h %h {layout = 1 : i64} : (tensor<2x5x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x2x4xf32>) -> (tensor<2x5x1x4xf32>, tensor<2x1x4xf32>)
  return
}

// -----

func.func @result_shape(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op result #0 has shape [5, 2, 1, 4] but expected [5, 1, 2, 4]}}
  %0:2 = ge.rnn %x, %w, %r : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x2x1x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @activation_count(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'ge.gru' op has 1 activations but GRU with 1 direction(s) needs 2}}
  %0:2 = ge.gru %x, %w, %r {activations = ["Sigmoid"]} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @activation_name(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op activation "Swish" is not one of Relu, Tanh}}
  %0:2 = ge.rnn %x, %w, %r {activations = ["Swish"]} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @clip(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn' op clip must be positive}}
  %0:2 = ge.rnn %x, %w, %r {clip = -1.0 : f32} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @flags(%x: tensor<5x2x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>) {
  // expected-error @+1 {{'ge.gru' op attribute 'linear_before_reset' is 2 but must be 0 or 1}}
  %0:2 = ge.gru %x, %w, %r {linear_before_reset = 2 : i64} : (tensor<5x2x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @projection_rows(%xw: tensor<1x9x4xf32>, %r: tensor<1x4x4xf32>) {
  // expected-error @+1 {{'ge.rnn_recurrence' op input 'XW' has shape [1, 9, 4] but must be [1, 10, 4]}}
  %0:2 = ge.rnn_recurrence %xw, %r : (tensor<1x9x4xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// -----

func.func @double(%x: tensor<5x2x3xf64>, %w: tensor<1x4x3xf64>, %r: tensor<1x4x4xf64>) {
  // expected-error @+1 {{'ge.rnn' op operand #0 must be ranked tensor of 32-bit float values}}
  %0:2 = ge.rnn %x, %w, %r : (tensor<5x2x3xf64>, tensor<1x4x3xf64>, tensor<1x4x4xf64>) -> (tensor<5x1x2x4xf64>, tensor<1x2x4xf64>)
  return
}

// -----

func.func @einsum_operands(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.einsum' op equation 'ij,jk->ik' names 2 operand(s) but there are 1}}
  %0 = ge.einsum %a {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.einsum' op operand 0 has rank 2 but 'ijk' names 3 dim(s)}}
  %0 = ge.einsum %a {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_dims(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ge.einsum' op operand 1 dim 0 is 4 but the same label is 3 elsewhere}}
  %0 = ge.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @einsum_letter(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.einsum' op '1' is not a letter or '...'}}
  %0 = ge.einsum %a {equation = "i1->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_output_label(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.einsum' op output label 'k' is in no operand}}
  %0 = ge.einsum %a {equation = "ij->k"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_result(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.einsum' op result has shape [2, 3] but expected [3, 2]}}
  %0 = ge.einsum %a {equation = "ij->ji"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}
