// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s

// CHECK-LABEL: func @vector_fusions
func.func @vector_fusions(%x: tensor<4x64xf32>, %b: tensor<64xf32>, %s: tensor<1xf32>,
                          %q: tensor<2x16x8xf32>, %k: tensor<2x16x8xf32>, %kt: tensor<2x8x16xf32>,
                          %v: tensor<2x16x4xf32>, %mask: tensor<16x16xf32>) {
  // CHECK: ge.gelu %{{.*}} : tensor<4x64xf32>
  %0 = ge.gelu %x : tensor<4x64xf32>
  // CHECK: ge.gelu %{{.*}} {approximate = "tanh"} : tensor<4x64xf32>
  %1 = ge.gelu %x {approximate = "tanh"} : tensor<4x64xf32>
  // CHECK: ge.fused_attention {{.*}} {scale = 5.000000e-01 : f32} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  %2 = ge.fused_attention %q, %k, %v {scale = 0.5 : f32} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32>) -> tensor<2x16x4xf32>
  // CHECK: ge.fused_attention {{.*}} {k_transposed = 1 : i64} : (tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2x16x4xf32>, tensor<16x16xf32>) -> tensor<2x16x4xf32>
  %3 = ge.fused_attention %q, %kt, %v, %mask {k_transposed = 1 : i64} : (tensor<2x16x8xf32>, tensor<2x8x16xf32>, tensor<2x16x4xf32>, tensor<16x16xf32>) -> tensor<2x16x4xf32>
  // CHECK: ge.fused_elementwise {{.*}} {step_operands = array<i64: 0, 1, 3, 2, 4, -1, 4, 5>, steps = ["add", "mul", "sigmoid", "mul"]} : (tensor<4x64xf32>, tensor<64xf32>, tensor<1xf32>) -> tensor<4x64xf32>
  %4 = ge.fused_elementwise %x, %b, %s {steps = ["add", "mul", "sigmoid", "mul"], step_operands = array<i64: 0, 1, 3, 2, 4, -1, 4, 5>} : (tensor<4x64xf32>, tensor<64xf32>, tensor<1xf32>) -> tensor<4x64xf32>
  // CHECK: ge.fused_elementwise {{.*}} step_params = array<f32: 0.000000e+00, 6.000000e+00>, steps = ["clip"]
  %5 = ge.fused_elementwise %x {steps = ["clip"], step_operands = array<i64: 0, -1>, step_params = array<f32: 0.0, 6.0>} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  // CHECK: ge.fused_attention {{.*}} {y_perm = array<i64: 1, 0, 2>} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32>) -> tensor<16x2x4xf32>
  %6 = ge.fused_attention %q, %k, %v {y_perm = array<i64: 1, 0, 2>} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32>) -> tensor<16x2x4xf32>
  // CHECK: ge.fused_attention {{.*}} {y_perm = array<i64: 1, 0, 2>} : {{.*}} -> tensor<16x8xf32>
  %8 = ge.fused_attention %q, %k, %v {y_perm = array<i64: 1, 0, 2>} : (tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<2x16x4xf32>) -> tensor<16x8xf32>
  // CHECK: ge.as_strided %{{.*}} {offset = 4 : i64, strides = array<i64: 1, 64>} : (tensor<4x64xf32>) -> tensor<60x4xf32>
  %7 = ge.as_strided %x {offset = 4 : i64, strides = array<i64: 1, 64>} : (tensor<4x64xf32>) -> tensor<60x4xf32>
  return
}
