// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @conv
func.func @conv(%x: tensor<1x3x224x224xf32>, %w: tensor<64x3x7x7xf32>, %b: tensor<64xf32>,
                %dw: tensor<8x1x3x3xf32>, %x8: tensor<1x8x10x10xf32>) {
  // CHECK: ge.conv {{.*}} {kernel_shape = array<i64: 7, 7>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  %0 = ge.conv %x, %w, %b {kernel_shape = array<i64: 7, 7>, pads = array<i64: 3, 3, 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x224x224xf32>, tensor<64x3x7x7xf32>, tensor<64xf32>) -> tensor<1x64x112x112xf32>
  // Depthwise, SAME_UPPER, dilated.
  // CHECK: ge.conv {{.*}} {auto_pad = "SAME_UPPER", dilations = array<i64: 2, 2>, group = 8 : i64} {{.*}} -> tensor<1x8x10x10xf32>
  %1 = ge.conv %x8, %dw {auto_pad = "SAME_UPPER", dilations = array<i64: 2, 2>, group = 8 : i64} : (tensor<1x8x10x10xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x10x10xf32>
  return
}

// CHECK-LABEL: func @conv_transpose
func.func @conv_transpose(%x: tensor<1x8x5x5xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<4xf32>) {
  // CHECK: ge.conv_transpose {{.*}} -> tensor<1x4x11x11xf32>
  %0 = ge.conv_transpose %x, %w, %b {strides = array<i64: 2, 2>} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x11x11xf32>
  // CHECK: ge.conv_transpose {{.*}} -> tensor<1x4x12x12xf32>
  %1 = ge.conv_transpose %x, %w {strides = array<i64: 2, 2>, output_padding = array<i64: 1, 1>} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x12x12xf32>
  // CHECK: ge.conv_transpose {{.*}} -> tensor<1x4x10x10xf32>
  %2 = ge.conv_transpose %x, %w {strides = array<i64: 2, 2>, auto_pad = "SAME_UPPER"} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x4x10x10xf32>
  return
}

// CHECK-LABEL: func @pools
func.func @pools(%x: tensor<1x64x112x112xf32>, %y: tensor<1x3x5x5xf32>) {
  // CHECK: ge.max_pool {{.*}} -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xi64>)
  %0:2 = ge.max_pool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x64x112x112xf32>) -> (tensor<1x64x56x56xf32>, tensor<1x64x56x56xi64>)
  // CHECK: ge.average_pool {{.*}} {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} {{.*}} -> tensor<1x3x3x3xf32>
  %1 = ge.average_pool %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: ge.average_pool {{.*}} -> tensor<1x3x2x2xf32>
  %2 = ge.average_pool %y {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x2x2xf32>
  // CHECK: ge.average_pool {{.*}} -> tensor<1x3x3x3xf32>
  %3 = ge.average_pool %y {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: ge.global_average_pool {{.*}} -> tensor<1x64x1x1xf32>
  %4 = ge.global_average_pool %x : (tensor<1x64x112x112xf32>) -> tensor<1x64x1x1xf32>
  // CHECK: ge.global_max_pool {{.*}} -> tensor<1x3x1x1xf32>
  %5 = ge.global_max_pool %y : (tensor<1x3x5x5xf32>) -> tensor<1x3x1x1xf32>
  return
}

// CHECK-LABEL: func @norms
func.func @norms(%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, %ln: tensor<4x5xf32>) {
  // CHECK: ge.batch_normalization {{.*}} {epsilon = 1.000000e-03 : f32} {{.*}} -> tensor<2x3x4x5xf32>
  %0 = ge.batch_normalization %x, %c, %c, %c, %c {epsilon = 1.0e-3 : f32} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.instance_normalization {{.*}} -> tensor<2x3x4x5xf32>
  %1 = ge.instance_normalization %x, %c, %c : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.layer_normalization {{.*}} {axis = 2 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = ge.layer_normalization %x, %ln, %ln {axis = 2 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.layer_normalization {{.*}} -> (tensor<2x3x4x5xf32>, tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>)
  %stats:3 = ge.layer_normalization %x, %ln {axis = 2 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x1x1xf32>, tensor<2x3x1x1xf32>)
  return
}

// CHECK-LABEL: func @products
func.func @products(%a: tensor<4x8xf32>, %b: tensor<16x8xf32>, %c: tensor<16xf32>,
                    %m: tensor<2x1x4x8xf32>, %n: tensor<3x8x5xf32>, %v: tensor<8xf32>) {
  // CHECK: ge.gemm {{.*}} {transB = 1 : i64} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %0 = ge.gemm %a, %b, %c {transB = 1 : i64} : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  // CHECK: ge.matmul {{.*}} -> tensor<2x3x4x5xf32>
  %1 = ge.matmul %m, %n : (tensor<2x1x4x8xf32>, tensor<3x8x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: ge.matmul {{.*}} -> tensor<4xf32>
  %2 = ge.matmul %a, %v : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  // CHECK: ge.matmul {{.*}} -> tensor<3x5xf32>
  %3 = ge.matmul %v, %n : (tensor<8xf32>, tensor<3x8x5xf32>) -> tensor<3x5xf32>
  return
}

// CHECK-LABEL: func @softmax_argmax_topk
func.func @softmax_argmax_topk(%x: tensor<2x10xf32>) {
  // CHECK: ge.softmax {{.*}} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %0 = ge.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: ge.log_softmax {{.*}} {axis = 0 : i64}
  %1 = ge.log_softmax %x {axis = 0 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: ge.arg_max {{.*}} {axis = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x1xi64>
  %2 = ge.arg_max %x {axis = 1 : i64} : (tensor<2x10xf32>) -> tensor<2x1xi64>
  // CHECK: ge.arg_max {{.*}} {keepdims = 0 : i64} : (tensor<2x10xf32>) -> tensor<10xi64>
  %3 = ge.arg_max %x {keepdims = 0 : i64} : (tensor<2x10xf32>) -> tensor<10xi64>
  %k = ge.constant dense<3> : tensor<1xi64>
  // CHECK: ge.top_k {{.*}} -> (tensor<2x3xf32>, tensor<2x3xi64>)
  %4:2 = ge.top_k %x, %k : (tensor<2x10xf32>, tensor<1xi64>) -> (tensor<2x3xf32>, tensor<2x3xi64>)
  return
}

// CHECK-LABEL: func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>) {
  // CHECK: ge.reduce_l2 {{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %0 = ge.reduce_l2 %x {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  // CHECK: ge.reduce_max {{.*}} -> tensor<1x1x1xf32>
  %1 = ge.reduce_max %x : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: ge.reduce_mean {{.*}} {axes = array<i64: -1>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  %2 = ge.reduce_mean %x {axes = array<i64: -1>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  // CHECK: ge.reduce_min {{.*}} -> tensor<f32>
  %3 = ge.reduce_min %x {keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: ge.reduce_prod
  %4 = ge.reduce_prod %x {axes = array<i64: 0, 2>} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // CHECK: ge.reduce_sum_square
  %5 = ge.reduce_sum_square %x {axes = array<i64: 0>} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %c = ge.constant dense<[0, 2]> : tensor<2xi64>
  // CHECK: ge.reduce_sum {{.*}} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  %6 = ge.reduce_sum %x, %c : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  // CHECK: ge.reduce_sum {{.*}} {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %7 = ge.reduce_sum %x {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK: ge.reduce_sum {{.*}} -> tensor<?x?x?xf32>
  %8 = ge.reduce_sum %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  return
}

// Dynamic dims are accepted where the verifier cannot decide.
// CHECK-LABEL: func @dynamic
func.func @dynamic(%x: tensor<?x3x?x16xf32>, %w: tensor<4x3x3x3xf32>, %a: tensor<?x8xf32>, %b: tensor<8x?xf32>) {
  // CHECK: ge.conv {{.*}} -> tensor<?x4x?x14xf32>
  %0 = ge.conv %x, %w : (tensor<?x3x?x16xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x14xf32>
  // CHECK: ge.conv {{.*}} -> tensor<2x4x5x14xf32>
  %1 = ge.conv %x, %w : (tensor<?x3x?x16xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x14xf32>
  // CHECK: ge.matmul {{.*}} -> tensor<?x?xf32>
  %2 = ge.matmul %a, %b : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  // CHECK: ge.max_pool {{.*}} -> (tensor<?x3x?x8xf32>, tensor<?x3x?x8xi64>)
  %3:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x?x16xf32>) -> (tensor<?x3x?x8xf32>, tensor<?x3x?x8xi64>)
  return
}
