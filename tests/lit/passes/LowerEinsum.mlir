// RUN: geflow-opt --ge-lower-einsum %s | FileCheck %s

// A batched matmul is one ge.matmul, without data movement.
// CHECK-LABEL: func.func @batch_matmul
func.func @batch_matmul(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>) -> tensor<5x2x4xf32> {
  // CHECK-NEXT: %[[M:.*]] = ge.matmul %arg0, %arg1 : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  // CHECK-NEXT: return %[[M]]
  %0 = ge.einsum %a, %b {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  return %0 : tensor<5x2x4xf32>
}

// Implicit output: i is summed; [1, 5] x [5, 1] then a reshape to a scalar.
// CHECK-LABEL: func.func @inner_product
func.func @inner_product(%a: tensor<5xf32>, %b: tensor<5xf32>) -> tensor<f32> {
  // CHECK: %[[A:.*]] = ge.reshape %arg0, {{.*}} -> tensor<1x5xf32>
  // CHECK: %[[B:.*]] = ge.reshape %arg1, {{.*}} -> tensor<5x1xf32>
  // CHECK: %[[M:.*]] = ge.matmul %[[A]], %[[B]] {{.*}} -> tensor<1x1xf32>
  // CHECK: %[[S:.*]] = ge.reshape %[[M]], {{.*}} -> tensor<f32>
  // CHECK: return %[[S]]
  %0 = ge.einsum %a, %b {equation = "i,i"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// Letters in other orders: both operands transposed into [batch, M, K] and
// [batch, K, N]; the product's dims transposed into the output's order. The
// letter only %b has (l) is summed first.
// CHECK-LABEL: func.func @permuted
func.func @permuted(%a: tensor<3x2x6xf32>, %b: tensor<7x2x3x4xf32>) -> tensor<4x6x2xf32> {
  // CHECK: %[[BS:.*]] = ge.reduce_sum %arg1, {{.*}} {keepdims = 0 : i64} {{.*}} -> tensor<2x3x4xf32>
  // CHECK: %[[AT:.*]] = ge.transpose %arg0 {perm = array<i64: 1, 2, 0>} {{.*}} -> tensor<2x6x3xf32>
  // CHECK: %[[M:.*]] = ge.matmul %[[AT]], %[[BS]] {{.*}} -> tensor<2x6x4xf32>
  // CHECK: %[[T:.*]] = ge.transpose %[[M]] {perm = array<i64: 2, 1, 0>} {{.*}} -> tensor<4x6x2xf32>
  // CHECK: return %[[T]]
  %0 = ge.einsum %a, %b {equation = "jbi,lbjk->kib"} : (tensor<3x2x6xf32>, tensor<7x2x3x4xf32>) -> tensor<4x6x2xf32>
  return %0 : tensor<4x6x2xf32>
}

// One operand: a sum, a transpose.
// CHECK-LABEL: func.func @one_operand
func.func @one_operand(%x: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<4x3xf32>) {
  // CHECK: ge.reduce_sum %arg0, {{.*}} -> tensor<3xf32>
  %0 = ge.einsum %x {equation = "ij->i"} : (tensor<3x4xf32>) -> tensor<3xf32>
  // CHECK: ge.transpose %arg0 {perm = array<i64: 1, 0>} {{.*}} -> tensor<4x3xf32>
  %1 = ge.einsum %x {equation = "ij->ji"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %0, %1 : tensor<3xf32>, tensor<4x3xf32>
}

// Left for the kernel: a diagonal, three operands, a broadcast dim, int64.
// CHECK-LABEL: func.func @kept
func.func @kept(%d: tensor<3x5x5xf32>, %v: tensor<5xf32>, %w: tensor<1x5xf32>, %i: tensor<2x2xi64>)
    -> (tensor<3x5xf32>, tensor<f32>, tensor<4x5xf32>, tensor<2xi64>) {
  // CHECK: ge.einsum %arg0 {equation = "...ii ->...i"}
  %0 = ge.einsum %d {equation = "...ii ->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  // CHECK: ge.einsum %arg1, %arg1, %arg1 {equation = "i,i,i"}
  %1 = ge.einsum %v, %v, %v {equation = "i,i,i"} : (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  %e = ge.constant dense<1.0> : tensor<4x5xf32>
  // CHECK: ge.einsum {{.*}} {equation = "...j,...j->...j"}
  %2 = ge.einsum %w, %e {equation = "...j,...j->...j"} : (tensor<1x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: ge.einsum %arg3 {equation = "ij->i"}
  %3 = ge.einsum %i {equation = "ij->i"} : (tensor<2x2xi64>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<3x5xf32>, tensor<f32>, tensor<4x5xf32>, tensor<2xi64>
}
