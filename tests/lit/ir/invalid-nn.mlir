// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @conv_rank(%x: tensor<3x224xf32>, %w: tensor<64x3xf32>) {
  // expected-error @+1 {{'ge.conv' op input 'X' has rank 2 but Conv needs rank >= 3}}
  %0 = ge.conv %x, %w : (tensor<3x224xf32>, tensor<64x3xf32>) -> tensor<3x64xf32>
  return
}

// -----

func.func @conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op weight 'W' has rank 3 but the input 'X' has rank 4}}
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op input 'X' has 3 channels but W[1] * group = 2}}
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x4x8x8xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op weight 'W' has 6 output channels, not a multiple of group 4}}
  %0 = ge.conv %x, %w {group = 4 : i64} : (tensor<1x4x8x8xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x6x6xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op result has shape [1, 4, 8, 8] but expected [1, 4, 6, 6]}}
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op kernel_shape [5, 5] does not match the weight's spatial dims [3, 3]}}
  %0 = ge.conv %x, %w {kernel_shape = array<i64: 5, 5>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @conv_pads_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op pads has 2 values but the input has 2 spatial dims (expected 4)}}
  %0 = ge.conv %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op strides value 0 must be in [1, 2147483647]}}
  %0 = ge.conv %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dilation_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op dilations value 4611686018427387904 must be in [1, 2147483647]}}
  %0 = ge.conv %x, %w {dilations = array<i64: 4611686018427387904, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op auto_pad "SAME" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID}}
  %0 = ge.conv %x, %w {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return
}

// -----

func.func @conv_window(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'ge.conv' op window of size 3 (kernel with dilation) exceeds the padded input size 2 at spatial dim 0}}
  %0 = ge.conv %x, %w : (tensor<1x3x2x2xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x1xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ge.conv' op input 'B' has 3 elements but the output channel count W[0] is 4}}
  %0 = ge.conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_dtype(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  // expected-error @+1 {{'ge.conv' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @conv_mixed_dtype(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{'ge.conv' op requires the same element type for all operands and results}}
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x8x5x5xf32>, %w: tensor<4x4x3x3xf32>) {
  // expected-error @+1 {{'ge.conv_transpose' op input 'X' has 8 channels but the weight 'W' has 4}}
  %0 = ge.conv_transpose %x, %w : (tensor<1x8x5x5xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----

func.func @conv_transpose_result(%x: tensor<1x8x5x5xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{'ge.conv_transpose' op result has shape [1, 4, 10, 10] but expected [1, 4, 11, 11]}}
  %0 = ge.conv_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x10x10xf32>
  return
}

// -----

func.func @conv_transpose_output_shape(%x: tensor<1x8x5x5xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{'ge.conv_transpose' op result has shape [1, 4, 11, 11] but expected [1, 4, 10, 10]}}
  %0 = ge.conv_transpose %x, %w {strides = array<i64: 2, 2>, output_shape = array<i64: 10, 10>} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x11x11xf32>
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x8x5x5xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{'ge.conv_transpose' op output_padding has 1 values but the input has 2 spatial dims}}
  %0 = ge.conv_transpose %x, %w {output_padding = array<i64: 1>} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x7x7xf32>
  return
}

// -----

func.func @conv_transpose_rank(%x: tensor<8x5xf32>, %w: tensor<8x4xf32>) {
  // expected-error @+1 {{'ge.conv_transpose' op input 'X' has rank 2 but ConvTranspose needs rank >= 3}}
  %0 = ge.conv_transpose %x, %w : (tensor<8x5xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'ge.max_pool' op input 'X' has rank 2 but MaxPool needs rank >= 3}}
  %0:2 = ge.max_pool %x {kernel_shape = array<i64: 2>} : (tensor<3x8xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>)
  return
}

// -----

func.func @pool_kernel_rank(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.average_pool' op kernel_shape has 1 values but the input has 2 spatial dims (expected 2)}}
  %0 = ge.average_pool %x {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_missing_kernel(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.average_pool' op requires attribute 'kernel_shape'}}
  %0 = ge.average_pool %x : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @pool_result(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.max_pool' op result #0 has shape [1, 3, 4, 4] but expected [1, 3, 7, 7]}}
  %0:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  return
}

// -----

func.func @pool_indices(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.max_pool' op result #1 has shape [1, 3, 4, 5] but expected [1, 3, 4, 4]}}
  %0:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x5xi64>)
  return
}

// -----

func.func @pool_indices_dtype(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.max_pool' op result #1 must be ranked tensor of 64-bit signless integer values}}
  %0:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi32>)
  return
}

// -----

func.func @pool_ceil_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.average_pool' op attribute 'ceil_mode' is 2 but must be 0 or 1}}
  %0 = ge.average_pool %x {kernel_shape = array<i64: 2, 2>, ceil_mode = 2 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @global_pool(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'ge.global_average_pool' op result has shape [1, 3] but expected [1, 3, 1, 1]}}
  %0 = ge.global_average_pool %x : (tensor<1x3x8x8xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ge.global_max_pool' op input 'X' has rank 2 but GlobalMaxPool needs rank >= 3}}
  %0 = ge.global_max_pool %x : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @batch_norm_training(%x: tensor<2x3xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'ge.batch_normalization' op attribute 'training_mode' is 1 but only inference (0) is supported}}
  %0 = ge.batch_normalization %x, %c, %c, %c, %c {training_mode = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_channels(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'ge.batch_normalization' op input 'input_mean' has 4 elements but the channel count X[1] is 3}}
  %0 = ge.batch_normalization %x, %c, %c, %m, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @batch_norm_rank(%x: tensor<3xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'ge.batch_normalization' op input 'X' has rank 1 but BatchNormalization needs rank >= 2}}
  %0 = ge.batch_normalization %x, %c, %c, %c, %c : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @batch_norm_scale_rank(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %s: tensor<1x3xf32>) {
  // expected-error @+1 {{'ge.batch_normalization' op input 'scale' has shape [1, 3] but must be 1-D}}
  %0 = ge.batch_normalization %x, %s, %c, %c, %c : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @instance_norm(%x: tensor<2x3x4xf32>, %c: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'ge.instance_normalization' op input 'B' has 2 elements but the channel count input[1] is 3}}
  %0 = ge.instance_normalization %x, %c, %b : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @instance_norm_rank(%x: tensor<2x3xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'ge.instance_normalization' op input 'input' has rank 2 but InstanceNormalization needs rank >= 3}}
  %0 = ge.instance_normalization %x, %c, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @layer_norm_scale(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'ge.layer_normalization' op input 'Scale' has shape [3] which does not broadcast to the normalised dims [4]}}
  %0 = ge.layer_normalization %x, %s : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @layer_norm_axis(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.layer_normalization' op attribute 'axis' is 3 but the input has rank 3}}
  %0 = ge.layer_normalization %x, %s {axis = 3 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @layer_norm_result(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.layer_normalization' op has 2 results but LayerNormalization has 1 (Y) or 3 (Y, Mean, InvStdDev)}}
  %0:2 = ge.layer_normalization %x, %s : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>)
  return
}

// -----

func.func @layer_norm_mean_shape(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.layer_normalization' op result #1 has shape [2, 3, 4] but expected [2, 3, 1]}}
  %0:3 = ge.layer_normalization %x, %s : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x1xf32>)
  return
}

// -----

func.func @layer_norm_result_shape(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.layer_normalization' op result has shape [2, 3] but expected [2, 3, 4]}}
  %0 = ge.layer_normalization %x, %s : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ge.gemm' op Gemm needs 2-D A and B, got [2, 3, 4] and [4, 5]}}
  %0 = ge.gemm %a, %b : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_inner(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ge.gemm' op inner dims differ: op(A) has K = 3 but op(B) has K = 4}}
  %0 = ge.gemm %a, %b {transA = 1 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  return
}

// -----

func.func @gemm_bias(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3xf32>) {
  // expected-error @+1 {{'ge.gemm' op input 'C' has shape [3] which does not broadcast to [M, N] = [3, 5]}}
  %0 = ge.gemm %a, %b, %c : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<3xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_result(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) {
  // expected-error @+1 {{'ge.gemm' op result has shape [3, 4] but expected [3, 5]}}
  %0 = ge.gemm %a, %b {transB = 1 : i64} : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gemm_trans_flag(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ge.gemm' op attribute 'transA' is 3 but must be 0 or 1}}
  %0 = ge.gemm %a, %b {transA = 3 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @matmul_inner(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{'ge.matmul' op inner dims differ: A [2, 3] has K = 3 but B [4, 5] has K = 4}}
  %0 = ge.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<3x3x5xf32>) {
  // expected-error @+1 {{'ge.matmul' op shapes [2] and [3] do not broadcast (2 vs 3)}}
  %0 = ge.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x3x5xf32>) -> tensor<2x2x5xf32>
  return
}

// -----

func.func @matmul_scalar(%a: tensor<f32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ge.matmul' op MatMul operands must have rank >= 1}}
  %0 = ge.matmul %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ge.matmul' op result has shape [2, 1] but expected [2]}}
  %0 = ge.matmul %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.softmax' op attribute 'axis' is 2 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.softmax %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @log_softmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.log_softmax' op attribute 'axis' is -3 but the input has rank 2}}
  %0 = ge.log_softmax %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @arg_max_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.arg_max' op result has shape [2] but expected [1, 3]}}
  %0 = ge.arg_max %x : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @arg_max_dtype(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.arg_max' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = ge.arg_max %x : (tensor<2x3xf32>) -> tensor<1x3xi32>
  return
}

// -----

func.func @top_k_k(%x: tensor<2x3xf32>) {
  %k = ge.constant dense<4> : tensor<1xi64>
  // expected-error @+1 {{'ge.top_k' op K = 4 is out of range for axis 1 of size 3}}
  %0:2 = ge.top_k %x, %k : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x4xf32>, tensor<2x4xi64>)
  return
}

// -----

func.func @top_k_k_shape(%x: tensor<2x3xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'ge.top_k' op input 'K' has shape [2] but must be a 1-D tensor of one element}}
  %0:2 = ge.top_k %x, %k : (tensor<2x3xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return
}

// -----

func.func @top_k_result(%x: tensor<2x3xf32>) {
  %k = ge.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'ge.top_k' op result #1 has shape [2, 3] but expected [2, 2]}}
  %0:2 = ge.top_k %x, %k : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<2x3xi64>)
  return
}

// -----

func.func @reduce_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_mean' op attribute 'axes': axis 2 is out of range [-2, 2) for an input of rank 2}}
  %0 = ge.reduce_mean %x {axes = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_repeated(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_max' op attribute 'axes': axis -1 is repeated for an input of rank 2}}
  %0 = ge.reduce_max %x {axes = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @reduce_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_l2' op result has shape [2] but expected [2, 1]}}
  %0 = ge.reduce_l2 %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_keepdims(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_min' op attribute 'keepdims' is 2 but must be 0 or 1}}
  %0 = ge.reduce_min %x {keepdims = 2 : i64} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @reduce_sum_axes(%x: tensor<2x3xf32>) {
  %a = ge.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ge.reduce_sum' op result has shape [1, 3] but expected [2, 1]}}
  %0 = ge.reduce_sum %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
  return
}

// -----

func.func @reduce_sum_axes_rank(%x: tensor<2x3xf32>, %a: tensor<1x1xi64>) {
  // expected-error @+1 {{'ge.reduce_sum' op operand 'axes' has rank 2 but must be 1-D}}
  %0 = ge.reduce_sum %x, %a : (tensor<2x3xf32>, tensor<1x1xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reduce_sum_keep_rank(%x: tensor<2x3xf32>, %a: tensor<1xi64>) {
  // expected-error @+1 {{'ge.reduce_sum' op result must keep the input's rank with keepdims = 1}}
  %0 = ge.reduce_sum %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @reduce_prod_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_prod' op result has shape [1, 3] but expected [1, 1]}}
  %0 = ge.reduce_prod %x : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @reduce_sum_square_dtype(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_sum_square' op requires the same element type for all operands and results}}
  %0 = ge.reduce_sum_square %x : (tensor<2x3xf32>) -> tensor<1x1xf16>
  return
}
