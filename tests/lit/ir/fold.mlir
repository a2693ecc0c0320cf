// RUN: geflow-opt %s --canonicalize --split-input-file | FileCheck %s

// The importer's shape chain Shape -> Gather -> Unsqueeze -> Concat -> Reshape
// folds into one constant under static shapes.
// CHECK-LABEL: func @shape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[2, -1]> : tensor<2xi64>
// CHECK-NEXT: %[[R:.*]] = ge.reshape %[[X]], %[[C]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
// CHECK-NEXT: return %[[R]]
func.func @shape_chain(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %s = ge.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i = ge.constant dense<0> : tensor<i64>
  %g = ge.gather %s, %i : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %a = ge.constant dense<0> : tensor<1xi64>
  %u = ge.unsqueeze %g, %a : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %m = ge.constant dense<-1> : tensor<1xi64>
  %c = ge.concat %u, %m {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = ge.reshape %x, %c : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}

// -----

// Shape -> Slice -> (Mul, Div) -> Concat with integer arithmetic.
// CHECK-LABEL: func @shape_arith
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[1, 6, 2]> : tensor<3xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_arith(%x: tensor<1x3x4x5xf32>) -> tensor<3xi64> {
  %s = ge.shape %x : (tensor<1x3x4x5xf32>) -> tensor<4xi64>
  %b = ge.constant dense<0> : tensor<1xi64>
  %e = ge.constant dense<1> : tensor<1xi64>
  %n = ge.slice %s, %b, %e : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %b2 = ge.constant dense<1> : tensor<1xi64>
  %e2 = ge.constant dense<2> : tensor<1xi64>
  %ch = ge.slice %s, %b2, %e2 : (tensor<4xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %two = ge.constant dense<2> : tensor<i64>
  %ch2 = ge.mul %ch, %two : (tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %hw = ge.shape %x {start = 2 : i64} : (tensor<1x3x4x5xf32>) -> tensor<2xi64>
  %q = ge.div %hw, %two : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %zero = ge.constant dense<0> : tensor<1xi64>
  %q0 = ge.gather %q, %zero : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c = ge.concat %n, %ch2, %q0 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %c : tensor<3xi64>
}

// -----

// CHECK-LABEL: func @shape_dynamic
// CHECK: ge.shape
func.func @shape_dynamic(%x: tensor<?x3xf32>) -> tensor<2xi64> {
  %s = ge.shape %x : (tensor<?x3xf32>) -> tensor<2xi64>
  return %s : tensor<2xi64>
}

// -----

// CHECK-LABEL: func @shape_range
// CHECK-NEXT: ge.constant dense<3> : tensor<1xi64>
func.func @shape_range(%x: tensor<2x3x4xf32>) -> tensor<1xi64> {
  %s = ge.shape %x {start = -2 : i64, end = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  return %s : tensor<1xi64>
}

// -----

// CHECK-LABEL: func @gather_2d
// CHECK-NEXT: ge.constant dense<{{\[\[}}3, 1], [6, 4]]> : tensor<2x2xi32>
func.func @gather_2d() -> tensor<2x2xi32> {
  %d = ge.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %i = ge.constant dense<[-1, 0]> : tensor<2xi64>
  %g = ge.gather %d, %i {axis = 1 : i64} : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<2x2xi32>
  return %g : tensor<2x2xi32>
}

// -----

// CHECK-LABEL: func @concat_2d
// CHECK-NEXT: ge.constant dense<{{\[\[}}1, 2, 5], [3, 4, 6]]> : tensor<2x3xi64>
func.func @concat_2d() -> tensor<2x3xi64> {
  %a = ge.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %b = ge.constant dense<[[5], [6]]> : tensor<2x1xi64>
  %c = ge.concat %a, %b {axis = -1 : i64} : (tensor<2x2xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  return %c : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func @slice_negative_step
// CHECK-NEXT: ge.constant dense<[5, 3]> : tensor<2xi64>
func.func @slice_negative_step() -> tensor<2xi64> {
  %d = ge.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi64>
  %s = ge.constant dense<-1> : tensor<1xi64>
  %e = ge.constant dense<-9223372036854775807> : tensor<1xi64>
  %st = ge.constant dense<-2> : tensor<1xi64>
  %ax = ge.constant dense<0> : tensor<1xi64>
  %r = ge.slice %d, %s, %e axes %ax steps %st : (tensor<5xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %b = ge.constant dense<0> : tensor<1xi64>
  %two = ge.constant dense<2> : tensor<1xi64>
  %r2 = ge.slice %r, %b, %two : (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %r2 : tensor<2xi64>
}

// -----

// CHECK-LABEL: func @reshape_like
// CHECK-NEXT: %[[A:.*]] = ge.constant dense<{{\[\[}}1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
// CHECK-NEXT: %[[B:.*]] = ge.constant dense<{{\[\[\[}}1, 2, 3, 4, 5, 6]]]> : tensor<1x1x6xi32>
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
func.func @reshape_like() -> (tensor<2x3xi32>, tensor<1x1x6xi32>, tensor<6xi32>) {
  %d = ge.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %s = ge.constant dense<[2, 3]> : tensor<2xi64>
  %r = ge.reshape %d, %s : (tensor<6xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  %a = ge.constant dense<[0, 1]> : tensor<2xi64>
  %u = ge.unsqueeze %d, %a : (tensor<6xi32>, tensor<2xi64>) -> tensor<1x1x6xi32>
  %q = ge.squeeze %u : (tensor<1x1x6xi32>) -> tensor<6xi32>
  return %r, %u, %q : tensor<2x3xi32>, tensor<1x1x6xi32>, tensor<6xi32>
}

// -----

// Same-type reshape, identity, cast, expand and concat of one input vanish.
// CHECK-LABEL: func @no_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @no_ops(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %s = ge.constant dense<[2, 3]> : tensor<2xi64>
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %1 = ge.identity %0 : tensor<2x3xf32>
  %2 = ge.cast %1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ge.expand %2, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %4 = ge.concat %3 {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @casts
// CHECK-DAG: ge.constant dense<[-1, 300]> : tensor<2xi32>
// CHECK-DAG: ge.constant dense<[-1.000000e+00, 3.000000e+02]> : tensor<2xf32>
// CHECK-DAG: ge.constant dense<[-2, 2]> : tensor<2xi64>
// CHECK-DAG: ge.constant dense<[true, false]> : tensor<2xi1>
// CHECK-DAG: ge.constant dense<[255, 44]> : tensor<2xui8>
func.func @casts() -> (tensor<2xi32>, tensor<2xf32>, tensor<2xi64>, tensor<2xi1>, tensor<2xui8>) {
  %i = ge.constant dense<[-1, 300]> : tensor<2xi64>
  %0 = ge.cast %i : (tensor<2xi64>) -> tensor<2xi32>
  %1 = ge.cast %i : (tensor<2xi64>) -> tensor<2xf32>
  %f = ge.constant dense<[-2.7, 2.7]> : tensor<2xf32>
  %2 = ge.cast %f : (tensor<2xf32>) -> tensor<2xi64>
  %z = ge.constant dense<[3, 0]> : tensor<2xi64>
  %3 = ge.cast %z : (tensor<2xi64>) -> tensor<2xi1>
  %4 = ge.cast %i : (tensor<2xi64>) -> tensor<2xui8>
  return %0, %1, %2, %3, %4 : tensor<2xi32>, tensor<2xf32>, tensor<2xi64>, tensor<2xi1>, tensor<2xui8>
}

// -----

// NaN has no integer value: the cast stays for run time.
// CHECK-LABEL: func @cast_nan
// CHECK: ge.cast
func.func @cast_nan() -> tensor<1xi32> {
  %f = ge.constant dense<0x7FC00000> : tensor<1xf32>
  %0 = ge.cast %f : (tensor<1xf32>) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

// CHECK-LABEL: func @expand
// CHECK-NEXT: ge.constant dense<{{\[\[}}1, 2], [1, 2], [1, 2]]> : tensor<3x2xi64>
func.func @expand() -> tensor<3x2xi64> {
  %d = ge.constant dense<[1, 2]> : tensor<2xi64>
  %s = ge.constant dense<[3, 1]> : tensor<2xi64>
  %e = ge.expand %d, %s : (tensor<2xi64>, tensor<2xi64>) -> tensor<3x2xi64>
  return %e : tensor<3x2xi64>
}

// -----

// CHECK-LABEL: func @int_arith
// CHECK-DAG: ge.constant dense<{{\[\[}}11, 22], [13, 24]]> : tensor<2x2xi64>
// CHECK-DAG: ge.constant dense<[-3, 1]> : tensor<2xi32>
// CHECK-DAG: ge.constant dense<[4, -3]> : tensor<2xi32>
// CHECK-DAG: ge.constant dense<[2, 8]> : tensor<2xi32>
func.func @int_arith() -> (tensor<2x2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = ge.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>
  %b = ge.constant dense<[10, 20]> : tensor<2xi64>
  %0 = ge.add %a, %b : (tensor<2x2xi64>, tensor<2xi64>) -> tensor<2x2xi64>
  %x = ge.constant dense<[-7, 3]> : tensor<2xi32>
  %two = ge.constant dense<2> : tensor<i32>
  // Division truncates toward zero.
  %1 = ge.div %x, %two : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  %y = ge.constant dense<[1, -2]> : tensor<2xi32>
  %2 = ge.sub %y, %1 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %3 = ge.mul %y, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %4 = ge.add %3, %3 : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0, %2, %1, %4 : tensor<2x2xi64>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func @unsigned_div
// CHECK-NEXT: ge.constant dense<127> : tensor<1xui8>
func.func @unsigned_div() -> tensor<1xui8> {
  %a = ge.constant dense<254> : tensor<1xui8>
  %b = ge.constant dense<2> : tensor<1xui8>
  %0 = ge.div %a, %b : (tensor<1xui8>, tensor<1xui8>) -> tensor<1xui8>
  return %0 : tensor<1xui8>
}

// -----

// Division by zero is left to run time.
// CHECK-LABEL: func @div_by_zero
// CHECK: ge.div
func.func @div_by_zero() -> tensor<1xi64> {
  %a = ge.constant dense<1> : tensor<1xi64>
  %b = ge.constant dense<0> : tensor<1xi64>
  %0 = ge.div %a, %b : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  return %0 : tensor<1xi64>
}

// -----

// CHECK-LABEL: func @float_arith
// CHECK-NEXT: ge.constant dense<[0.000000e+00, 5.000000e+00]> : tensor<2xf16>
func.func @float_arith() -> tensor<2xf16> {
  %a = ge.constant dense<[1.0, 3.0]> : tensor<2xf16>
  %b = ge.constant dense<[0.5, 2.0]> : tensor<2xf16>
  %0 = ge.mul %a, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %1 = ge.div %0, %a : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %2 = ge.add %1, %1 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %3 = ge.sub %2, %b : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %4 = ge.add %3, %0 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %5 = ge.sub %4, %0 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %6 = ge.add %5, %0 : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %7 = ge.sub %6, %a : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  return %7 : tensor<2xf16>
}

// -----

// x + 0 and x * 1 on integers fold to x.
// CHECK-LABEL: func @int_identities
// CHECK-SAME: (%[[X:.*]]: tensor<3xi64>)
// CHECK-NEXT: return %[[X]]
func.func @int_identities(%x: tensor<3xi64>) -> tensor<3xi64> {
  %z = ge.constant dense<0> : tensor<i64>
  %o = ge.constant dense<1> : tensor<3xi64>
  %0 = ge.add %x, %z : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %1 = ge.mul %0, %o : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %2 = ge.div %1, %o : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %3 = ge.sub %2, %z : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  return %3 : tensor<3xi64>
}

// -----

// CHECK-LABEL: func @equal_where
// CHECK-NEXT: ge.constant dense<[7, -1, 9]> : tensor<3xi64>
func.func @equal_where() -> tensor<3xi64> {
  %s = ge.constant dense<[0, 5, 0]> : tensor<3xi64>
  %z = ge.constant dense<0> : tensor<i64>
  %m = ge.equal %s, %z : (tensor<3xi64>, tensor<i64>) -> tensor<3xi1>
  %x = ge.constant dense<[7, 8, 9]> : tensor<3xi64>
  %y = ge.constant dense<-1> : tensor<i64>
  %w = ge.where %m, %x, %y : (tensor<3xi1>, tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  return %w : tensor<3xi64>
}

// -----

// CHECK-LABEL: func @where_splat
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[Y:.*]]: tensor<3xf32>)
// CHECK-NEXT: return %[[Y]]
func.func @where_splat(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %c = ge.constant dense<false> : tensor<3xi1>
  %w = ge.where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %w : tensor<3xf32>
}

// -----

// CHECK-LABEL: func @constant_of_shape
// CHECK-DAG: ge.constant dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-DAG: ge.constant dense<7> : tensor<2x3xi64>
func.func @constant_of_shape() -> (tensor<2x3xf32>, tensor<2x3xi64>) {
  %s = ge.constant dense<[2, 3]> : tensor<2xi64>
  %0 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<2x3xf32>
  %1 = ge.constant_of_shape %s {value = dense<7> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<2x3xi64>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func @range
// CHECK-DAG: ge.constant dense<[10, 7, 4]> : tensor<3xi32>
// CHECK-DAG: ge.constant dense<[0.000000e+00, 2.500000e-01, 5.000000e-01, 7.500000e-01]> : tensor<4xf32>
func.func @range() -> (tensor<3xi32>, tensor<4xf32>) {
  %s = ge.constant dense<10> : tensor<i32>
  %l = ge.constant dense<2> : tensor<i32>
  %d = ge.constant dense<-3> : tensor<i32>
  %0 = ge.range %s, %l, %d : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
  %fs = ge.constant dense<0.0> : tensor<f32>
  %fl = ge.constant dense<1.0> : tensor<f32>
  %fd = ge.constant dense<0.25> : tensor<f32>
  %1 = ge.range %fs, %fl, %fd : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return %0, %1 : tensor<3xi32>, tensor<4xf32>
}

// -----

// reshape(reshape(x)) -> reshape(x) unless the outer shape copies dims (0).
// CHECK-LABEL: func @reshape_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-DAG: %[[S1:.*]] = ge.constant dense<[-1, 4]> : tensor<2xi64>
// CHECK-DAG: %[[S2:.*]] = ge.constant dense<[0, 2, -1]> : tensor<3xi64>
// CHECK-DAG: %[[A:.*]] = ge.reshape %[[X]], %[[S1]] : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
// CHECK-DAG: %[[B:.*]] = ge.reshape %[[X]], %{{.*}} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<24xf32>
// CHECK-DAG: %[[C:.*]] = ge.reshape %[[A]], %[[S2]] : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
func.func @reshape_chain(%x: tensor<2x3x4xf32>) -> (tensor<24xf32>, tensor<6x2x2xf32>) {
  %s1 = ge.constant dense<[-1, 4]> : tensor<2xi64>
  %a = ge.reshape %x, %s1 : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %flat = ge.constant dense<[-1]> : tensor<1xi64>
  %b = ge.reshape %a, %flat : (tensor<6x4xf32>, tensor<1xi64>) -> tensor<24xf32>
  %s2 = ge.constant dense<[0, 2, -1]> : tensor<3xi64>
  %c = ge.reshape %a, %s2 : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<6x2x2xf32>
  return %b, %c : tensor<24xf32>, tensor<6x2x2xf32>
}

// -----

// A small constant transposes at compile time, with or without a perm.
// CHECK-LABEL: func @transpose_folds
func.func @transpose_folds() -> (tensor<3x2xi64>, tensor<3x2x1xi64>) {
  // CHECK-DAG: ge.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi64>
  // CHECK-DAG: ge.constant dense<{{\[}}{{\[}}[1], [4]], {{\[}}[2], [5]], {{\[}}[3], [6]]]> : tensor<3x2x1xi64>
  // CHECK-NOT: ge.transpose
  %c = ge.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>
  %0 = ge.transpose %c : (tensor<2x3xi64>) -> tensor<3x2xi64>
  %u = ge.constant dense<[[[1, 2, 3]], [[4, 5, 6]]]> : tensor<2x1x3xi64>
  %1 = ge.transpose %u {perm = array<i64: 2, 0, 1>} : (tensor<2x1x3xi64>) -> tensor<3x2x1xi64>
  return %0, %1 : tensor<3x2xi64>, tensor<3x2x1xi64>
}
