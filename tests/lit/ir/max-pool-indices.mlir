// RUN: geflow-opt %s --canonicalize --split-input-file | FileCheck %s

// Nothing reads Indices: canonicalization drops the result, so the kernel
// never computes it; attributes stay.
// CHECK-LABEL: func @unused_indices
// CHECK-NEXT: %[[Y:.*]] = ge.max_pool %{{.*}} {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @unused_indices(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %y:2 = ge.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>)
  return %y#0 : tensor<1x2x4x4xf32>
}

// -----

// A returned Indices stays.
// CHECK-LABEL: func @used_indices
// CHECK-NEXT: %[[Y:.*]], %[[I:.*]] = ge.max_pool %{{.*}} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
// CHECK-NEXT: return %[[Y]], %[[I]]
func.func @used_indices(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %y:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %y#0, %y#1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

// Without Indices the op is valid and verified as before.
// CHECK-LABEL: func @no_indices
// CHECK-NEXT: ge.max_pool %{{.*}} {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
func.func @no_indices(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  %y = ge.max_pool %x {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}
