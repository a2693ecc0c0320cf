// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s

// CHECK-LABEL: func @losses
func.func @losses(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>, %s: tensor<3x5xf32>, %l: tensor<3xi32>) {
  // CHECK: ge.negative_log_likelihood_loss {{.*}} : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> tensor<f32>
  %0 = ge.negative_log_likelihood_loss %x, %t : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> tensor<f32>
  // CHECK: ge.negative_log_likelihood_loss {{.*}} {ignore_index = 1 : i64, reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<3x2xf32>
  %1 = ge.negative_log_likelihood_loss %x, %t, %w {reduction = "none", ignore_index = 1 : i64} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<3x2xf32>
  // CHECK: ge.softmax_cross_entropy_loss {{.*}} {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi32>) -> tensor<f32>
  %2 = ge.softmax_cross_entropy_loss %s, %l {reduction = "sum"} : (tensor<3x5xf32>, tensor<3xi32>) -> tensor<f32>
  // CHECK: ge.softmax_cross_entropy_loss {{.*}} : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<3x5xf32>)
  %3:2 = ge.softmax_cross_entropy_loss %s, %l, %w : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> (tensor<f32>, tensor<3x5xf32>)
  return
}

// CHECK-LABEL: func @picks
func.func @picks(%x: tensor<2x3x4xf32>) {
  // CHECK: ge.arg_min {{.*}} {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  %0 = ge.arg_min %x {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: ge.arg_min {{.*}} {axis = -1 : i64, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3xi64>
  %1 = ge.arg_min %x {axis = -1 : i64, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3xi64>
  // CHECK: ge.hardmax {{.*}} {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = ge.hardmax %x {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func @scans_and_norms
func.func @scans_and_norms(%x: tensor<2x3x4x5xf32>, %axis: tensor<i32>, %m: tensor<2x3x3xf64>) {
  // CHECK: ge.cum_sum {{.*}} {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<i32>) -> tensor<2x3x4x5xf32>
  %0 = ge.cum_sum %x, %axis {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<i32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.lrn {{.*}} {alpha = 2.000000e-04 : f32, size = 3 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %1 = ge.lrn %x {alpha = 2.0e-4 : f32, size = 3 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.mean_variance_normalization {{.*}} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = ge.mean_variance_normalization %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.mean_variance_normalization {{.*}} {axes = array<i64: 1>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %3 = ge.mean_variance_normalization %x {axes = array<i64: 1>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.det {{.*}} : (tensor<2x3x3xf64>) -> tensor<2xf64>
  %4 = ge.det %m : (tensor<2x3x3xf64>) -> tensor<2xf64>
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) {
  // CHECK: ge.reduce_l1 {{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = ge.reduce_l1 %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: ge.reduce_log_sum {{.*}} {axes = array<i64: 0, 2>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %1 = ge.reduce_log_sum %x {axes = array<i64: 0, 2>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK: ge.reduce_log_sum_exp {{.*}} -> tensor<1x1x1xf32>
  %2 = ge.reduce_log_sum_exp %x : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return
}

// CHECK-LABEL: func @lp
func.func @lp(%x: tensor<2x3x4x5xf32>) {
  // CHECK: ge.lp_normalization {{.*}} {axis = 1 : i64, p = 1 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %0 = ge.lp_normalization %x {axis = 1 : i64, p = 1 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.global_lp_pool {{.*}} : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  %1 = ge.global_lp_pool %x : (tensor<2x3x4x5xf32>) -> tensor<2x3x1x1xf32>
  // CHECK: ge.lp_pool {{.*}} {kernel_shape = array<i64: 2, 2>, p = 3 : i64, strides = array<i64: 2, 2>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x2x2xf32>
  %2 = ge.lp_pool %x {kernel_shape = array<i64: 2, 2>, p = 3 : i64, strides = array<i64: 2, 2>} : (tensor<2x3x4x5xf32>) -> tensor<2x3x2x2xf32>
  return
}
