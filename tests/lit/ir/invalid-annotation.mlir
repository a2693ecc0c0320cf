// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @empty_tag(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.npu_stream_switch' op stream tag must not be empty}}
  %r = ge.npu_stream_switch "" priority(0) inner_parallel(true) {
    ge.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return
}

// -----

func.func @negative_priority(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.npu_stream_switch' op priority is -1 but must be >= 0}}
  %r = ge.npu_stream_switch "moe" priority(-1) inner_parallel(true) {
    ge.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return
}

// -----

func.func @yield_types(%x: tensor<4xf32>) {
  %r = ge.npu_stream_switch "moe" priority(0) inner_parallel(true) {
    // expected-error @+1 {{'ge.yield' op yields 0 value(s) whose types do not match the 1 result(s) of 'ge.npu_stream_switch'}}
    ge.yield
  } : tensor<4xf32>
  return
}

// -----

func.func @yield_type_mismatch(%x: tensor<4xf32>, %y: tensor<8xf32>) {
  %r = ge.limit_core_num(8, 16) {
    // expected-error @+1 {{'ge.yield' op yields 1 value(s) whose types do not match the 1 result(s) of 'ge.limit_core_num'}}
    ge.yield %y : tensor<8xf32>
  } : tensor<4xf32>
  return
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.yield' op expects parent op to be one of 'ge.npu_stream_switch, ge.limit_core_num'}}
  ge.yield %x : tensor<4xf32>
}

// -----

func.func @aicore_num(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.limit_core_num' op aicore_num is 0 but must be >= 1}}
  %r = ge.limit_core_num(0, 16) {
    ge.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return
}

// -----

func.func @vectorcore_num(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.limit_core_num' op vectorcore_num is -2 but must be >= 0}}
  %r = ge.limit_core_num(8, -2) {
    ge.yield %x : tensor<4xf32>
  } : tensor<4xf32>
  return
}

// -----

func.func @wait_tensor_type(%x: tensor<4xf32>, %d: tensor<8xf32>) {
  // expected-error @+1 {{'ge.npu_wait_tensor' op failed to verify that all of {self, output} have same type}}
  %0 = "ge.npu_wait_tensor"(%x, %d) : (tensor<4xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Scheduling attributes.

func.func @engine(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.engine' must be an engine (#ge.engine<AIC>, AIV, MIX, AICPU, DVPP or HOST)}}
  %0 = ge.relu %x {ge.engine = "AIC"} : tensor<4xf32>
  return
}

// -----

// An engine is one of GE's names; anything else fails to parse.
func.func @unknown_engine(%x: tensor<4xf32>) {
  // expected-error @+2 {{expected ::mlir::ge::Engine to be one of: AIC, AIV, MIX, AICPU, DVPP, HOST}}
  // expected-error @+1 {{failed to parse Ge_EngineAttr parameter 'value'}}
  %0 = ge.relu %x {ge.engine = #ge.engine<GPU>} : tensor<4xf32>
  return
}

// -----

func.func @stream(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.stream' is -1 but must be >= 0}}
  %0 = ge.relu %x {ge.stream = -1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @stream_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.stream' must be an i64 integer}}
  %0 = ge.relu %x {ge.stream = "one"} : tensor<4xf32>
  return
}

// -----

func.func @stream_label(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.stream_label' must not be empty}}
  %0 = ge.relu %x {ge.stream_label = ""} : tensor<4xf32>
  return
}

// -----

func.func @stream_priority(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.stream_priority' is -3 but must be >= 0}}
  %0 = ge.relu %x {ge.stream_priority = -3 : i64} : tensor<4xf32>
  return
}

// -----

func.func @inner_parallel(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.inner_parallel' must be a bool}}
  %0 = ge.relu %x {ge.inner_parallel = 1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @aicore_attr(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.aicore_num' is 0 but must be >= 1}}
  %0 = ge.relu %x {ge.aicore_num = 0 : i64} : tensor<4xf32>
  return
}

// -----

func.func @vectorcore_attr(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.vectorcore_num' is -1 but must be >= 0}}
  %0 = ge.relu %x {ge.vectorcore_num = -1 : i64} : tensor<4xf32>
  return
}

// -----

func.func @send_events(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.send_events' has -1 but its values must be >= 0}}
  %0 = ge.relu %x {ge.send_events = array<i64: 0, -1>} : tensor<4xf32>
  return
}

// -----

func.func @recv_events(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op attribute 'ge.recv_events' must be an array<i64>}}
  %0 = ge.relu %x {ge.recv_events = [0, 1]} : tensor<4xf32>
  return
}

// -----

func.func @unknown_attr(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op unknown attribute 'ge.streams' (ge scheduling attributes are listed in ir/README.md)}}
  %0 = ge.relu %x {ge.streams = 1 : i64} : tensor<4xf32>
  return
}

// -----

// Discardable attributes are checked on any op, not only ge ones.
func.func @on_func(%x: tensor<4xf32>) attributes {ge.stream = -5 : i64} {
  return
}
// expected-error @-3 {{'func.func' op attribute 'ge.stream' is -5 but must be >= 0}}

// -----

// expected-error @+1 {{'func.func' op argument #0: attribute 'ge.name' must not be empty}}
func.func @arg_name(%x: tensor<4xf32> {ge.name = ""}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op result #0: attribute 'ge.name' must be a string}}
func.func @result_name(%x: tensor<4xf32>) -> (tensor<4xf32> {ge.name = 3 : i64}) {
  return %x : tensor<4xf32>
}
