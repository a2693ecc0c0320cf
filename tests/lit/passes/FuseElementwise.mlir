// RUN: geflow-opt --ge-fuse-elementwise %s | FileCheck %s
// RUN: geflow-opt --ge-fuse-elementwise='max-steps=2' %s | FileCheck %s --check-prefix=CAP

// Add -> Mul -> Sigmoid -> Mul (a swish): one op, the inputs in first-use
// order (x, the bias, the scalar), the steps numbered after them.
// CHECK-LABEL: func.func @swish_chain
// CAP-LABEL: func.func @swish_chain
func.func @swish_chain(%x: tensor<4x64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %c = ge.constant dense<1.702> : tensor<f32>
  // CHECK: %[[Y:.*]] = ge.fused_elementwise %arg0, %arg1, %{{.*}} {step_operands = array<i64: 0, 1, 3, 2, 4, -1, 4, 5>, steps = ["add", "mul", "sigmoid", "mul"]} : (tensor<4x64xf32>, tensor<64xf32>, tensor<f32>) -> tensor<4x64xf32>
  // CHECK-NEXT: return %[[Y]]
  // CAP-COUNT-2: ge.fused_elementwise
  %0 = ge.add %x, %b : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %1 = ge.mul %0, %c : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = ge.sigmoid %1 : tensor<4x64xf32>
  %3 = ge.mul %1, %2 : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %3 : tensor<4x64xf32>
}

// Parameters of the steps: leaky_relu's alpha, clip's constant bounds, gelu.
// CHECK-LABEL: func.func @params
func.func @params(%x: tensor<8xf32>) -> tensor<8xf32> {
  %lo = ge.constant dense<0.0> : tensor<f32>
  %hi = ge.constant dense<6.0> : tensor<f32>
  // CHECK: ge.fused_elementwise %arg0 {step_operands = array<i64: 0, -1, 1, -1, 2, -1>, step_params = array<f32: 2.000000e-01, 0.000000e+00, 0.000000e+00, 6.000000e+00, 0.000000e+00, 0.000000e+00>, steps = ["leaky_relu", "clip", "gelu_tanh"]}
  %0 = ge.leaky_relu %x {alpha = 0.2 : f32} : tensor<8xf32>
  %1 = ge.clip %0 min %lo max %hi : (tensor<8xf32>, tensor<f32>, tensor<f32>) -> tensor<8xf32>
  %2 = ge.gelu %1 {approximate = "tanh"} : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// Round (half to even) is a one-operand step like any unary op.
// CHECK-LABEL: func.func @round_chain
func.func @round_chain(%x: tensor<8xf32>, %s: tensor<f32>) -> tensor<8xf32> {
  // CHECK: ge.fused_elementwise %arg0, %arg1 {step_operands = array<i64: 0, 1, 2, -1, 3, -1>, steps = ["mul", "round", "relu"]}
  %0 = ge.mul %x, %s : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = ge.round %0 : tensor<8xf32>
  %2 = ge.relu %1 : tensor<8xf32>
  return %2 : tensor<8xf32>
}

// An intermediate read outside the chain ends it there: the chain above and
// below the shared value fuse separately (one op each is left alone).
// CHECK-LABEL: func.func @shared_intermediate
func.func @shared_intermediate(%x: tensor<8xf32>, %y: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // CHECK: %[[A:.*]] = ge.fused_elementwise %arg0, %arg1 {step_operands = array<i64: 0, 1, 2, -1>, steps = ["add", "relu"]}
  // CHECK: %[[B:.*]] = ge.fused_elementwise %[[A]] {step_operands = array<i64: 0, -1, 1, -1>, steps = ["exp", "neg"]}
  // CHECK: return %[[B]], %[[A]]
  %0 = ge.add %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = ge.relu %0 : tensor<8xf32>
  %2 = ge.exp %1 : tensor<8xf32>
  %3 = ge.neg %2 : tensor<8xf32>
  return %3, %1 : tensor<8xf32>, tensor<8xf32>
}

// A producer of another shape (here the broadcast operand's own chain) is
// an input, not a step; a lone op stays what it is; integer ops stay.
// CHECK-LABEL: func.func @shapes_and_types
func.func @shapes_and_types(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<8xi32>) -> (tensor<4x8xf32>, tensor<8xi32>) {
  // CHECK: %[[E:.*]] = ge.exp %arg1 : tensor<8xf32>
  // CHECK: ge.fused_elementwise %arg0, %[[E]] {step_operands = array<i64: 0, 1, 2, -1>, steps = ["mul", "tanh"]}
  // CHECK: ge.add %arg2, %arg2 : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  // CHECK-NOT: ge.fused_elementwise
  %e = ge.exp %b : tensor<8xf32>
  %0 = ge.mul %x, %e : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %1 = ge.tanh %0 : tensor<4x8xf32>
  %2 = ge.add %i, %i : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  %3 = ge.abs %2 : tensor<8xi32>
  return %1, %3 : tensor<4x8xf32>, tensor<8xi32>
}

// A stream label ends a chain: ops of different scopes stay apart.
// CHECK-LABEL: func.func @stream_labels
func.func @stream_labels(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: ge.fused_elementwise %arg0 {step_operands = {{.*}}, steps = ["relu", "exp"]}
  // CHECK: ge.fused_elementwise %{{.*}} {ge.stream_label = "side", {{.*}}steps = ["neg", "abs"]}
  %0 = ge.relu %x : tensor<8xf32>
  %1 = ge.exp %0 : tensor<8xf32>
  %2 = ge.neg %1 {ge.stream_label = "side"} : tensor<8xf32>
  %3 = ge.abs %2 {ge.stream_label = "side"} : tensor<8xf32>
  return %3 : tensor<8xf32>
}

// The trigonometric functions, celu, thresholded_relu, shrink and float mod
// are steps; the float attributes become step_params (defaults included).
// CHECK-LABEL: func.func @math_chain
func.func @math_chain(%x: tensor<8xf32>, %m: tensor<f32>) -> tensor<8xf32> {
  // CHECK: ge.fused_elementwise %arg0, %arg1 {step_operands = array<i64: 0, -1, 2, -1, 3, -1, 4, -1, 5, 1, 6, -1>, step_params = array<f32: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e-01>, steps = ["atan", "sinh", "celu", "thresholded_relu", "mod", "shrink"]}
  %0 = ge.atan %x : tensor<8xf32>
  %1 = ge.sinh %0 : tensor<8xf32>
  %2 = ge.celu %1 {alpha = 2.0 : f32} : tensor<8xf32>
  %3 = ge.thresholded_relu %2 : tensor<8xf32>
  %4 = ge.mod %3, %m {fmod = 1} : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = ge.shrink %4 : tensor<8xf32>
  return %5 : tensor<8xf32>
}

// Predicates (bool results) and logical ops are not steps.
// CHECK-LABEL: func.func @predicates_stay
func.func @predicates_stay(%x: tensor<8xf32>, %b: tensor<8xi1>) -> tensor<8xi1> {
  // CHECK: ge.fused_elementwise %arg0 {{.*}} steps = ["tan", "acos"]
  // CHECK: ge.is_nan
  // CHECK: ge.and
  %0 = ge.tan %x : tensor<8xf32>
  %1 = ge.acos %0 : tensor<8xf32>
  %2 = ge.is_nan %1 : (tensor<8xf32>) -> tensor<8xi1>
  %3 = ge.and %2, %b : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %3 : tensor<8xi1>
}
