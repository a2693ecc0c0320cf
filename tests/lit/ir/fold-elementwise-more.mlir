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
