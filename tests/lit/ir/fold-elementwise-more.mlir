// RUN: geflow-opt --canonicalize %s | FileCheck %s

// Size of a static shape is a constant.
// CHECK-LABEL: func @size_folds
func.func @size_folds(%x: tensor<2x3x4xf32>) -> tensor<i64> {
  // CHECK: %[[C:.*]] = ge.constant dense<24> : tensor<i64>
  // CHECK-NEXT: return %[[C]]
  %0 = ge.size %x : (tensor<2x3x4xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// CastLike keeps only its target's element type: it becomes a cast, and the
// target's producer is free to go.
// CHECK-LABEL: func @cast_like_is_a_cast
func.func @cast_like_is_a_cast(%x: tensor<4xf32>, %y: tensor<2xf16>) -> tensor<4xf16> {
  // CHECK: %[[R:.*]] = ge.cast %arg0 : (tensor<4xf32>) -> tensor<4xf16>
  // CHECK-NEXT: return %[[R]]
  %t = ge.neg %y : tensor<2xf16>
  %0 = ge.cast_like %x, %t : (tensor<4xf32>, tensor<2xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// Neg of a constant folds, integer or float.
// CHECK-LABEL: func @neg_folds
func.func @neg_folds() -> (tensor<2xi64>, tensor<f32>) {
  // CHECK-DAG: ge.constant dense<[1, -3]> : tensor<2xi64>
  // CHECK-DAG: ge.constant dense<-2.500000e+00> : tensor<f32>
  // CHECK-NOT: ge.neg
  %a = ge.constant dense<[-1, 3]> : tensor<2xi64>
  %b = ge.constant dense<2.5> : tensor<f32>
  %0 = ge.neg %a : tensor<2xi64>
  %1 = ge.neg %b : tensor<f32>
  return %0, %1 : tensor<2xi64>, tensor<f32>
}

// Integer Mod of constants folds: Python's sign (the divisor's) by default,
// C's (the dividend's) with fmod = 1; a zero divisor is left to run time.
// CHECK-LABEL: func @mod_folds
func.func @mod_folds() -> (tensor<4xi64>, tensor<4xi64>, tensor<i64>) {
  // CHECK-DAG: ge.constant dense<[1, 1, -1, -1]> : tensor<4xi64>
  // CHECK-DAG: ge.constant dense<[1, -2, 2, -1]> : tensor<4xi64>
  // CHECK: %[[Z:.*]] = ge.mod
  // CHECK: return {{.*}}, {{.*}}, %[[Z]]
  %a = ge.constant dense<[7, 7, -7, -7]> : tensor<4xi64>
  %b = ge.constant dense<[3, -3, 3, -3]> : tensor<4xi64>
  %zero = ge.constant dense<0> : tensor<i64>
  %0 = ge.mod %a, %b {fmod = 1 : i64} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = ge.mod %a, %b : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %2 = ge.mod %zero, %zero : (tensor<i64>, tensor<i64>) -> tensor<i64>
  return %0, %1, %2 : tensor<4xi64>, tensor<4xi64>, tensor<i64>
}
