// RUN: geflow-opt --ge-fuse-gelu %s | FileCheck %s

// torch's export: Div by sqrt 2, Erf, Add 1, Mul x, Mul 0.5.
// CHECK-LABEL: func.func @erf_torch
func.func @erf_torch(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  // CHECK: %[[G:.*]] = ge.gelu %arg0 : tensor<2x8xf32>
  // CHECK-NOT: ge.erf
  // CHECK: return %[[G]]
  %0 = ge.div %x, %sqrt2 : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %1 = ge.erf %0 : tensor<2x8xf32>
  %2 = ge.add %1, %one : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %3 = ge.mul %x, %2 : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = ge.mul %3, %half : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %4 : tensor<2x8xf32>
}

// Other orders: x * (1/sqrt 2), 1 + erf, (x * 0.5) * a.
// CHECK-LABEL: func.func @erf_half_first
func.func @erf_half_first(%x: tensor<8xf32>) -> tensor<8xf32> {
  %inv = ge.constant dense<0.707106769> : tensor<1xf32>
  %one = ge.constant dense<1.0> : tensor<1xf32>
  %half = ge.constant dense<0.5> : tensor<1xf32>
  // CHECK: ge.gelu %arg0 : tensor<8xf32>
  // CHECK-NOT: ge.mul
  %0 = ge.mul %inv, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = ge.erf %0 : tensor<8xf32>
  %2 = ge.add %one, %1 : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %h = ge.mul %half, %x : (tensor<1xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = ge.mul %2, %h : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %3 : tensor<8xf32>
}

// (a * 0.5) * x
// CHECK-LABEL: func.func @erf_half_of_sum
func.func @erf_half_of_sum(%x: tensor<8xf32>) -> tensor<8xf32> {
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  // CHECK: ge.gelu %arg0 : tensor<8xf32>
  %0 = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = ge.erf %0 : tensor<8xf32>
  %2 = ge.add %1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = ge.mul %2, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %4 = ge.mul %3, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %4 : tensor<8xf32>
}

// The tanh approximation, x^3 as Pow and as products.
// CHECK-LABEL: func.func @tanh_forms
func.func @tanh_forms(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %three = ge.constant dense<3.0> : tensor<f32>
  %c = ge.constant dense<0.044715> : tensor<f32>
  %k = ge.constant dense<0.797884583> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  // CHECK: ge.gelu %arg0 {approximate = "tanh"} : tensor<8xf32>
  %0 = ge.pow %x, %three : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = ge.mul %c, %0 : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = ge.add %x, %1 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %3 = ge.mul %2, %k : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %4 = ge.tanh %3 : tensor<8xf32>
  %5 = ge.add %4, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %6 = ge.mul %x, %5 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %7 = ge.mul %6, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  // CHECK: ge.gelu %arg0 {approximate = "tanh"} : tensor<8xf32>
  // CHECK-NOT: ge.tanh
  %s = ge.mul %x, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %q = ge.mul %s, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %11 = ge.mul %q, %c : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %12 = ge.add %11, %x : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %13 = ge.mul %k, %12 : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %14 = ge.tanh %13 : tensor<8xf32>
  %15 = ge.add %one, %14 : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %16 = ge.mul %15, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %17 = ge.mul %x, %16 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %7, %17 : tensor<8xf32>, tensor<8xf32>
}

// 1 + erf(...) has a second user: nothing is fused.
// CHECK-LABEL: func.func @intermediate_has_another_user
func.func @intermediate_has_another_user(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  // CHECK-NOT: ge.gelu
  %0 = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = ge.erf %0 : tensor<8xf32>
  %2 = ge.add %1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = ge.mul %x, %2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = ge.mul %3, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4, %2 : tensor<8xf32>, tensor<8xf32>
}

// Wrong constants (x / 2, and 0.25 * x * (1 + erf)) are not GELU.
// CHECK-LABEL: func.func @wrong_constants
func.func @wrong_constants(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %two = ge.constant dense<2.0> : tensor<f32>
  %sqrt2 = ge.constant dense<1.41421354> : tensor<f32>
  %one = ge.constant dense<1.0> : tensor<f32>
  %half = ge.constant dense<0.5> : tensor<f32>
  %quarter = ge.constant dense<0.25> : tensor<f32>
  // CHECK-NOT: ge.gelu
  %0 = ge.div %x, %two : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = ge.erf %0 : tensor<8xf32>
  %2 = ge.add %1, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = ge.mul %x, %2 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = ge.mul %3, %half : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %10 = ge.div %x, %sqrt2 : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %11 = ge.erf %10 : tensor<8xf32>
  %12 = ge.add %11, %one : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %13 = ge.mul %x, %12 : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %14 = ge.mul %13, %quarter : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  return %4, %14 : tensor<8xf32>, tensor<8xf32>
}
