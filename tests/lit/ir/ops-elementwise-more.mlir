// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// The trigonometric and hyperbolic functions, celu, thresholded_relu, shrink,
// the float predicates and size round-trip.
// CHECK-LABEL: func @unary_math
func.func @unary_math(%x: tensor<2x3xf32>, %u: tensor<4xui8>) {
  // CHECK: ge.tan %{{.*}} : tensor<2x3xf32>
  %0 = ge.tan %x : tensor<2x3xf32>
  // CHECK: ge.asin
  %1 = ge.asin %x : tensor<2x3xf32>
  // CHECK: ge.acos
  %2 = ge.acos %x : tensor<2x3xf32>
  // CHECK: ge.atan
  %3 = ge.atan %x : tensor<2x3xf32>
  // CHECK: ge.sinh
  %4 = ge.sinh %x : tensor<2x3xf32>
  // CHECK: ge.cosh
  %5 = ge.cosh %x : tensor<2x3xf32>
  // CHECK: ge.asinh
  %6 = ge.asinh %x : tensor<2x3xf32>
  // CHECK: ge.acosh
  %7 = ge.acosh %x : tensor<2x3xf32>
  // CHECK: ge.atanh
  %8 = ge.atanh %x : tensor<2x3xf32>
  // CHECK: ge.celu %{{.*}} {alpha = 2.000000e+00 : f32} : tensor<2x3xf32>
  %9 = ge.celu %x {alpha = 2.0 : f32} : tensor<2x3xf32>
  // CHECK: ge.thresholded_relu %{{.*}} : tensor<2x3xf32>
  %10 = ge.thresholded_relu %x : tensor<2x3xf32>
  // CHECK: ge.shrink %{{.*}} {bias = 1.000000e+00 : f32, lambd = 1.500000e+00 : f32} : tensor<2x3xf32>
  %11 = ge.shrink %x {bias = 1.0 : f32, lambd = 1.5 : f32} : tensor<2x3xf32>
  // CHECK: ge.shrink %{{.*}} : tensor<4xui8>
  %12 = ge.shrink %u : tensor<4xui8>
  // CHECK: ge.sign %{{.*}} : tensor<4xui8>
  %13 = ge.sign %u : tensor<4xui8>
  // CHECK: ge.is_inf %{{.*}} {detect_negative = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %14 = ge.is_inf %x {detect_negative = 0} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: ge.is_nan %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %15 = ge.is_nan %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: ge.size %{{.*}} : (tensor<2x3xf32>) -> tensor<i64>
  %16 = ge.size %x : (tensor<2x3xf32>) -> tensor<i64>
  return
}

// Mod, the logical ops, bit_shift and the comparisons broadcast.
// CHECK-LABEL: func @binary_more
func.func @binary_more(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %f: tensor<3xf32>,
                       %p: tensor<2x3xi1>, %q: tensor<3xi1>,
                       %u: tensor<4xui16>, %s: tensor<1xui16>) {
  // CHECK: ge.mod %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = ge.mod %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: ge.mod %{{.*}}, %{{.*}} {fmod = 1 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = ge.mod %f, %f {fmod = 1} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: ge.and %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %2 = ge.and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: ge.or
  %3 = ge.or %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: ge.xor
  %4 = ge.xor %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: ge.bit_shift %{{.*}}, %{{.*}} {direction = "LEFT"} : (tensor<4xui16>, tensor<1xui16>) -> tensor<4xui16>
  %5 = ge.bit_shift %u, %s {direction = "LEFT"} : (tensor<4xui16>, tensor<1xui16>) -> tensor<4xui16>
  // CHECK: ge.greater_or_equal %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %6 = ge.greater_or_equal %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  // CHECK: ge.less_or_equal
  %7 = ge.less_or_equal %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  // CHECK: ge.cast_like %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xf32>) -> tensor<2x3xf32>
  %8 = ge.cast_like %a, %f : (tensor<2x3xi32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}
