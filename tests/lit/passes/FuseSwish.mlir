// RUN: geflow-opt --ge-fuse-swish %s | FileCheck %s

// torch's SiLU export: x * Sigmoid(x), in either operand order.
// CHECK-LABEL: func.func @silu
func.func @silu(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  // CHECK: %[[A:.*]] = ge.swish %arg0 : tensor<2x8xf32>
  // CHECK: %[[B:.*]] = ge.swish %arg0 : tensor<2x8xf32>
  // CHECK-NOT: ge.sigmoid
  // CHECK: return %[[A]], %[[B]]
  %0 = ge.sigmoid %x : tensor<2x8xf32>
  %1 = ge.mul %x, %0 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = ge.sigmoid %x : tensor<2x8xf32>
  %3 = ge.mul %2, %x : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1, %3 : tensor<2x8xf32>, tensor<2x8xf32>
}

// QuickGELU: x * Sigmoid(1.702 x) keeps its scale as alpha.
// CHECK-LABEL: func.func @quick_gelu
func.func @quick_gelu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c = ge.constant dense<1.702> : tensor<f32>
  // CHECK: ge.swish %arg0 {alpha = 1.702000e+00 : f32} : tensor<8xf32>
  // CHECK-NOT: ge.mul
  %0 = ge.mul %c, %x : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = ge.sigmoid %0 : tensor<8xf32>
  %2 = ge.mul %x, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %2 : tensor<8xf32>
}

// A Sigmoid with another user stays: the fused op would compute it twice.
// CHECK-LABEL: func.func @shared_gate
func.func @shared_gate(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK: ge.sigmoid
  // CHECK: ge.mul
  // CHECK-NOT: ge.swish
  %0 = ge.sigmoid %x : tensor<8xf32>
  %1 = ge.mul %x, %0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1, %0 : tensor<8xf32>, tensor<8xf32>
}

// The gate of another value is not a swish (squeeze-excitation's scale).
// CHECK-LABEL: func.func @other_value
func.func @other_value(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: ge.sigmoid
  // CHECK-NOT: ge.swish
  %0 = ge.sigmoid %y : tensor<8xf32>
  %1 = ge.mul %x, %0 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
