// RUN: not geflow-opt --ge-apply-annotations %s -split-input-file 2>&1 | FileCheck %s
// RUN: not geflow-opt --ge-apply-annotations=soc=no-such-chip %s -split-input-file 2>&1 | FileCheck %s --check-prefix=BADSOC

// Core limits are checked against the SoC: ascend910b-sim has 24 cube and
// 48 vector cores. The error names the node, the GE attribute and the range.
// CHECK: error: {{.*}}node 'mm' (ge.relu): _op_aicore_num is 30 but must be 1..24 (the cube cores of ascend910b-sim)
func.func @too_many_cube_cores(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ge.relu %x {ge.aicore_num = 30 : i64} : tensor<4xf32> loc("mm")
  return %0 : tensor<4xf32>
}

// -----

// CHECK: error: {{.*}}node 'v' (ge.relu): _op_vectorcore_num is 0 but must be 1..48 (the vector cores of ascend910b-sim)
func.func @no_vector_cores(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ge.relu %x {ge.vectorcore_num = 0 : i64} : tensor<4xf32> loc("v")
  return %0 : tensor<4xf32>
}

// -----

// A scope's limit is checked like an op's own.
// CHECK: error: {{.*}}node 'inside' (ge.relu): _op_aicore_num is 25 but must be 1..24
func.func @scope_limit(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = ge.limit_core_num(25, 16) {
    %0 = ge.relu %x : tensor<4xf32> loc("inside")
    ge.yield %0 : tensor<4xf32>
  } : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Within the chip's counts all is well.
// CHECK-NOT: error
// CHECK: ge.relu %arg0 {ge.aicore_num = 24 : i64, ge.vectorcore_num = 48 : i64}
func.func @at_the_limit(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = ge.relu %x {ge.aicore_num = 24 : i64, ge.vectorcore_num = 48 : i64} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// BADSOC: error: SoC 'no-such-chip'
