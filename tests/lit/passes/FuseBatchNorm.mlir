// RUN: geflow-opt --ge-fuse-batchnorm --split-input-file %s | FileCheck %s
// RUN: geflow-opt --ge-fuse-batchnorm --ge-fuse-bias-activation --ge-fuse-residual --split-input-file %s | FileCheck %s --check-prefix=CHAIN

// s = scale / sqrt(var + eps) = [2, 0.5]; W[m] *= s[m]; B = s * B + beta - mean * s.
// CHECK-LABEL: func.func @conv_bn
func.func @conv_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ge.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = ge.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %scale = ge.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %beta = ge.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %var = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  // CHECK-DAG: %[[W:.*]] = ge.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
  // CHECK-DAG: %[[B:.*]] = ge.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
  // CHECK: %[[Y:.*]] = ge.fused_conv %arg0, %[[W]], %[[B]] :
  // CHECK-NOT: ge.batch_normalization
  // CHECK: return %[[Y]]
  %0 = ge.conv %x, %w, %b : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %1 = ge.batch_normalization %0, %scale, %beta, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

// -----

// gemm with transB: B's rows are the channels; no C before, so C = shift.
// matmul: B's columns are the channels.
// CHECK-LABEL: func.func @gemm_matmul_bn
func.func @gemm_matmul_bn(%a: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %b = ge.constant dense<[[1.0, 1.0], [2.0, 2.0]]> : tensor<2x2xf32>
  %scale = ge.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %beta = ge.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %var = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  // CHECK-DAG: %[[BT:.*]] = ge.constant dense<{{\[\[}}2.000000e+00, 2.000000e+00], [1.000000e+00, 1.000000e+00]]>
  // CHECK-DAG: %[[BC:.*]] = ge.constant dense<{{\[\[}}2.000000e+00, 5.000000e-01], [4.000000e+00, 1.000000e+00]]>
  // CHECK-DAG: ge.fused_gemm %arg0, %[[BT]], %{{.*}} {{.*}}transB = 1
  // CHECK-DAG: ge.fused_matmul %arg0, %[[BC]], %{{.*}} :
  // CHECK-NOT: ge.batch_normalization
  %0 = ge.gemm %a, %b {transB = 1 : i64} : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %1 = ge.batch_normalization %0, %scale, %beta, %mean, %var {epsilon = 0.0 : f32} : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %2 = ge.matmul %a, %b : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %3 = ge.batch_normalization %2, %scale, %beta, %mean, %var {epsilon = 0.0 : f32} : (tensor<3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  return %1, %3 : tensor<3x2xf32>, tensor<3x2xf32>
}

// -----

// A weight that is not a constant, a conv output with a second user, and
// statistics that are not constant keep the batch norm.
// CHECK-LABEL: func.func @negative
func.func @negative(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x1x1xf32>, %var: tensor<2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %cw = ge.constant dense<1.0> : tensor<2x1x1x1xf32>
  %c = ge.constant dense<1.0> : tensor<2xf32>
  // CHECK-COUNT-3: ge.batch_normalization
  // CHECK-NOT: ge.fused_conv
  %0 = ge.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = ge.batch_normalization %0, %c, %c, %c, %c : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %2 = ge.conv %x, %cw : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = ge.batch_normalization %2, %c, %c, %c, %c : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %4 = ge.conv %x, %cw : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %5 = ge.batch_normalization %4, %c, %c, %c, %var : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1, %2, %3, %5 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

// A ResNet block as exported without PyTorch's own conv-bn folding: each
// conv + batch norm (+ relu) and the residual add + relu become one
// fused_conv each.
// CHECK-LABEL: func.func @resnet_block
// CHAIN-LABEL: func.func @resnet_block
func.func @resnet_block(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ge.constant dense<0.5> : tensor<2x2x3x3xf32>
  %c = ge.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // CHAIN: %[[A:.*]] = ge.fused_conv %arg0, %{{[^,]*}}, %{{[^ ]*}} {activation = "relu"
  // CHAIN-NEXT: %[[B:.*]] = ge.fused_conv %[[A]], %{{[^,]*}}, %{{[^ ]*}} residual %arg0 {activation = "relu"
  // CHAIN-NEXT: return %[[B]]
  %0 = ge.conv %x, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %1 = ge.batch_normalization %0, %c, %c, %c, %c : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %2 = ge.relu %1 : tensor<1x2x4x4xf32>
  %3 = ge.conv %2, %w {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %4 = ge.batch_normalization %3, %c, %c, %c, %c : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %5 = ge.add %4, %x : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %6 = ge.relu %5 : tensor<1x2x4x4xf32>
  return %6 : tensor<1x2x4x4xf32>
}

// -----

// The conv weight as a dense_resource (a large imported weight): folded the
// same way, into a dense constant.
// CHECK-LABEL: func.func @resource_weight_bn
func.func @resource_weight_bn(%x: tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = ge.constant dense_resource<conv_w> : tensor<2x1x1x1xf32>
  %scale = ge.constant dense<[2.0, 1.0]> : tensor<2xf32>
  %beta = ge.constant dense<[0.5, 0.0]> : tensor<2xf32>
  %mean = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  %var = ge.constant dense<[1.0, 4.0]> : tensor<2xf32>
  // CHECK-DAG: %[[W:.*]] = ge.constant dense<{{\[\[\[\[}}2.000000e+00]]], {{\[\[\[}}1.000000e+00]]]]> : tensor<2x1x1x1xf32>
  // CHECK: ge.fused_conv %arg0, %[[W]], %{{.*}} :
  // CHECK-NOT: ge.batch_normalization
  %0 = ge.conv %x, %w : (tensor<1x1x4x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = ge.batch_normalization %0, %scale, %beta, %mean, %var {epsilon = 0.0 : f32} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %1 : tensor<1x2x4x4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      conv_w: "0x040000000000803F00000040"
    }
  }
#-}
