// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @fused
func.func @fused(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                 %a: tensor<2x8xf32>, %m: tensor<8x16xf32>, %c: tensor<16xf32>) {
  // CHECK: ge.fused_conv {{.*}} {activation = "relu", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %0 = ge.fused_conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>, activation = "relu"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ge.fused_conv {{.*}} {activation = "clip", activation_params = array<f32: 0.000000e+00, 6.000000e+00>} {{.*}} -> tensor<1x4x6x6xf32>
  %1 = ge.fused_conv %x, %w {activation = "clip", activation_params = array<f32: 0.0, 6.0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  // A residual Z of Y's shape, with and without a bias.
  // CHECK: ge.fused_conv %{{.*}}, %{{.*}}, %{{.*}} residual %[[Y0:.*]] {activation = "gelu"
  %r0 = ge.fused_conv %x, %w, %b residual %0 {pads = array<i64: 1, 1, 1, 1>, activation = "gelu"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ge.fused_conv %{{[^,]*}}, %{{[^,]*}} residual %{{.*}} {activation = "gelu_tanh"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %r1 = ge.fused_conv %x, %w residual %1 {activation = "gelu_tanh"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  // CHECK: ge.fused_gemm {{.*}} {activation = "leaky_relu", activation_params = array<f32: 1.000000e-01>} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  %2 = ge.fused_gemm %a, %m, %c {activation = "leaky_relu", activation_params = array<f32: 0.1>} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  // CHECK: ge.fused_matmul {{.*}} {activation = "sigmoid"} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  %3 = ge.fused_matmul %a, %m, %c {activation = "sigmoid"} : (tensor<2x8xf32>, tensor<8x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
  // CHECK: ge.fused_matmul {{.*}} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  %4 = ge.fused_matmul %a, %m : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  // Omitted trailing params take ONNX's defaults.
  // CHECK: ge.fused_matmul {{.*}} {activation = "leaky_relu"}
  %5 = ge.fused_matmul %a, %m {activation = "leaky_relu"} : (tensor<2x8xf32>, tensor<8x16xf32>) -> tensor<2x16xf32>
  return
}

// NC1HWC0: 20 channels in two blocks of 16.
// CHECK-LABEL: func @channel_blocks
func.func @channel_blocks(%x: tensor<1x20x5x5xf32>, %w: tensor<20x1x3x3xf32>) -> tensor<1x20x1x1xf32> {
  // CHECK: ge.trans_data {{.*}}{dst_format = "NC1HWC0", src_format = "NCHW"} : (tensor<1x20x5x5xf32>) -> tensor<1x2x5x5x16xf32>
  %0 = ge.trans_data %x {src_format = "NCHW", dst_format = "NC1HWC0"} : (tensor<1x20x5x5xf32>) -> tensor<1x2x5x5x16xf32>
  // CHECK: ge.fused_conv {{.*}}data_format = "NC1HWC0"{{.*}} -> tensor<1x2x3x3x16xf32>
  %1 = ge.fused_conv %0, %w {group = 20 : i64, data_format = "NC1HWC0", activation = "relu"} : (tensor<1x2x5x5x16xf32>, tensor<20x1x3x3xf32>) -> tensor<1x2x3x3x16xf32>
  // CHECK: ge.global_average_pool {{.*}}{data_format = "NC1HWC0"} : (tensor<1x2x3x3x16xf32>) -> tensor<1x2x1x1x16xf32>
  %2 = ge.global_average_pool %1 {data_format = "NC1HWC0"} : (tensor<1x2x3x3x16xf32>) -> tensor<1x2x1x1x16xf32>
  // CHECK: ge.trans_data {{.*}}{dst_format = "NCHW", src_format = "NC1HWC0"} : (tensor<1x2x1x1x16xf32>) -> tensor<1x20x1x1xf32>
  %3 = ge.trans_data %2 {src_format = "NC1HWC0", dst_format = "NCHW"} : (tensor<1x2x1x1x16xf32>) -> tensor<1x20x1x1xf32>
  return %3 : tensor<1x20x1x1xf32>
}
