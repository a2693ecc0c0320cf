// RUN: geflow-opt --ge-fuse-layernorm %s | FileCheck %s

// The pattern torch writes before opset 17: Pow 2, Div, gamma and beta.
// CHECK-LABEL: func.func @torch_layernorm
func.func @torch_layernorm(%x: tensor<16x1x64xf32>) -> tensor<16x1x64xf32> {
  %two = ge.constant dense<2.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-05> : tensor<f32>
  %gamma = ge.constant dense<1.5> : tensor<64xf32>
  %beta = ge.constant dense<0.25> : tensor<64xf32>
  // CHECK-NOT: ge.reduce_mean
  // CHECK: %[[Y:.*]] = ge.layer_normalization %arg0, %{{.*}}, %{{.*}} {axis = 2 : i64} : (tensor<16x1x64xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<16x1x64xf32>
  // CHECK-NEXT: return %[[Y]]
  %m = ge.reduce_mean %x {axes = array<i64: -1>} : (tensor<16x1x64xf32>) -> tensor<16x1x1xf32>
  %d = ge.sub %x, %m : (tensor<16x1x64xf32>, tensor<16x1x1xf32>) -> tensor<16x1x64xf32>
  %p = ge.pow %d, %two : (tensor<16x1x64xf32>, tensor<f32>) -> tensor<16x1x64xf32>
  %v = ge.reduce_mean %p {axes = array<i64: -1>} : (tensor<16x1x64xf32>) -> tensor<16x1x1xf32>
  %ve = ge.add %v, %eps : (tensor<16x1x1xf32>, tensor<f32>) -> tensor<16x1x1xf32>
  %s = ge.sqrt %ve : tensor<16x1x1xf32>
  %n = ge.div %d, %s : (tensor<16x1x64xf32>, tensor<16x1x1xf32>) -> tensor<16x1x64xf32>
  %g = ge.mul %n, %gamma : (tensor<16x1x64xf32>, tensor<64xf32>) -> tensor<16x1x64xf32>
  %y = ge.add %g, %beta : (tensor<16x1x64xf32>, tensor<64xf32>) -> tensor<16x1x64xf32>
  return %y : tensor<16x1x64xf32>
}

// Other exporters: d * d, Reciprocal and Mul, eps first, two normalised dims,
// gamma with a leading unit dim, no beta.
// CHECK-LABEL: func.func @variant_layernorm
func.func @variant_layernorm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %eps = ge.constant dense<1.0e-03> : tensor<1xf32>
  %gamma = ge.constant dense<2.0> : tensor<1x3x4xf32>
  // CHECK: %[[G:.*]] = ge.constant dense<2.000000e+00> : tensor<3x4xf32>
  // CHECK: ge.layer_normalization %arg0, %[[G]] {axis = 1 : i64, epsilon = 1.000000e-03 : f32} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NOT: ge.reciprocal
  %m = ge.reduce_mean %x {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %d = ge.sub %x, %m : (tensor<2x3x4xf32>, tensor<2x1x1xf32>) -> tensor<2x3x4xf32>
  %p = ge.mul %d, %d : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %ve = ge.add %eps, %v : (tensor<1xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %s = ge.sqrt %ve : tensor<2x1x1xf32>
  %r = ge.reciprocal %s : tensor<2x1x1xf32>
  %n = ge.mul %r, %d : (tensor<2x1x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %y = ge.mul %gamma, %n : (tensor<1x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// Without gamma the Scale is ones.
// CHECK-LABEL: func.func @no_gamma
func.func @no_gamma(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = ge.constant dense<2.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-05> : tensor<f32>
  // CHECK: %[[ONES:.*]] = ge.constant dense<1.000000e+00> : tensor<8xf32>
  // CHECK: ge.layer_normalization %arg0, %[[ONES]] {axis = 1 : i64
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = ge.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %p = ge.pow %d, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = ge.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = ge.sqrt %ve : tensor<4x1xf32>
  %n = ge.div %d, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// x - mean has a third user: nothing is fused.
// CHECK-LABEL: func.func @intermediate_has_another_user
func.func @intermediate_has_another_user(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %two = ge.constant dense<2.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-05> : tensor<f32>
  // CHECK-NOT: ge.layer_normalization
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = ge.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %p = ge.pow %d, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = ge.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = ge.sqrt %ve : tensor<4x1xf32>
  %n = ge.div %d, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n, %d : tensor<4x8xf32>, tensor<4x8xf32>
}

// The means reduce a leading axis: not a LayerNormalization.
// CHECK-LABEL: func.func @wrong_axis
func.func @wrong_axis(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %two = ge.constant dense<2.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-05> : tensor<f32>
  // CHECK-NOT: ge.layer_normalization
  %m = ge.reduce_mean %x {axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %d = ge.sub %x, %m : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  %p = ge.pow %d, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %ve = ge.add %v, %eps : (tensor<1x8xf32>, tensor<f32>) -> tensor<1x8xf32>
  %s = ge.sqrt %ve : tensor<1x8xf32>
  %n = ge.div %d, %s : (tensor<4x8xf32>, tensor<1x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// epsilon is not a constant.
// CHECK-LABEL: func.func @non_constant_eps
func.func @non_constant_eps(%x: tensor<4x8xf32>, %eps: tensor<f32>) -> tensor<4x8xf32> {
  %two = ge.constant dense<2.0> : tensor<f32>
  // CHECK-NOT: ge.layer_normalization
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = ge.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %p = ge.pow %d, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = ge.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = ge.sqrt %ve : tensor<4x1xf32>
  %n = ge.div %d, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// Pow by 3 is no variance.
// CHECK-LABEL: func.func @not_a_square
func.func @not_a_square(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %three = ge.constant dense<3.0> : tensor<f32>
  %eps = ge.constant dense<1.0e-05> : tensor<f32>
  // CHECK-NOT: ge.layer_normalization
  %m = ge.reduce_mean %x {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %d = ge.sub %x, %m : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %p = ge.pow %d, %three : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %v = ge.reduce_mean %p {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %ve = ge.add %v, %eps : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %s = ge.sqrt %ve : tensor<4x1xf32>
  %n = ge.div %d, %s : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
