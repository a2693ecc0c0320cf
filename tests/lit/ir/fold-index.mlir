// RUN: geflow-opt %s --canonicalize --split-input-file | FileCheck %s

// A ScatterND of constants (Swin's window-mask computation writes slices of
// a constant this way) folds into one constant.
// CHECK-LABEL: func @scatter_nd_constants
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<{{\[}}[9, 9, 9], [0, 0, 0], [7, 8, 6]]> : tensor<3x3xi64>
// CHECK-NEXT: return %[[C]]
func.func @scatter_nd_constants() -> tensor<3x3xi64> {
  %d = ge.constant dense<0> : tensor<3x3xi64>
  %i = ge.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %u = ge.constant dense<[[7, 8, 6], [9, 9, 9]]> : tensor<2x3xi64>
  %r = ge.scatter_nd %d, %i, %u : (tensor<3x3xi64>, tensor<2x1xi64>, tensor<2x3xi64>) -> tensor<3x3xi64>
  return %r : tensor<3x3xi64>
}

// -----

// Element indices (m = rank) with a negative index.
// CHECK-LABEL: func @scatter_nd_elements
// CHECK-NEXT: %[[C:.*]] = ge.constant dense<{{\[}}[1.000000e+00, 5.000000e+00], [0.000000e+00, 0.000000e+00]]> : tensor<2x2xf32>
func.func @scatter_nd_elements() -> tensor<2x2xf32> {
  %d = ge.constant dense<[[1.0, 2.0], [0.0, 0.0]]> : tensor<2x2xf32>
  %i = ge.constant dense<[[0, -1]]> : tensor<1x2xi64>
  %u = ge.constant dense<[5.0]> : tensor<1xf32>
  %r = ge.scatter_nd %d, %i, %u : (tensor<2x2xf32>, tensor<1x2xi64>, tensor<1xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// A reducing scatter, or one with an operand computed at run time, stays.
// CHECK-LABEL: func @scatter_nd_kept
// CHECK: ge.scatter_nd {{.*}} {reduction = "add"}
// CHECK: ge.scatter_nd
func.func @scatter_nd_kept(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %d = ge.constant dense<1.0> : tensor<3xf32>
  %i = ge.constant dense<[[1]]> : tensor<1x1xi64>
  %u = ge.constant dense<[2.0]> : tensor<1xf32>
  %r = ge.scatter_nd %d, %i, %u {reduction = "add"} : (tensor<3xf32>, tensor<1x1xi64>, tensor<1xf32>) -> tensor<3xf32>
  %s = ge.scatter_nd %x, %i, %u : (tensor<3xf32>, tensor<1x1xi64>, tensor<1xf32>) -> tensor<3xf32>
  return %r, %s : tensor<3xf32>, tensor<3xf32>
}
