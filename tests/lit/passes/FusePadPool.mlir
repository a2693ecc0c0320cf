// RUN: geflow-opt --ge-fuse-pad-pool %s | FileCheck %s

// torch's avg_pool2d(3, 1, padding=1): a zero Pad, then an unpadded pool.
// CHECK-LABEL: func.func @inception_pool
func.func @inception_pool(%x: tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32> {
  %p = ge.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  // CHECK-NOT: ge.pad
  // CHECK: ge.average_pool %arg0 {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>}
  %0 = ge.pad %x, %p : (tensor<1x4x5x5xf32>, tensor<8xi64>) -> tensor<1x4x7x7xf32>
  %1 = ge.average_pool %0 {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x4x7x7xf32>) -> tensor<1x4x5x5xf32>
  return %1 : tensor<1x4x5x5xf32>
}

// Uneven pads with an explicit zero value add to the pool's counted pads.
// CHECK-LABEL: func.func @adds_to_counted_pads
func.func @adds_to_counted_pads(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %p = ge.constant dense<[0, 0, 0, 1, 0, 0, 1, 0]> : tensor<8xi64>
  %v = ge.constant dense<0.0> : tensor<f32>
  // CHECK: ge.average_pool %arg0 {count_include_pad = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 2, 2, 1>, strides = array<i64: 2, 2>}
  %0 = ge.pad %x, %p value %v : (tensor<1x2x6x6xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x7x7xf32>
  %1 = ge.average_pool %0 {count_include_pad = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// DenseNet's transitions: a Pad of nothing is only dropped; the pool's
// uncounted pads stay uncounted.
// CHECK-LABEL: func.func @empty_pad
func.func @empty_pad(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %p = ge.constant dense<0> : tensor<8xi64>
  // CHECK-NOT: ge.pad
  // CHECK: ge.average_pool %arg0 {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}
  %0 = ge.pad %x, %p : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x2x4x4xf32>
  %1 = ge.average_pool %0 {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// What keeps its Pad: a non-zero value, padded channels, a pool whose own
// pads are not counted, ceil_mode, a Pad with another user.
// CHECK-LABEL: func.func @kept
func.func @kept(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>) {
  %p = ge.constant dense<[0, 0, 1, 1, 0, 0, 1, 1]> : tensor<8xi64>
  %pc = ge.constant dense<[0, 1, 1, 1, 0, 1, 1, 1]> : tensor<8xi64>
  %one = ge.constant dense<1.0> : tensor<f32>
  // CHECK-COUNT-5: ge.pad
  // CHECK-NOT: count_include_pad
  %0 = ge.pad %x, %p value %one : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x6x6xf32>
  %1 = ge.average_pool %0 {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  %2 = ge.pad %x, %pc : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x4x6x6xf32>
  %3 = ge.average_pool %2 {kernel_shape = array<i64: 3, 3>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x4x4xf32>
  %4 = ge.pad %x, %p : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x2x6x6xf32>
  %5 = ge.average_pool %4 {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>, strides = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %6 = ge.pad %x, %p : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x2x6x6xf32>
  %7 = ge.average_pool %6 {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  %8 = ge.pad %x, %p : (tensor<1x2x4x4xf32>, tensor<8xi64>) -> tensor<1x2x6x6xf32>
  %9 = ge.average_pool %8 {kernel_shape = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  return %1, %3, %5, %7, %9, %8 : tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>
}
