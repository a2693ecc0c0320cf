// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @nll_rank(%x: tensor<5xf32>, %t: tensor<1xi64>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op input 'input' has shape [5] but must be [N, C, d1..dk] (rank >= 2)}}
  %0 = ge.negative_log_likelihood_loss %x, %t : (tensor<5xf32>, tensor<1xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_target(%x: tensor<3x5x2xf32>, %t: tensor<3x5xi64>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op input 'target' has shape [3, 5] but must be [3, 2] for 'input' of shape [3, 5, 2]}}
  %0 = ge.negative_log_likelihood_loss %x, %t : (tensor<3x5x2xf32>, tensor<3x5xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_weight(%x: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<4xf32>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op input weight has shape [4] but must be [5] (one weight per class)}}
  %0 = ge.negative_log_likelihood_loss %x, %t, %w : (tensor<3x5xf32>, tensor<3xi64>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_reduction(%x: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op attribute 'reduction' is "max" but must be "none", "sum" or "mean"}}
  %0 = ge.negative_log_likelihood_loss %x, %t {reduction = "max"} : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<f32>
  return
}

// -----

func.func @nll_result(%x: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op result has shape [3] but expected []}}
  %0 = ge.negative_log_likelihood_loss %x, %t : (tensor<3x5xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @nll_target_type(%x: tensor<3x5xf32>, %t: tensor<3xf32>) {
  // expected-error @+1 {{'ge.negative_log_likelihood_loss' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = ge.negative_log_likelihood_loss %x, %t : (tensor<3x5xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @sce_none(%x: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'ge.softmax_cross_entropy_loss' op result #0 has shape [] but expected [3]}}
  %0:2 = ge.softmax_cross_entropy_loss %x, %t {reduction = "none"} : (tensor<3x5xf32>, tensor<3xi64>) -> (tensor<f32>, tensor<3x5xf32>)
  return
}

// -----

func.func @sce_log_prob(%x: tensor<3x5xf32>, %t: tensor<3xi64>) {
  // expected-error @+1 {{'ge.softmax_cross_entropy_loss' op result log_prob must have the scores' type}}
  %0:2 = ge.softmax_cross_entropy_loss %x, %t : (tensor<3x5xf32>, tensor<3xi64>) -> (tensor<f32>, tensor<3x4xf32>)
  return
}

// -----

func.func @arg_min_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.arg_min' op attribute 'axis' is 2 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.arg_min %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return
}

// -----

func.func @arg_min_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.arg_min' op result has shape [2] but expected [1, 3]}}
  %0 = ge.arg_min %x : (tensor<2x3xf32>) -> tensor<2xi64>
  return
}

// -----

func.func @arg_min_flag(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.arg_min' op attribute 'select_last_index' is 3 but must be 0 or 1}}
  %0 = ge.arg_min %x {select_last_index = 3 : i64} : (tensor<2x3xf32>) -> tensor<1x3xi64>
  return
}

// -----

func.func @hardmax_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.hardmax' op attribute 'axis' is -3 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.hardmax %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cum_sum_axis_shape(%x: tensor<2x3xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'ge.cum_sum' op operand 'axis' has shape [2] but must hold exactly one element}}
  %0 = ge.cum_sum %x, %a : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cum_sum_axis_range(%x: tensor<2x3xf32>) {
  %a = ge.constant dense<2> : tensor<i64>
  // expected-error @+1 {{'ge.cum_sum' op attribute 'axis' is 2 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.cum_sum %x, %a : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cum_sum_flag(%x: tensor<2x3xf32>, %a: tensor<i64>) {
  // expected-error @+1 {{'ge.cum_sum' op attribute 'reverse' is 2 but must be 0 or 1}}
  %0 = ge.cum_sum %x, %a {reverse = 2 : i64} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @lrn_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ge.lrn' op attribute 'size' is 0 but must be >= 1}}
  %0 = ge.lrn %x {size = 0 : i64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @lrn_missing_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ge.lrn' op requires attribute 'size'}}
  %0 = ge.lrn %x : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @mvn_default_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.mean_variance_normalization' op attribute 'axes' (default [0, 2, 3]): axis 2 is out of range [-2, 2) for an input of rank 2}}
  %0 = ge.mean_variance_normalization %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @det_square(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ge.det' op input 'X' has shape [2, 3, 4] but must be [*, M, M]}}
  %0 = ge.det %x : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @det_result(%x: tensor<2x3x3xf32>) {
  // expected-error @+1 {{'ge.det' op result has shape [] but expected [2]}}
  %0 = ge.det %x : (tensor<2x3x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @reduce_l1_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.reduce_l1' op result has shape [2] but expected [2, 1]}}
  %0 = ge.reduce_l1 %x {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_log_sum_int(%x: tensor<2x3xi32>) {
  // expected-error @+1 {{'ge.reduce_log_sum' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.reduce_log_sum %x : (tensor<2x3xi32>) -> tensor<1x1xi32>
  return
}

// -----

func.func @lp_normalization_p(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.lp_normalization' op attribute 'p' is 3 but must be 1 or 2}}
  %0 = ge.lp_normalization %x {p = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @global_lp_pool_result(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ge.global_lp_pool' op result has shape [2, 3, 4] but expected [2, 3, 1]}}
  %0 = ge.global_lp_pool %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @lp_pool_result(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ge.lp_pool' op result has shape [1, 3, 4, 4] but expected [1, 3, 3, 3]}}
  %0 = ge.lp_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @lp_pool_kernel(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'ge.lp_pool' op}}
  %0 = ge.lp_pool %x {kernel_shape = array<i64: 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x3x4xf32>
  return
}
