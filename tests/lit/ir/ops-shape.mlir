// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @constants
func.func @constants(%s: tensor<2xi64>) {
  // CHECK: ge.constant dense<[1, 2]> : tensor<2xi64>
  %0 = ge.constant dense<[1, 2]> : tensor<2xi64>
  // CHECK: ge.constant dense<1.500000e+00> : tensor<2x2xf16>
  %1 = ge.constant dense<1.5> : tensor<2x2xf16>
  // CHECK: ge.constant_of_shape %{{.*}} : (tensor<2xi64>) -> tensor<?x?xf32>
  %2 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: ge.constant_of_shape %{{.*}} {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x3xi32>
  %c = ge.constant dense<[2, 3]> : tensor<2xi64>
  %3 = ge.constant_of_shape %c {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<2x3xi32>
  return
}

// CHECK-LABEL: func @movement
func.func @movement(%x: tensor<2x3x4xf32>, %idx: tensor<5xi32>) {
  %shape = ge.constant dense<[4, 6]> : tensor<2xi64>
  // CHECK: ge.reshape {{.*}} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %0 = ge.reshape %x, %shape {allowzero = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  // CHECK: ge.cast {{.*}} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  %1 = ge.cast %x : (tensor<2x3x4xf32>) -> tensor<2x3x4xf16>
  // CHECK: ge.concat {{.*}} {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  %2 = ge.concat %x, %x {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x8xf32>
  %es = ge.constant dense<[5, 2, 3, 1]> : tensor<4xi64>
  // CHECK: ge.expand {{.*}} -> tensor<5x2x3x4xf32>
  %3 = ge.expand %x, %es : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<5x2x3x4xf32>
  // CHECK: ge.flatten {{.*}} {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %4 = ge.flatten %x {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: ge.flatten {{.*}} -> tensor<2x12xf32>
  %5 = ge.flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK: ge.gather {{.*}} {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x5x4xf32>
  %6 = ge.gather %x, %idx {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<5xi32>) -> tensor<2x5x4xf32>
  // CHECK: ge.shape {{.*}} : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %7 = ge.shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  // CHECK: ge.shape {{.*}} {end = -1 : i64, start = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  %8 = ge.shape %x {start = 1 : i64, end = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  // CHECK: ge.transpose {{.*}} {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %9 = ge.transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: ge.transpose {{.*}} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %10 = ge.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %reps = ge.constant dense<[1, 2, 3]> : tensor<3xi64>
  // CHECK: ge.tile {{.*}} -> tensor<2x6x12xf32>
  %11 = ge.tile %x, %reps : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x6x12xf32>
  return
}

// CHECK-LABEL: func @slicing
func.func @slicing(%x: tensor<2x3x4xf32>, %dyn: tensor<1xi64>) {
  %st = ge.constant dense<[1]> : tensor<1xi64>
  %en = ge.constant dense<[100]> : tensor<1xi64>
  %ax = ge.constant dense<[-1]> : tensor<1xi64>
  %sp = ge.constant dense<[2]> : tensor<1xi64>
  // CHECK: ge.slice {{.*}} axes {{.*}} steps {{.*}} -> tensor<2x3x2xf32>
  %0 = ge.slice %x, %st, %en axes %ax steps %sp : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3x2xf32>
  // CHECK: ge.slice {{.*}} -> tensor<1x3x4xf32>
  %1 = ge.slice %x, %st, %en : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x3x4xf32>
  // CHECK: ge.slice {{.*}} steps {{.*}} -> tensor<?x3x4xf32>
  %2 = ge.slice %x, %dyn, %en steps %sp : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x3x4xf32>
  %big = ge.constant dense<[-1]> : tensor<1xi64>
  %neg = ge.constant dense<[-9223372036854775807]> : tensor<1xi64>
  %m1 = ge.constant dense<[-1]> : tensor<1xi64>
  // CHECK: ge.slice {{.*}} -> tensor<2x3x4xf32>
  %3 = ge.slice %x, %big, %neg axes %ax steps %m1 : (tensor<2x3x4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x3x4xf32>
  %splits = ge.constant dense<[1, 3]> : tensor<2xi64>
  // CHECK: ge.split {{.*}} {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> (tensor<2x3x1xf32>, tensor<2x3x3xf32>)
  %4:2 = ge.split %x, %splits {axis = 2 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> (tensor<2x3x1xf32>, tensor<2x3x3xf32>)
  // CHECK: ge.split {{.*}} : (tensor<2x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  %5:2 = ge.split %x : (tensor<2x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>)
  return
}

// CHECK-LABEL: func @squeezing
func.func @squeezing(%x: tensor<1x3x1xf32>) {
  %a = ge.constant dense<[0]> : tensor<1xi64>
  // CHECK: ge.squeeze {{.*}} : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  %0 = ge.squeeze %x, %a : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<3x1xf32>
  // CHECK: ge.squeeze {{.*}} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %1 = ge.squeeze %x : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %u = ge.constant dense<[0, -1]> : tensor<2xi64>
  // CHECK: ge.unsqueeze {{.*}} -> tensor<1x1x3x1x1xf32>
  %2 = ge.unsqueeze %x, %u : (tensor<1x3x1xf32>, tensor<2xi64>) -> tensor<1x1x3x1x1xf32>
  return
}

// CHECK-LABEL: func @pad_range_resize_dropout
func.func @pad_range_resize_dropout(%x: tensor<1x2x4x4xf32>, %v: tensor<f32>) {
  %pads = ge.constant dense<[0, 0, 1, 1, 0, 0, 1, 2]> : tensor<8xi64>
  // CHECK: ge.pad {{.*}} value {{.*}} : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x6x7xf32>
  %0 = ge.pad %x, %pads value %v {mode = "constant"} : (tensor<1x2x4x4xf32>, tensor<8xi64>, tensor<f32>) -> tensor<1x2x6x7xf32>
  %p2 = ge.constant dense<[1, 1]> : tensor<2xi64>
  %ax = ge.constant dense<[3]> : tensor<1xi64>
  // CHECK: ge.pad {{.*}} axes {{.*}} {mode = "reflect"} {{.*}} -> tensor<1x2x4x6xf32>
  %1 = ge.pad %x, %p2 axes %ax {mode = "reflect"} : (tensor<1x2x4x4xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<1x2x4x6xf32>
  %start = ge.constant dense<1> : tensor<i64>
  %limit = ge.constant dense<10> : tensor<i64>
  %delta = ge.constant dense<3> : tensor<i64>
  // CHECK: ge.range {{.*}} -> tensor<3xi64>
  %2 = ge.range %start, %limit, %delta : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %scales = ge.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  // CHECK: ge.resize {{.*}} scales {{.*}} {mode = "linear"} : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x8x8xf32>
  %3 = ge.resize %x scales %scales {mode = "linear"} : (tensor<1x2x4x4xf32>, tensor<4xf32>) -> tensor<1x2x8x8xf32>
  %sizes = ge.constant dense<[1, 2, 3, 5]> : tensor<4xi64>
  // CHECK: ge.resize {{.*}} sizes {{.*}} -> tensor<1x2x3x5xf32>
  %4 = ge.resize %x sizes %sizes : (tensor<1x2x4x4xf32>, tensor<4xi64>) -> tensor<1x2x3x5xf32>
  %ratio = ge.constant dense<0.5> : tensor<f32>
  %train = ge.constant dense<false> : tensor<i1>
  // CHECK: ge.dropout {{.*}} ratio {{.*}} training_mode {{.*}} -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi1>)
  %5:2 = ge.dropout %x ratio %ratio training_mode %train : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i1>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi1>)
  return
}

// Shape operands that are not constant: only ranks and lengths are checked.
// CHECK-LABEL: func @dynamic
func.func @dynamic(%x: tensor<?x4xf32>, %s: tensor<3xi64>, %a: tensor<1xi64>) {
  // CHECK: ge.reshape {{.*}} -> tensor<?x?x?xf32>
  %0 = ge.reshape %x, %s : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  // CHECK: ge.concat {{.*}} -> tensor<?x8xf32>
  %1 = ge.concat %x, %x {axis = 1 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
  // CHECK: ge.unsqueeze {{.*}} -> tensor<?x?x?xf32>
  %2 = ge.unsqueeze %x, %a : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  // CHECK: ge.expand {{.*}} -> tensor<?x?x4xf32>
  %3 = ge.expand %x, %s : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x?x4xf32>
  // CHECK: ge.shape {{.*}} -> tensor<2xi64>
  %4 = ge.shape %x : (tensor<?x4xf32>) -> tensor<2xi64>
  return
}
