// RUN: geflow-opt --ge-lower-recurrent %s | FileCheck %s

// X * W^T for all steps and both directions is one matmul; the recurrence
// keeps every other operand, the results and the attributes.
// CHECK-LABEL: func.func @lstm
func.func @lstm(%x: tensor<5x2x3xf32>, %w: tensor<2x16x3xf32>, %r: tensor<2x16x4xf32>,
                %b: tensor<2x32xf32>, %h0: tensor<2x2x4xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>) {
  // CHECK: %[[SHAPE:.*]] = ge.constant dense<[10, 3]> : tensor<2xi64>
  // CHECK: %[[ROWS:.*]] = ge.reshape %arg0, %[[SHAPE]] {{.*}} -> tensor<10x3xf32>
  // CHECK: %[[WT:.*]] = ge.transpose %arg1 {perm = array<i64: 0, 2, 1>} {{.*}} -> tensor<2x3x16xf32>
  // CHECK: %[[XW:.*]] = ge.matmul %[[ROWS]], %[[WT]] : (tensor<10x3xf32>, tensor<2x3x16xf32>) -> tensor<2x10x16xf32>
  // CHECK: %[[Y:.*]], %{{.*}}, %[[YC:.*]] = ge.lstm_recurrence %[[XW]], %arg2 B %arg3 initial_h %arg4 initial_c %arg4 {direction = "bidirectional", hidden_size = 4 : i64} : (tensor<2x10x16xf32>, tensor<2x16x4xf32>, tensor<2x32xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  // CHECK-NOT: ge.lstm
  // CHECK: return %[[Y]], %[[YC]]
  %0:3 = ge.lstm %x, %w, %r B %b initial_h %h0 initial_c %h0 {direction = "bidirectional", hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x32xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>) -> (tensor<5x2x2x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  return %0#0, %0#2 : tensor<5x2x2x4xf32>, tensor<2x2x4xf32>
}

// Batch first: X's rows are (b, t), which the recurrence reads by its layout.
// CHECK-LABEL: func.func @gru_rnn
func.func @gru_rnn(%x: tensor<2x5x3xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>,
                   %lens: tensor<2xi32>, %wr: tensor<1x4x3xf32>, %rr: tensor<1x4x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x5x1x4xf32>) {
  // CHECK: ge.matmul {{.*}} : (tensor<10x3xf32>, tensor<1x3x12xf32>) -> tensor<1x10x12xf32>
  // CHECK: ge.gru_recurrence %{{.*}}, %arg2 sequence_lens %arg3 {layout = 1 : i64, linear_before_reset = 1 : i64}
  %0:2 = ge.gru %x, %w, %r sequence_lens %lens {layout = 1 : i64, linear_before_reset = 1 : i64} : (tensor<2x5x3xf32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<2xi32>) -> (tensor<2x5x1x4xf32>, tensor<2x1x4xf32>)
  // CHECK: ge.matmul {{.*}} : (tensor<10x3xf32>, tensor<1x3x4xf32>) -> tensor<1x10x4xf32>
  // CHECK: ge.rnn_recurrence %{{.*}}, %arg5 {activations = ["Relu"], layout = 1 : i64}
  %1:2 = ge.rnn %x, %wr, %rr {activations = ["Relu"], layout = 1 : i64} : (tensor<2x5x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>) -> (tensor<2x5x1x4xf32>, tensor<2x1x4xf32>)
  return %0#1, %1#0 : tensor<2x1x4xf32>, tensor<2x5x1x4xf32>
}
