// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @activation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op activation "mish" is not one of none, hard_sigmoid, hard_swish, leaky_relu, relu, sigmoid, tanh, clip, gelu, swish, gelu_tanh}}
  %0 = ge.fused_conv %x, %w {activation = "mish"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @params(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op activation "clip" takes at most 2 activation_params but has 3}}
  %0 = ge.fused_conv %x, %w {activation = "clip", activation_params = array<f32: 0.0, 6.0, 1.0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op result has shape [1, 4, 8, 8] but expected [1, 4, 6, 6]}}
  %0 = ge.fused_conv %x, %w {activation = "relu"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @residual_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %z: tensor<1x4x1x1xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op input 'Z' has shape [1, 4, 1, 1] but the residual must have Y's shape [1, 4, 6, 6]}}
  %0 = ge.fused_conv %x, %w residual %z : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op input 'X' has rank 2 but Conv needs rank >= 3}}
  %0 = ge.fused_conv %x, %w : (tensor<3x8xf32>, tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gemm_relu_params(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'ge.fused_gemm' op activation "relu" takes at most 0 activation_params but has 1}}
  %0 = ge.fused_gemm %a, %b {activation = "relu", activation_params = array<f32: 1.0>} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @gemm_inner(%a: tensor<2x8xf32>, %b: tensor<7x16xf32>) {
  // expected-error @+1 {{'ge.fused_gemm' op inner dims differ: op(A) has K = 8 but op(B) has K = 7}}
  %0 = ge.fused_gemm %a, %b : (tensor<2x8xf32>, tensor<7x16xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @matmul_bias(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>, %c: tensor<8xf32>) {
  // expected-error @+1 {{'ge.fused_matmul' op input 'bias' has shape [8] which does not broadcast to the product's shape [2, 16]}}
  %0 = ge.fused_matmul %a, %b, %c : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<8xf32>) -> tensor<2x16xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<2x8xf32>, %b: tensor<8x16xf32>) {
  // expected-error @+1 {{'ge.fused_matmul' op result has shape [2, 8] but expected [2, 16]}}
  %0 = ge.fused_matmul %a, %b : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @trans_data_formats(%x: tensor<1x20x5x5xf32>) {
  // expected-error @+1 {{'ge.trans_data' op converts NCHW to NC1HWC0 or back, not "NHWC" to "NC1HWC0"}}
  %0 = ge.trans_data %x {src_format = "NHWC", dst_format = "NC1HWC0"} : (tensor<1x20x5x5xf32>) -> tensor<1x2x5x5x16xf32>
  return
}

// -----

func.func @trans_data_shape(%x: tensor<1x20x5x5xf32>) {
  // expected-error @+1 {{'ge.trans_data' op NCHW [1, 20, 5, 5] is NC1HWC0 [1, 2, 5, 5, 16], not [1, 1, 5, 5, 16]}}
  %0 = ge.trans_data %x {src_format = "NCHW", dst_format = "NC1HWC0"} : (tensor<1x20x5x5xf32>) -> tensor<1x1x5x5x16xf32>
  return
}

// -----

func.func @conv_data_format(%x: tensor<1x20x5x5xf32>, %w: tensor<8x20x1x1xf32>) {
  // expected-error @+1 {{'ge.conv' op data_format "NHWC" is not NCHW or NC1HWC0}}
  %0 = ge.conv %x, %w {data_format = "NHWC"} : (tensor<1x20x5x5xf32>, tensor<8x20x1x1xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @blocked_conv_channels(%x: tensor<1x1x5x5x16xf32>, %w: tensor<8x20x1x1xf32>) {
  // expected-error @+1 {{'ge.fused_conv' op in NC1HWC0 input 'X' [1, 1, 5, 5, 16] and weight 'W' [8, 20, 1, 1] must be a 2-D conv of one group or one channel per group}}
  %0 = ge.fused_conv %x, %w {data_format = "NC1HWC0"} : (tensor<1x1x5x5x16xf32>, tensor<8x20x1x1xf32>) -> tensor<1x1x5x5x16xf32>
  return
}

// -----

func.func @blocked_conv_result(%x: tensor<1x2x5x5x16xf32>, %w: tensor<8x20x1x1xf32>) {
  // expected-error @+1 {{'ge.conv' op result has shape [1, 8, 5, 5] but expected [1, 1, 5, 5, 16]}}
  %0 = ge.conv %x, %w {data_format = "NC1HWC0"} : (tensor<1x2x5x5x16xf32>, tensor<8x20x1x1xf32>) -> tensor<1x8x5x5xf32>
  return
}

// -----

func.func @blocked_max_pool_indices(%x: tensor<1x2x8x8x16xf32>) {
  // expected-error @+1 {{'ge.max_pool' op takes no Indices in NC1HWC0}}
  %0, %1 = ge.max_pool %x {data_format = "NC1HWC0", kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8x16xf32>) -> (tensor<1x2x4x4x16xf32>, tensor<1x2x4x4x16xi64>)
  return
}
