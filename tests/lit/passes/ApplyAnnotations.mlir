// RUN: geflow-opt --ge-apply-annotations %s | FileCheck %s

// torchair's scopes become attributes on the ops inside them and disappear.
// CHECK-LABEL: func.func @scopes
// CHECK-NOT: ge.npu_stream_switch
// CHECK-NOT: ge.limit_core_num
func.func @scopes(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK: %[[A:.*]] = ge.add %arg0, %arg1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %a = ge.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: %[[R:.*]] = ge.relu %[[A]] {ge.inner_parallel = false, ge.stream_label = "1", ge.stream_priority = 2 : i64}
  // An inner limit_core_num scope fills in the core limits; the op's own
  // vector limit wins over it.
  // CHECK: %[[S:.*]] = ge.sigmoid %[[R]] {ge.aicore_num = 8 : i64, ge.inner_parallel = false, ge.stream_label = "1", ge.stream_priority = 2 : i64, ge.vectorcore_num = 4 : i64}
  // CHECK: %[[T:.*]] = ge.tanh %[[S]] {ge.aicore_num = 8 : i64, ge.inner_parallel = false, ge.stream_label = "1", ge.stream_priority = 2 : i64, ge.vectorcore_num = 16 : i64}
  %r:2 = ge.npu_stream_switch "1" priority(2) inner_parallel(false) {
    %0 = ge.relu %a : tensor<4xf32>
    %1:2 = ge.limit_core_num(8, 16) {
      %2 = ge.sigmoid %0 {ge.vectorcore_num = 4 : i64} : tensor<4xf32>
      %3 = ge.tanh %2 : tensor<4xf32>
      ge.yield %2, %3 : tensor<4xf32>, tensor<4xf32>
    } : tensor<4xf32>, tensor<4xf32>
    ge.yield %1#0, %1#1 : tensor<4xf32>, tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32>
  // An inner stream scope wins over the outer one.
  // CHECK: ge.neg %[[T]] {ge.inner_parallel = true, ge.stream_label = "inner", ge.stream_priority = 0 : i64}
  %n = ge.npu_stream_switch "outer" priority(1) inner_parallel(false) {
    %m = ge.npu_stream_switch "inner" priority(0) inner_parallel(true) {
      %k = ge.neg %r#1 : tensor<4xf32>
      ge.yield %k : tensor<4xf32>
    } : tensor<4xf32>
    ge.yield %m : tensor<4xf32>
  } : tensor<4xf32>
  // Wait edges stay for event insertion.
  // CHECK: ge.npu_wait_tensor
  %w = ge.npu_wait_tensor %n, %a : tensor<4xf32>, tensor<4xf32>
  return %r#0, %w : tensor<4xf32>, tensor<4xf32>
}
