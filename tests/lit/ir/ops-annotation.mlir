// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @annotations
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32> {ge.name = "x"}, %[[D:.*]]: tensor<8xf32>)
// CHECK-SAME: -> (tensor<4xf32> {ge.name = "y"})
func.func @annotations(%x: tensor<4xf32> {ge.name = "x"}, %dep: tensor<8xf32>) -> (tensor<4xf32> {ge.name = "y"}) {
  // CHECK: %[[R:.*]] = ge.npu_stream_switch "moe" priority(0) inner_parallel(true) {
  // CHECK-NEXT: %[[Y:.*]] = ge.relu %[[X]] : tensor<4xf32>
  // CHECK-NEXT: ge.yield %[[Y]] : tensor<4xf32>
  // CHECK-NEXT: } : tensor<4xf32>
  %r = ge.npu_stream_switch "moe" priority(0) inner_parallel(true) {
    %y = ge.relu %x : tensor<4xf32>
    ge.yield %y : tensor<4xf32>
  } : tensor<4xf32>
  // CHECK: %[[Z:.*]] = ge.npu_wait_tensor %[[R]], %[[D]] : tensor<4xf32>, tensor<8xf32>
  %z = ge.npu_wait_tensor %r, %dep : tensor<4xf32>, tensor<8xf32>
  // CHECK: ge.limit_core_num(8, 16) {
  // CHECK: ge.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: } : tensor<4xf32>, tensor<4xf32>
  %w:2 = ge.limit_core_num(8, 16) {
    %a = ge.sigmoid %z : tensor<4xf32>
    %b = ge.mul %a, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ge.yield %a, %b : tensor<4xf32>, tensor<4xf32>
  } : tensor<4xf32>, tensor<4xf32>
  // A region without results.
  // CHECK: ge.npu_stream_switch "side" priority(2) inner_parallel(false) {
  // CHECK-NEXT: }
  ge.npu_stream_switch "side" priority(2) inner_parallel(false) {
    ge.yield
  }
  return %w#1 : tensor<4xf32>
}

// CHECK-LABEL: func @schedule_attrs
func.func @schedule_attrs(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: ge.relu %{{.*}} {ge.aicore_num = 8 : i64, ge.engine = #ge.engine<AIV>, ge.inner_parallel = true, ge.recv_events = array<i64: 0>, ge.send_events = array<i64: 1, 2>, ge.stream = 1 : i64, ge.stream_label = "moe", ge.stream_priority = 0 : i64, ge.vectorcore_num = 16 : i64}
  %0 = ge.relu %x {ge.engine = #ge.engine<AIV>, ge.stream = 1 : i64, ge.stream_label = "moe",
                   ge.stream_priority = 0 : i64, ge.inner_parallel = true,
                   ge.aicore_num = 8 : i64, ge.vectorcore_num = 16 : i64,
                   ge.send_events = array<i64: 1, 2>, ge.recv_events = array<i64: 0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
