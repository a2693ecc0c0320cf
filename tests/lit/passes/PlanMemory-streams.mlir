// RUN: geflow-opt --ge-insert-events --ge-plan-memory %s | FileCheck %s
// RUN: geflow-opt --ge-plan-memory %s | FileCheck %s --check-prefix=NOEVENTS

// A chain that crosses to stream 1 and back. The events ge-insert-events
// places order every use of the input before %b is written, and every use of
// %a before %c: memory passes across streams and the chain needs two slots,
// as on one stream. Without events nothing orders the two streams: only %d
// takes the input's bytes (both of their uses are on stream 0), and the
// chain needs four slots.
// CHECK-LABEL: func.func @events_order_reuse
// CHECK-SAME: ge.input_offsets = array<i64: 0>
// CHECK-SAME: ge.workspace_size = 128 : i64
// NOEVENTS-LABEL: func.func @events_order_reuse
// NOEVENTS-SAME: ge.workspace_size = 256 : i64
func.func @events_order_reuse(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 64>, ge.send_events = array<i64: 0>}
  %a = ge.relu %x : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 0>, ge.recv_events = array<i64: 0>, ge.stream = 1 : i64}
  %b = ge.relu %a {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 64>, ge.send_events = array<i64: 1>, ge.stream = 1 : i64}
  %c = ge.relu %b {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 0>, ge.recv_events = array<i64: 1>}
  %d = ge.relu %c : tensor<16xf32>
  return %d : tensor<16xf32>
}

// A buffer read on two streams is free only once every reader is ordered
// before the new writer: %b2 on stream 1 reads %a after the event %c and %d
// (stream 0) waited for, so nothing on stream 0 may take %a's bytes, while
// %d takes those of %b (stream 1), whose reader %c precedes it.
// CHECK-LABEL: func.func @every_reader
// CHECK-SAME: ge.workspace_size = 256 : i64
func.func @every_reader(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: [[A:[0-9]+]]>
  %a = ge.relu %x : tensor<16xf32>
  %b = ge.neg %a {ge.stream = 1 : i64} : tensor<16xf32>
  %c = ge.relu %b : tensor<16xf32>
  %b2 = ge.sigmoid %a {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK: ge.neg %{{.*}} {ge.output_offsets = array<i64: [[B:[0-9]+]]>
  // CHECK-NOT: ge.output_offsets = array<i64: [[A]]>
  // CHECK: ge.tanh %{{.*}} {ge.output_offsets = array<i64: [[B]]>
  %d = ge.tanh %c : tensor<16xf32>
  return %d, %b2 : tensor<16xf32>, tensor<16xf32>
}
