// RUN: geflow-opt --ge-fuse-bias-activation --split-input-file %s | FileCheck %s

// conv + per-channel bias Add + Relu -> one fused_conv; the Add's constant is
// added to the conv's own bias.
// CHECK-LABEL: func.func @conv_bias_relu
func.func @conv_bias_relu(%x: tensor<1x3x8x8xf32>) -> tensor<1x2x8x8xf32> {
  %w = ge.constant dense<1.0> : tensor<2x3x3x3xf32>
  %b = ge.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = ge.constant dense<[[[0.5]], [[0.25]]]> : tensor<2x1x1xf32>
  // CHECK: %[[B:.*]] = ge.constant dense<[1.500000e+00, 2.250000e+00]> : tensor<2xf32>
  // CHECK: ge.fused_conv %{{.*}}, %{{.*}}, %[[B]] {activation = "relu", pads = array<i64: 1, 1, 1, 1>}
  // CHECK-NOT: ge.add
  // CHECK-NOT: ge.relu
  %0 = ge.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x8x8xf32>
  %1 = ge.add %c, %0 : (tensor<2x1x1xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %2 = ge.relu %1 : tensor<1x2x8x8xf32>
  return %2 : tensor<1x2x8x8xf32>
}

// -----

// Every activation the fused ops apply, with its parameters; Clip's bounds
// come from its constant operands (Relu6).
// CHECK-LABEL: func.func @activations
func.func @activations(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>, %x: tensor<1x3x8x8xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x6x6xf32>) {
  %lo = ge.constant dense<0.0> : tensor<f32>
  %hi = ge.constant dense<6.0> : tensor<f32>
  %w = ge.constant dense<1.0> : tensor<2x3x3x3xf32>
  // CHECK: ge.fused_matmul {{.*}} {activation = "clip", activation_params = array<f32: 0.000000e+00, 6.000000e+00>}
  %0 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = ge.clip %0 min %lo max %hi : (tensor<2x4xf32>, tensor<f32>, tensor<f32>) -> tensor<2x4xf32>
  // CHECK: ge.fused_gemm {{.*}} {activation = "leaky_relu", activation_params = array<f32: 2.000000e-01>}
  %2 = ge.gemm %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %3 = ge.leaky_relu %2 {alpha = 0.2 : f32} : tensor<2x4xf32>
  // CHECK: ge.fused_matmul {{.*}} {activation = "hard_sigmoid", activation_params = array<f32: 2.000000e-01, 5.000000e-01>}
  %4 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %5 = ge.hard_sigmoid %4 : tensor<2x4xf32>
  // CHECK: ge.fused_matmul {{.*}} {activation = "sigmoid"}
  %6 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %7 = ge.sigmoid %6 : tensor<2x4xf32>
  // CHECK: ge.fused_matmul {{.*}} {activation = "tanh"}
  %8 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %9 = ge.tanh %8 : tensor<2x4xf32>
  // CHECK: ge.fused_conv {{.*}} {activation = "hard_swish"}
  %10 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %11 = ge.hard_swish %10 : tensor<1x2x6x6xf32>
  return %1, %3, %5, %7, %9, %11 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<1x2x6x6xf32>
}

// -----

// gemm: C absorbs beta * C + bias and beta becomes 1 (the default, not
// printed); matmul: the bias
// broadcasts to the product.
// CHECK-LABEL: func.func @gemm_and_matmul_bias
func.func @gemm_and_matmul_bias(%a: tensor<2x8xf32>, %m: tensor<3x2x8xf32>) -> (tensor<2x4xf32>, tensor<3x2x4xf32>) {
  %b = ge.constant dense<1.0> : tensor<4x8xf32>
  %c = ge.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %d = ge.constant dense<[[1.0, 1.0, 1.0, 1.0]]> : tensor<1x4xf32>
  %n = ge.constant dense<1.0> : tensor<8x4xf32>
  // CHECK: %[[C:.*]] = ge.constant dense<{{\[\[}}3.000000e+00, 5.000000e+00, 7.000000e+00, 9.000000e+00]]> : tensor<1x4xf32>
  // CHECK: ge.fused_gemm %{{.*}}, %{{.*}}, %[[C]] {activation = "relu", transB = 1 : i64}
  %0 = ge.gemm %a, %b, %c {transB = 1 : i64, beta = 2.0 : f32} : (tensor<2x8xf32>, tensor<4x8xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = ge.add %0, %d : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %2 = ge.relu %1 : tensor<2x4xf32>
  // CHECK: ge.fused_matmul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x2x8xf32>, tensor<8x4xf32>, tensor<4xf32>) -> tensor<3x2x4xf32>
  %3 = ge.matmul %m, %n : (tensor<3x2x8xf32>, tensor<8x4xf32>) -> tensor<3x2x4xf32>
  %4 = ge.add %3, %c : (tensor<3x2x4xf32>, tensor<4xf32>) -> tensor<3x2x4xf32>
  return %2, %4 : tensor<2x4xf32>, tensor<3x2x4xf32>
}

// -----

// Nothing fuses when the intermediate has a second user, the bias is not a
// constant, or the bias does not broadcast along the conv's channels.
// CHECK-LABEL: func.func @negative
func.func @negative(%x: tensor<1x3x8x8xf32>, %bias: tensor<2x1x1xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = ge.constant dense<1.0> : tensor<2x3x3x3xf32>
  %row = ge.constant dense<1.0> : tensor<1x1x1x6xf32>
  // CHECK: %[[C0:.*]] = ge.conv
  // CHECK: ge.relu %[[C0]]
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.relu %0 : tensor<1x2x6x6xf32>
  // CHECK: %[[C1:.*]] = ge.conv
  // CHECK: ge.add %[[C1]], %arg1
  %2 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %3 = ge.add %2, %bias : (tensor<1x2x6x6xf32>, tensor<2x1x1xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: %[[C2:.*]] = ge.conv
  // CHECK: ge.add %[[C2]], %{{.*}} : (tensor<1x2x6x6xf32>, tensor<1x1x1x6xf32>)
  %4 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %5 = ge.add %4, %row : (tensor<1x2x6x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x2x6x6xf32>
  return %0, %1, %3, %5 : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}

// -----

// An activation already applied stops further fusion (relu(relu(conv))).
// CHECK-LABEL: func.func @one_activation
func.func @one_activation(%x: tensor<1x3x8x8xf32>) -> tensor<1x2x6x6xf32> {
  %w = ge.constant dense<1.0> : tensor<2x3x3x3xf32>
  // CHECK: ge.fused_conv {{.*}}activation = "relu"
  // CHECK-NEXT: ge.sigmoid
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.relu %0 : tensor<1x2x6x6xf32>
  %2 = ge.sigmoid %1 : tensor<1x2x6x6xf32>
  return %2 : tensor<1x2x6x6xf32>
}

// -----

// ge.gelu (made by ge-fuse-gelu) fuses as the exact or the tanh form.
// CHECK-LABEL: func.func @gelu
func.func @gelu(%a: tensor<2x8xf32>, %b: tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  // CHECK: ge.fused_matmul {{.*}} {activation = "gelu"}
  // CHECK: ge.fused_matmul {{.*}} {activation = "gelu_tanh"}
  // CHECK-NOT: ge.gelu
  %0 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %1 = ge.gelu %0 : tensor<2x4xf32>
  %2 = ge.matmul %a, %b : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  %3 = ge.gelu %2 {approximate = "tanh"} : tensor<2x4xf32>
  return %1, %3 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// ge.swish (made by ge-fuse-swish) fuses with its alpha as the param.
// CHECK-LABEL: func.func @swish
func.func @swish(%x: tensor<1x3x8x8xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = ge.constant dense<1.0> : tensor<2x3x3x3xf32>
  // CHECK: ge.fused_conv {{.*}} {activation = "swish", activation_params = array<f32: 1.000000e+00>}
  // CHECK: ge.fused_conv {{.*}} {activation = "swish", activation_params = array<f32: 1.702000e+00>}
  // CHECK-NOT: ge.swish
  %0 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.swish %0 : tensor<1x2x6x6xf32>
  %2 = ge.conv %x, %w : (tensor<1x3x8x8xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32>
  %3 = ge.swish %2 {alpha = 1.702 : f32} : tensor<1x2x6x6xf32>
  return %1, %3 : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
