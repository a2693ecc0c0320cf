// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s

// CHECK-LABEL: func @windows
func.func @windows(%n: tensor<i32>) {
  %c = ge.constant dense<10> : tensor<i64>
  // CHECK: ge.hann_window %{{.*}} : (tensor<i64>) -> tensor<10xf32>
  %0 = ge.hann_window %c : (tensor<i64>) -> tensor<10xf32>
  // CHECK: ge.hamming_window %{{.*}} {periodic = 0 : i64} : (tensor<i64>) -> tensor<10xf32>
  %1 = ge.hamming_window %c {periodic = 0} : (tensor<i64>) -> tensor<10xf32>
  // A size known only at run time; output_datatype 11 is double.
  // CHECK: ge.blackman_window %{{.*}} {output_datatype = 11 : i64} : (tensor<i32>) -> tensor<8xf64>
  %2 = ge.blackman_window %n {output_datatype = 11} : (tensor<i32>) -> tensor<8xf64>
  return
}

// CHECK-LABEL: func @transforms
func.func @transforms(%x: tensor<1x10x10x1xf32>, %s: tensor<1x128x1xf32>, %w: tensor<16xf32>) {
  // CHECK: ge.dft %{{.*}} : (tensor<1x10x10x1xf32>) -> tensor<1x10x10x2xf32>
  %0 = ge.dft %x : (tensor<1x10x10x1xf32>) -> tensor<1x10x10x2xf32>
  %len = ge.constant dense<16> : tensor<i64>
  // CHECK: ge.dft %{{.*}}, %{{.*}} {axis = 2 : i64, onesided = 1 : i64} : (tensor<1x10x10x1xf32>, tensor<i64>) -> tensor<1x10x9x2xf32>
  %1 = ge.dft %x, %len {axis = 2, onesided = 1} : (tensor<1x10x10x1xf32>, tensor<i64>) -> tensor<1x10x9x2xf32>
  %step = ge.constant dense<8> : tensor<i64>
  // CHECK: ge.stft %{{.*}}, %{{.*}} length %{{.*}} : (tensor<1x128x1xf32>, tensor<i64>, tensor<i64>) -> tensor<1x15x9x2xf32>
  %2 = ge.stft %s, %step length %len : (tensor<1x128x1xf32>, tensor<i64>, tensor<i64>) -> tensor<1x15x9x2xf32>
  // CHECK: ge.stft %{{.*}}, %{{.*}} window %{{.*}} {onesided = 0 : i64} : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x15x16x2xf32>
  %3 = ge.stft %s, %step window %w {onesided = 0} : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>) -> tensor<1x15x16x2xf32>
  return
}

// CHECK-LABEL: func @mel
func.func @mel(%lo: tensor<f32>, %hi: tensor<f32>) {
  %bins = ge.constant dense<8> : tensor<i32>
  %len = ge.constant dense<16> : tensor<i32>
  %rate = ge.constant dense<8192> : tensor<i32>
  // CHECK: ge.mel_weight_matrix {{.*}} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<9x8xf32>
  %0 = ge.mel_weight_matrix %bins, %len, %rate, %lo, %hi : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<9x8xf32>
  return
}
