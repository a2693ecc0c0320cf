// RUN: geflow-opt --ge-fold-constants --split-input-file %s | FileCheck %s
// RUN: geflow-opt --ge-fold-constants=max-elements=4 --split-input-file %s | FileCheck %s --check-prefix=CAP

// A constant subgraph (transpose, then matmul, then relu on constants only)
// is computed by the kernels and becomes one constant; the capped run keeps
// the 6-element transpose as an op.
// CHECK-LABEL: func.func @subgraph
// CAP-LABEL: func.func @subgraph
func.func @subgraph(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %a = ge.constant dense<[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf32>
  %i = ge.constant dense<[[1.0, 0.0], [0.0, -1.0]]> : tensor<2x2xf32>
  // CHECK: %[[C:.*]] = ge.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
  // CHECK-NEXT: %[[Y:.*]] = ge.add %arg0, %[[C]]
  // CHECK-NEXT: return %[[Y]]
  // CAP: ge.transpose
  %t = ge.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %m = ge.matmul %t, %i : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %r = ge.relu %m : tensor<3x2xf32>
  %y = ge.add %x, %r : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}

// -----

// Integer shape arithmetic and comparisons fold too (bool results).
// CHECK-LABEL: func.func @shape_math
func.func @shape_math() -> (tensor<3xi64>, tensor<3xi1>) {
  %a = ge.constant dense<[2, 3, 4]> : tensor<3xi64>
  %b = ge.constant dense<[4, 3, 2]> : tensor<3xi64>
  // CHECK-DAG: ge.constant dense<[4, 6, 12]> : tensor<3xi64>
  // CHECK-DAG: ge.constant dense<[false, false, true]> : tensor<3xi1>
  // CHECK-NOT: ge.max
  // CHECK-NOT: ge.greater
  %s = ge.max %a, %b, %a : (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %m = ge.mul %s, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %p = ge.sub %m, %s : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %g = ge.greater %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  return %p, %g : tensor<3xi64>, tensor<3xi1>
}

// -----

// Ops that compute nothing go: identity, inference dropout (its mask is all
// true), and same-type reshape, transpose with the identity perm, cast,
// expand, flatten, tile, a whole-tensor slice and a zero pad.
// CHECK-LABEL: func.func @no_ops
func.func @no_ops(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %shape = ge.constant dense<[2, 3]> : tensor<2xi64>
  %ones = ge.constant dense<1> : tensor<2xi64>
  %zeros = ge.constant dense<0> : tensor<4xi64>
  %starts = ge.constant dense<0> : tensor<2xi64>
  %ends = ge.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK-DAG: %[[MASK:.*]] = ge.constant dense<true> : tensor<2x3xi1>
  // CHECK-NOT: ge.identity
  // CHECK-NOT: ge.dropout
  // CHECK-NOT: ge.reshape
  // CHECK-NOT: ge.transpose
  // CHECK-NOT: ge.cast
  // CHECK-NOT: ge.expand
  // CHECK-NOT: ge.flatten
  // CHECK-NOT: ge.tile
  // CHECK-NOT: ge.slice
  // CHECK-NOT: ge.pad
  // CHECK: return %arg0, %[[MASK]]
  %0 = ge.identity %x : tensor<2x3xf32>
  %1, %mask = ge.dropout %0 : (tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  %2 = ge.reshape %1, %shape : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %3 = ge.transpose %2 {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ge.cast %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = ge.expand %4, %shape : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %6 = ge.flatten %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = ge.tile %6, %ones : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %8 = ge.slice %7, %starts, %ends : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  %9 = ge.pad %8, %zeros : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<2x3xf32>
  return %9, %mask : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// Training dropout with a ratio of 0 copies too (torchvision's Swin exports
// its attention dropouts so): it goes, its mask all true.
// CHECK-LABEL: func.func @training_dropout_ratio_zero
func.func @training_dropout_ratio_zero(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xi1>) {
  %ratio = ge.constant dense<0.0> : tensor<f32>
  %train = ge.constant dense<true> : tensor<i1>
  // CHECK-DAG: %[[MASK:.*]] = ge.constant dense<true> : tensor<2x3xi1>
  // CHECK-NOT: ge.dropout
  // CHECK: return %arg0, %[[MASK]]
  %0, %mask = ge.dropout %x ratio %ratio training_mode %train : (tensor<2x3xf32>, tensor<f32>, tensor<i1>) -> (tensor<2x3xf32>, tensor<2x3xi1>)
  return %0, %mask : tensor<2x3xf32>, tensor<2x3xi1>
}

// -----

// A transpose that moves data, a slice with a negative step (reversal) and a
// pad whose begin and end cancel are not no-ops.
// CHECK-LABEL: func.func @not_no_ops
func.func @not_no_ops(%x: tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>) {
  %starts = ge.constant dense<[-1]> : tensor<1xi64>
  %ends = ge.constant dense<[-10]> : tensor<1xi64>
  %axes = ge.constant dense<[0]> : tensor<1xi64>
  %steps = ge.constant dense<[-1]> : tensor<1xi64>
  %pads = ge.constant dense<[1, 0, -1, 0]> : tensor<4xi64>
  // CHECK: ge.transpose
  // CHECK: ge.slice
  // CHECK: ge.pad
  %0 = ge.transpose %x {perm = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = ge.slice %x, %starts, %ends axes %axes steps %steps : (tensor<3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x3xf32>
  %2 = ge.pad %x, %pads : (tensor<3x3xf32>, tensor<4xi64>) -> tensor<3x3xf32>
  return %0, %1, %2 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>
}

// -----

// A large imported weight is a dense_resource (its blob points at the model
// file); the kernels read it like a dense constant.
// CHECK-LABEL: func.func @resource_operand
func.func @resource_operand() -> tensor<3x2xf32> {
  %a = ge.constant dense_resource<weight> : tensor<2x3xf32>
  // CHECK: ge.constant dense<{{\[\[}}1.000000e+00, 4.000000e+00], [-2.000000e+00, 5.000000e+00], [3.000000e+00, -6.000000e+00]]> : tensor<3x2xf32>
  // CHECK-NOT: ge.transpose
  %t = ge.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weight: "0x040000000000803F000000C000004040000080400000A0400000C0C0"
    }
  }
#-}
