// RUN: geflow-opt --ge-insert-events %s -split-input-file -verify-diagnostics

func.func @twice(%x: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{already has events (ge-insert-events runs once, on a module without them)}}
  %a = ge.relu %x {ge.send_events = array<i64: 0>} : tensor<16xf32>
  return %a : tensor<16xf32>
}

// -----

func.func @scopes(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{event insertion runs after annotation scopes are lowered}}
  %r = ge.npu_stream_switch "moe" priority(0) inner_parallel(true) {
    %y = ge.relu %x : tensor<4xf32>
    ge.yield %y : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}
