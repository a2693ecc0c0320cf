// RUN: geflow-opt --ge-plan-memory %s -split-input-file -verify-diagnostics

// expected-error @+1 {{memory planning needs a static tensor shape}}
func.func @dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = ge.relu %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @wait_tensor_left(%x: tensor<16xf32>) -> tensor<16xf32> {
  %a = ge.relu %x : tensor<16xf32>
  // expected-error @+1 {{memory planning runs after ge-insert-events, which erases it}}
  %w = ge.npu_wait_tensor %x, %a : tensor<16xf32>, tensor<16xf32>
  %b = ge.relu %w {ge.stream = 1 : i64} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

func.func @wait_without_record(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{waits for event 3, which no earlier op records}}
  %a = ge.relu %x {ge.recv_events = array<i64: 3>, ge.stream = 1 : i64} : tensor<16xf32>
  %b = ge.relu %a {ge.send_events = array<i64: 3>} : tensor<16xf32>
  return %b : tensor<16xf32>
}

// -----

// Only views and in-place joins may skip their task (passes/emit/NoTaskOps.h).
func.func @no_task_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ge.relu' op has ge.no_task but is no Reshape, Flatten, Squeeze, Unsqueeze, Split or Concat}}
  %a = ge.relu %x {ge.no_task} : tensor<4xf32>
  return %a : tensor<4xf32>
}
