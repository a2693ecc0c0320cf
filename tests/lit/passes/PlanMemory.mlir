// RUN: geflow-opt --ge-plan-memory %s | FileCheck %s
// RUN: geflow-opt --ge-plan-memory=reuse=false %s | FileCheck %s --check-prefix=NOREUSE

// A chain x -> a -> b -> c -> d of 1 KiB tensors. With reuse, b takes the
// input's memory once a has read it, c takes a's, and so on: two slots.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: ge.input_offsets = array<i64: 0>
// CHECK-SAME: ge.workspace_size = 2048 : i64
// CHECK-SAME: ge.workspace_size_no_reuse = 5120 : i64
// NOREUSE-LABEL: func.func @chain
// NOREUSE-SAME: ge.workspace_size = 5120 : i64
func.func @chain(%x: tensor<256xf32>) -> tensor<256xf32> {
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 1024>}
  // NOREUSE: ge.relu %{{.*}} {ge.output_offsets = array<i64: 1024>}
  %a = ge.relu %x : tensor<256xf32>
  // CHECK: ge.sigmoid %{{.*}} {ge.output_offsets = array<i64: 0>}
  // NOREUSE: ge.sigmoid %{{.*}} {ge.output_offsets = array<i64: 2048>}
  %b = ge.sigmoid %a : tensor<256xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 1024>}
  %c = ge.relu %b : tensor<256xf32>
  // CHECK: ge.tanh %{{.*}} {ge.output_offsets = array<i64: 0>}
  %d = ge.tanh %c : tensor<256xf32>
  return %d : tensor<256xf32>
}

// A graph input read by the last op stays live until then; results live to
// the end; an op never writes over its own inputs; constants take no
// workspace; sizes are rounded up to 64 bytes.
// CHECK-LABEL: func.func @long_lived
// CHECK-SAME: ge.input_offsets = array<i64: 0>
// CHECK-SAME: ge.workspace_size = 192 : i64
func.func @long_lived(%x: tensor<10xf32>) -> (tensor<10xf32>, tensor<10xf32>) {
  %k = ge.constant dense<2.0> : tensor<10xf32>
  // CHECK: ge.constant
  // CHECK-NOT: ge.output_offsets
  // CHECK: ge.mul %{{.*}} {ge.output_offsets = array<i64: 64>}
  %a = ge.mul %x, %k : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
  // CHECK: ge.neg %{{.*}} {ge.output_offsets = array<i64: 128>}
  %b = ge.neg %a : tensor<10xf32>
  // CHECK: ge.add %{{.*}} {ge.output_offsets = array<i64: 64>}
  %c = ge.add %b, %x : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
  return %c, %b : tensor<10xf32>, tensor<10xf32>
}

// Every result of a multi-result op gets a slot, used or not.
// CHECK-LABEL: func.func @two_results
func.func @two_results(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // CHECK: ge.max_pool {{.*}}ge.output_offsets = array<i64: {{[0-9]+}}, {{[0-9]+}}>
  %y:2 = ge.max_pool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %y#0 : tensor<1x1x2x2xf32>
}

// Two streams and no events yet: memory passes on only along one stream.
// %a (stream 0) is read on stream 1, so nothing takes its memory, and nothing
// on stream 1 takes the input's; %b is read only on its own stream 1, so %d
// (stream 1) takes its slot once %c has read it.
// CHECK-LABEL: func.func @two_streams
// CHECK-SAME: ge.workspace_size = 256 : i64
func.func @two_streams(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 64>}
  %a = ge.relu %x : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 128>, ge.stream = 1 : i64}
  %b = ge.relu %a {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 192>, ge.stream = 1 : i64}
  %c = ge.relu %b {ge.stream = 1 : i64} : tensor<16xf32>
  // CHECK: ge.relu %{{.*}} {ge.output_offsets = array<i64: 128>, ge.stream = 1 : i64}
  %d = ge.relu %c {ge.stream = 1 : i64} : tensor<16xf32>
  return %d : tensor<16xf32>
}
