// RUN: geflow-opt --ge-insert-events %s | FileCheck %s

// Two streams, a diamond: %b on stream 1 reads %a, and %d on stream 0 reads
// %b. One event each way; %c follows %a on its own stream and needs none.
// CHECK-LABEL: func.func @diamond
// CHECK-SAME: ge.events_before_reduction = 2 : i64
// CHECK-NOT: ge.send_events
func.func @diamond(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK-NEXT: ge.relu %{{.*}} {ge.send_events = array<i64: 0>}
  %a = ge.relu %x : tensor<16xf32>
  // CHECK-NEXT: ge.relu %{{.*}} {ge.recv_events = array<i64: 0>, ge.send_events = array<i64: 1>, ge.stream = 1 : i64}
  %b = ge.relu %a {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK-NEXT: ge.sigmoid %{{.*}} : tensor<16xf32>
  %c = ge.sigmoid %a : tensor<16xf32>
  // CHECK-NEXT: ge.add %{{.*}} {ge.recv_events = array<i64: 1>}
  %d = ge.add %b, %c : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}

// Three streams. %c on stream 2 reads %a (stream 0) and %b (stream 1); %b
// waited for %a already, so waiting for %b orders %a too: the wait for %a is
// removed. %e on stream 1 reads %a after %b's wait: stream order covers it.
// Four cross-stream dependencies, two events, ids 0 and 1.
// CHECK-LABEL: func.func @transitive
// CHECK-SAME: ge.events_before_reduction = 4 : i64
func.func @transitive(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  // CHECK-NEXT: ge.relu %{{.*}} {ge.send_events = array<i64: 0>}
  %a = ge.relu %x : tensor<16xf32>
  // CHECK-NEXT: ge.relu %{{.*}} {ge.recv_events = array<i64: 0>, ge.send_events = array<i64: 1>, ge.stream = 1 : i64}
  %b = ge.relu %a {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK-NEXT: ge.add %{{.*}} {ge.recv_events = array<i64: 1>, ge.stream = 2 : i64}
  %c = ge.add %a, %b {ge.stream = 2 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  // CHECK-NEXT: ge.neg %{{.*}} {ge.stream = 1 : i64}
  %e = ge.neg %a {ge.stream = 1 : i64} : tensor<16xf32>
  return %c, %e : tensor<16xf32>, tensor<16xf32>
}

// An op on stream 1 reading an argument waits for the input copies, which
// run first on stream 0: the function itself records the event. Constants
// are weights and need no event.
// CHECK-LABEL: func.func @reads_input
// CHECK-SAME: ge.events_before_reduction = 1 : i64
// CHECK-SAME: ge.send_events = array<i64: 0>
func.func @reads_input(%x: tensor<16xf32>) -> tensor<16xf32> {
  %k = ge.constant dense<2.0> : tensor<16xf32>
  // CHECK: ge.mul %{{.*}} {ge.recv_events = array<i64: 0>, ge.stream = 1 : i64}
  %a = ge.mul %x, %k {ge.stream = 1 : i64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %a : tensor<16xf32>
}

// One stream: nothing to do but count.
// CHECK-LABEL: func.func @one_stream
// CHECK-SAME: ge.events_before_reduction = 0 : i64
// CHECK-NOT: _events
func.func @one_stream(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = ge.relu %x : tensor<16xf32>
  %b = ge.relu %a : tensor<16xf32>
  return %b : tensor<16xf32>
}

// torchair's example (npu_stream_switch / npu_wait_tensor):
//   add_result = add(in1, in2)
//   on stream 1: npu_wait_tensor(in4, add_result); mm_result = mm(in3, in4)
//   mm1 = mm(in3, in4) on the main stream
//   on stream 2: npu_wait_tensor(in4, mm_result); add2 = add(in3, in4)
// The wait edges become exactly two events; the inputs each branch also
// reads are ordered by them, and npu_wait_tensor is gone.
// CHECK-LABEL: func.func @torchair
// CHECK-SAME: ge.events_before_reduction = 4 : i64
// CHECK-NOT: ge.npu_wait_tensor
func.func @torchair(%in1: tensor<64x64xf32>, %in2: tensor<64x64xf32>,
                    %in3: tensor<64x64xf32>, %in4: tensor<64x64xf32>)
    -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  // CHECK-NEXT: %[[ADD:.*]] = ge.add %arg0, %arg1 {ge.send_events = array<i64: 0>}
  %add_result = ge.add %in1, %in2 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %w1 = ge.npu_wait_tensor %in4, %add_result : tensor<64x64xf32>, tensor<64x64xf32>
  // CHECK-NEXT: %[[MM:.*]] = ge.matmul %arg2, %arg3 {ge.recv_events = array<i64: 0>, ge.send_events = array<i64: 1>, ge.stream = 1 : i64}
  %mm_result = ge.matmul %in3, %w1 {ge.stream = 1 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // CHECK-NEXT: %[[MM1:.*]] = ge.matmul %arg2, %arg3 :
  %mm1 = ge.matmul %in3, %in4 : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %w2 = ge.npu_wait_tensor %in4, %mm_result : tensor<64x64xf32>, tensor<64x64xf32>
  // CHECK-NEXT: %[[ADD2:.*]] = ge.add %arg2, %arg3 {ge.recv_events = array<i64: 1>, ge.stream = 2 : i64}
  %add2 = ge.add %in3, %w2 {ge.stream = 2 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  // CHECK-NEXT: return %[[ADD]], %[[MM]], %[[MM1]], %[[ADD2]]
  return %add_result, %mm_result, %mm1, %add2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}

// npu_wait_tensor on the same stream adds no event; one whose dependency is
// on another stream does, even though the value itself is local. %b reads
// the input after %a's wait on the same stream: no second event for it; %e
// waits for %c, which orders %a (its wait dependency) too.
// CHECK-LABEL: func.func @wait_edges
// CHECK-SAME: ge.events_before_reduction = 4 : i64
// CHECK-SAME: ge.send_events = array<i64: 0>
func.func @wait_edges(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK-NEXT: ge.relu %{{.*}} {ge.recv_events = array<i64: 0>, ge.stream = 1 : i64}
  %a = ge.relu %x {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK-NEXT: ge.neg %{{.*}} {ge.stream = 1 : i64}
  %b = ge.neg %x {ge.stream = 1 : i64} : tensor<16xf32>
  %w = ge.npu_wait_tensor %b, %a : tensor<16xf32>, tensor<16xf32>
  // CHECK-NEXT: ge.sigmoid %{{.*}} {ge.send_events = array<i64: 1>, ge.stream = 1 : i64}
  %c = ge.sigmoid %w {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK-NEXT: %[[D:.*]] = ge.exp %arg0 :
  %d = ge.exp %x : tensor<16xf32>
  %w2 = ge.npu_wait_tensor %d, %a : tensor<16xf32>, tensor<16xf32>
  // CHECK-NEXT: ge.add %[[D]], %{{.*}} {ge.recv_events = array<i64: 1>}
  %e = ge.add %w2, %c : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %e : tensor<16xf32>
}
