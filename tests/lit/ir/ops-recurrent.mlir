// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @lstm
func.func @lstm(%x: tensor<5x2x3xf32>, %w: tensor<2x16x3xf32>, %r: tensor<2x16x4xf32>,
                %b: tensor<2x32xf32>, %lens: tensor<2xi32>, %h0: tensor<2x2x4xf32>,
                %p: tensor<2x12xf32>) {
  // CHECK: ge.lstm %{{.*}}, %{{.*}}, %{{.*}} B %{{.*}} sequence_lens %{{.*}} initial_h %{{.*}} initial_c %{{.*}} P %{{.*}} {direction = "bidirectional", hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x32xf32>, tensor<2xi32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x12xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  %0:3 = ge.lstm %x, %w, %r B %b sequence_lens %lens initial_h %h0 initial_c %h0 P %p {direction = "bidirectional", hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x32xf32>, tensor<2xi32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x12xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  return
}

// Layout 1 (batch first), the activations and their parameters.
// CHECK-LABEL: func @gru_rnn
func.func @gru_rnn(%x: tensor<2x5x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>,
                   %wr: tensor<1x4x3xf32>, %rr: tensor<1x4x4xf32>) {
  // CHECK: ge.gru {{.*}} {activation_alpha = array<f32: 2.000000e-01>, activation_beta = array<f32: 5.000000e-01>, activations = ["HardSigmoid", "Tanh"], clip = 3.000000e+00 : f32, layout = 1 : i64, linear_before_reset = 1 : i64} {{.*}} -> (tensor<2x5x1x4xf32>, tensor<2x1x4xf32>)
  %0:2 = ge.gru %x, %w, %r {activations = ["HardSigmoid", "Tanh"], activation_alpha = array<f32: 0.2>, activation_beta = array<f32: 0.5>, clip = 3.0 : f32, layout = 1 : i64, linear_before_reset = 1 : i64} : (tensor<2x5x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>) -> (tensor<2x5x1x4xf32>, tensor<2x1x4xf32>)
  // Layout 0 over the same X: T = 2, batch = 5.
  // CHECK: ge.rnn {{.*}} {direction = "reverse"} {{.*}} -> (tensor<2x1x5x4xf32>, tensor<1x5x4xf32>)
  %1:2 = ge.rnn %x, %wr, %rr {direction = "reverse"} : (tensor<2x5x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x1x5x4xf32>, tensor<1x5x4xf32>)
  return
}

// The lowered forms: XW is [num_directions, T * batch, gates * hidden_size].
// CHECK-LABEL: func @recurrences
func.func @recurrences(%xw: tensor<2x10x16xf32>, %r: tensor<2x16x4xf32>, %xw3: tensor<1x10x12xf32>,
                       %r3: tensor<1x12x4xf32>, %xw1: tensor<1x10x4xf32>, %r1: tensor<1x4x4xf32>,
                       %h0: tensor<1x2x4xf32>) {
  // CHECK: ge.lstm_recurrence %{{.*}}, %{{.*}} {direction = "bidirectional"} {{.*}} -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  %0:3 = ge.lstm_recurrence %xw, %r {direction = "bidirectional"} : (tensor<2x10x16xf32>, tensor<2x16x4xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  // CHECK: ge.gru_recurrence %{{.*}}, %{{.*}} initial_h %{{.*}} : {{.*}} -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  %1:2 = ge.gru_recurrence %xw3, %r3 initial_h %h0 : (tensor<1x10x12xf32>, tensor<1x12x4xf32>, tensor<1x2x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  // CHECK: ge.rnn_recurrence {{.*}} -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  %2:2 = ge.rnn_recurrence %xw1, %r1 : (tensor<1x10x4xf32>, tensor<1x4x4xf32>) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return
}

// CHECK-LABEL: func @einsum
func.func @einsum(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>, %d: tensor<3x5x5xf32>,
                  %v: tensor<5xi64>) {
  // CHECK: ge.einsum {{.*}} {equation = "bij, bjk -> bik"} {{.*}} -> tensor<5x2x4xf32>
  %0 = ge.einsum %a, %b {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  // CHECK: ge.einsum {{.*}} {equation = "...ii ->...i"} {{.*}} -> tensor<3x5xf32>
  %1 = ge.einsum %d {equation = "...ii ->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  // Implicit output: a letter used twice is summed.
  // CHECK: ge.einsum {{.*}} {equation = "i,i"} {{.*}} -> tensor<i64>
  %2 = ge.einsum %v, %v {equation = "i,i"} : (tensor<5xi64>, tensor<5xi64>) -> tensor<i64>
  return
}
