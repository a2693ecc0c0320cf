// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @gelu_bad_approximate(%x: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'approximate' is "fast" but must be "none" or "tanh"}}
  %0 = ge.gelu %x {approximate = "fast"} : tensor<4xf32>
  return
}

// -----

func.func @attention_batch_mismatch(%q: tensor<2x4x8xf32>, %k: tensor<3x4x8xf32>, %v: tensor<2x4x8xf32>) {
  // expected-error @+1 {{Q, K and V must have the same batch dims}}
  %0 = ge.fused_attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<3x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @attention_depth_mismatch(%q: tensor<2x4x8xf32>, %k: tensor<2x4x6xf32>, %v: tensor<2x4x8xf32>) {
  // expected-error @+1 {{does not match the depth of Q}}
  %0 = ge.fused_attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<2x4x6xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @attention_transposed_k_mismatch(%q: tensor<2x4x8xf32>, %k: tensor<2x5x8xf32>, %v: tensor<2x8x3xf32>) {
  // expected-error @+1 {{(as K^T) does not match the depth of Q}}
  %0 = ge.fused_attention %q, %k, %v {k_transposed = 1 : i64} : (tensor<2x4x8xf32>, tensor<2x5x8xf32>, tensor<2x8x3xf32>) -> tensor<2x4x3xf32>
  return
}

// -----

func.func @attention_mask_widens(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>, %m: tensor<3x4x4xf32>) {
  // expected-error @+1 {{mask [3, 4, 4] does not broadcast to the scores [2, 4, 4]}}
  %0 = ge.fused_attention %q, %k, %v, %m : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<3x4x4xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @attention_result(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x3xf32>) {
  // expected-error @+1 {{result has shape [2, 4, 8] but expected [2, 4, 3]}}
  %0 = ge.fused_attention %q, %k, %v : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x3xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @elementwise_unknown_step(%x: tensor<4xf32>) {
  // expected-error @+1 {{step 0 ("frobnicate") is not an elementwise op it can evaluate}}
  %0 = ge.fused_elementwise %x {steps = ["frobnicate"], step_operands = array<i64: 0, -1>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_forward_reference(%x: tensor<4xf32>) {
  // expected-error @+1 {{step 0 ("add") reads value 1, which is not an input or an earlier step}}
  %0 = ge.fused_elementwise %x {steps = ["add", "relu"], step_operands = array<i64: 0, 1, 1, -1>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_unary_second(%x: tensor<4xf32>) {
  // expected-error @+1 {{step 0 ("relu") is unary; its second operand must be -1}}
  %0 = ge.fused_elementwise %x {steps = ["relu"], step_operands = array<i64: 0, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_operand_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{has 3 step_operands but needs 2 per step (2)}}
  %0 = ge.fused_elementwise %x {steps = ["relu"], step_operands = array<i64: 0, -1, 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_params(%x: tensor<4xf32>) {
  // expected-error @+1 {{has 1 step_params but needs 2 per step (2)}}
  %0 = ge.fused_elementwise %x {steps = ["relu"], step_operands = array<i64: 0, -1>, step_params = array<f32: 1.0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @elementwise_shape(%x: tensor<4xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{operands do not broadcast}}
  %0 = ge.fused_elementwise %x, %y {steps = ["add"], step_operands = array<i64: 0, 1>} : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @attention_y_perm_moves_rows(%q: tensor<2x4x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x8xf32>) {
  // expected-error @+1 {{y_perm must list every dim and keep the last one last}}
  %0 = ge.fused_attention %q, %k, %v {y_perm = array<i64: 2, 1, 0>} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<8x4x2xf32>
  return
}

// -----

func.func @as_strided_out_of_bounds(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{reads element 16 of an input of 16 elements}}
  %0 = ge.as_strided %x {offset = 1 : i64, strides = array<i64: 4, 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @as_strided_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{has 1 strides but the result has rank 2}}
  %0 = ge.as_strided %x {strides = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}
