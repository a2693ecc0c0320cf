// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @gather_scatter
func.func @gather_scatter(%x: tensor<3x4xf32>, %i: tensor<2x4xi64>, %u: tensor<2x4xf32>,
                          %ni: tensor<2x1xi64>, %nu: tensor<2x4xf32>) {
  // CHECK: ge.gather_elements %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  %0 = ge.gather_elements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  // CHECK: ge.scatter_elements {{.*}} {axis = -2 : i64, reduction = "add"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %1 = ge.scatter_elements %x, %i, %u {axis = -2 : i64, reduction = "add"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  // CHECK: ge.gather_nd {{.*}} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  %2 = ge.gather_nd %x, %ni : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  // CHECK: ge.scatter_nd {{.*}} {reduction = "mul"} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %3 = ge.scatter_nd %x, %ni, %nu {reduction = "mul"} : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return
}

// CHECK-LABEL: func @batched_gather_nd
func.func @batched_gather_nd(%x: tensor<2x2x2xi32>, %i: tensor<2x1xi64>) -> tensor<2x2xi32> {
  // CHECK: ge.gather_nd {{.*}} {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %0 = ge.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<2x2x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// CHECK-LABEL: func @one_hot_unpool
func.func @one_hot_unpool(%i: tensor<2x3xi64>, %v: tensor<2xf32>, %x: tensor<1x1x2x2xf32>,
                          %xi: tensor<1x1x2x2xi64>) {
  %d = ge.constant dense<5> : tensor<i64>
  // CHECK: ge.one_hot {{.*}} {axis = 1 : i64} : (tensor<2x3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<2x5x3xf32>
  %0 = ge.one_hot %i, %d, %v {axis = 1 : i64} : (tensor<2x3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<2x5x3xf32>
  // CHECK: ge.one_hot {{.*}} : (tensor<2x3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<2x3x5xf32>
  %1 = ge.one_hot %i, %d, %v : (tensor<2x3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<2x3x5xf32>
  // CHECK: ge.max_unpool {{.*}} {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  %2 = ge.max_unpool %x, %xi {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  %s = ge.constant dense<[1, 1, 5, 5]> : tensor<4xi64>
  // CHECK: ge.max_unpool {{.*}} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<1x1x5x5xf32>
  %3 = ge.max_unpool %x, %xi, %s {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<1x1x5x5xf32>
  return
}

// CHECK-LABEL: func @sampling
func.func @sampling(%x: tensor<1x3x4x4xf32>, %g: tensor<1x6x5x2xf32>, %r: tensor<2x4xf32>,
                    %b: tensor<2xi64>) {
  // CHECK: ge.grid_sample {{.*}} {align_corners = 1 : i64, mode = "bicubic", padding_mode = "reflection"} : (tensor<1x3x4x4xf32>, tensor<1x6x5x2xf32>) -> tensor<1x3x6x5xf32>
  %0 = ge.grid_sample %x, %g {align_corners = 1 : i64, mode = "bicubic", padding_mode = "reflection"} : (tensor<1x3x4x4xf32>, tensor<1x6x5x2xf32>) -> tensor<1x3x6x5xf32>
  // CHECK: ge.roi_align {{.*}} {mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 5.000000e-01 : f32} : (tensor<1x3x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x3x2x3xf32>
  %1 = ge.roi_align %x, %r, %b {mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 0.5 : f32} : (tensor<1x3x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x3x2x3xf32>
  return
}

// CHECK-LABEL: func @layout
func.func @layout(%x: tensor<1x8x2x3xf16>, %s: tensor<3x4x5xi8>, %lens: tensor<3xi64>) {
  // CHECK: ge.depth_to_space {{.*}} {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf16>) -> tensor<1x2x4x6xf16>
  %0 = ge.depth_to_space %x {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf16>) -> tensor<1x2x4x6xf16>
  // CHECK: ge.space_to_depth {{.*}} {blocksize = 2 : i64} : (tensor<1x2x4x6xf16>) -> tensor<1x8x2x3xf16>
  %1 = ge.space_to_depth %0 {blocksize = 2 : i64} : (tensor<1x2x4x6xf16>) -> tensor<1x8x2x3xf16>
  // CHECK: ge.reverse_sequence {{.*}} {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<3x4x5xi8>, tensor<3xi64>) -> tensor<3x4x5xi8>
  %2 = ge.reverse_sequence %s, %lens {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<3x4x5xi8>, tensor<3xi64>) -> tensor<3x4x5xi8>
  return
}

// CHECK-LABEL: func @diagonals
func.func @diagonals(%x: tensor<2x3x4xi64>, %k: tensor<i64>, %e: tensor<3x4xi32>) {
  // CHECK: ge.trilu {{.*}} : (tensor<2x3x4xi64>, tensor<i64>) -> tensor<2x3x4xi64>
  %0 = ge.trilu %x, %k {upper = 0 : i64} : (tensor<2x3x4xi64>, tensor<i64>) -> tensor<2x3x4xi64>
  // CHECK: ge.trilu {{.*}} : (tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
  %1 = ge.trilu %x : (tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
  // CHECK: ge.eye_like {{.*}} {k = -1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf64>
  %2 = ge.eye_like %e {k = -1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf64>
  return
}
