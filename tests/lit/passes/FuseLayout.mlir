// RUN: geflow-opt --ge-fuse-layout %s | FileCheck %s

// A transformer's head split of a packed QKV projection: slice, reshape,
// transpose read the projection as a strided view (K's transpose moves the
// sequence innermost).
// CHECK-LABEL: func.func @head_split
func.func @head_split(%qkv: tensor<16x1x192xf32>) -> (tensor<4x16x16xf32>, tensor<4x16x16xf32>) {
  %c0 = ge.constant dense<0> : tensor<1xi64>
  %c64 = ge.constant dense<64> : tensor<1xi64>
  %c128 = ge.constant dense<128> : tensor<1xi64>
  %axis = ge.constant dense<-1> : tensor<1xi64>
  %shape = ge.constant dense<[16, 4, 16]> : tensor<3xi64>
  // CHECK: %[[Q:.*]] = ge.as_strided %arg0 {strides = array<i64: 16, 192, 1>} : (tensor<16x1x192xf32>) -> tensor<4x16x16xf32>
  // CHECK: %[[K:.*]] = ge.as_strided %arg0 {offset = 64 : i64, strides = array<i64: 16, 1, 192>} : (tensor<16x1x192xf32>) -> tensor<4x16x16xf32>
  // CHECK-NOT: ge.slice
  // CHECK-NOT: ge.reshape
  // CHECK: return %[[Q]], %[[K]]
  %0 = ge.slice %qkv, %c0, %c64 axes %axis : (tensor<16x1x192xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<16x1x64xf32>
  %1 = ge.reshape %0, %shape : (tensor<16x1x64xf32>, tensor<3xi64>) -> tensor<16x4x16xf32>
  %2 = ge.transpose %1 {perm = array<i64: 1, 0, 2>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
  %3 = ge.slice %qkv, %c64, %c128 axes %axis : (tensor<16x1x192xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<16x1x64xf32>
  %4 = ge.reshape %3, %shape : (tensor<16x1x64xf32>, tensor<3xi64>) -> tensor<16x4x16xf32>
  %5 = ge.transpose %4 {perm = array<i64: 1, 2, 0>} : (tensor<16x4x16xf32>) -> tensor<4x16x16xf32>
  return %2, %5 : tensor<4x16x16xf32>, tensor<4x16x16xf32>
}

// ShuffleNet's channel shuffle: reshape, transpose, then a reshape that is
// no view of the transposed tensor, so the chain is cut before it.
// CHECK-LABEL: func.func @channel_shuffle
func.func @channel_shuffle(%x: tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32> {
  %s5 = ge.constant dense<[1, 2, 4, 2, 2]> : tensor<5xi64>
  %s4 = ge.constant dense<[1, 8, 2, 2]> : tensor<4xi64>
  // CHECK: %[[T:.*]] = ge.as_strided %arg0 {strides = array<i64: 32, 4, 16, 2, 1>} : (tensor<1x8x2x2xf32>) -> tensor<1x4x2x2x2xf32>
  // CHECK: ge.reshape %[[T]]
  %0 = ge.reshape %x, %s5 : (tensor<1x8x2x2xf32>, tensor<5xi64>) -> tensor<1x2x4x2x2xf32>
  %1 = ge.transpose %0 {perm = array<i64: 0, 2, 1, 3, 4>} : (tensor<1x2x4x2x2xf32>) -> tensor<1x4x2x2x2xf32>
  %2 = ge.reshape %1, %s4 : (tensor<1x4x2x2x2xf32>, tensor<4xi64>) -> tensor<1x8x2x2xf32>
  return %2 : tensor<1x8x2x2xf32>
}

// An intermediate with a second reader ends the chain; a lone op stays.
// CHECK-LABEL: func.func @shared_intermediate
func.func @shared_intermediate(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<3x2x4xf32>) {
  // CHECK: ge.transpose %arg0 {perm = array<i64: 1, 0, 2>}
  // CHECK: ge.transpose %{{.*}} {perm = array<i64: 2, 0, 1>}
  // CHECK-NOT: ge.as_strided
  %0 = ge.transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = ge.transpose %0 {perm = array<i64: 2, 0, 1>} : (tensor<3x2x4xf32>) -> tensor<4x3x2xf32>
  return %1, %0 : tensor<4x3x2xf32>, tensor<3x2x4xf32>
}
