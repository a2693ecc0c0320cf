// RUN: geflow-opt --ge-emit-tasks --ge-plan-memory %s | FileCheck %s

// Concat, Split and Reshape that move no data launch no kernel
// (ge.no_task, passes/emit/NoTaskOps.h) and the memory plan lays the slices
// out. Two 1 KiB producers write straight into their halves of the Concat's
// buffer; the Reshape of it is the same bytes.
// CHECK-LABEL: func.func @concat_in_place
// CHECK-SAME: ge.workspace_size = 4096 : i64
func.func @concat_in_place(%x: tensor<16x16xf32>) -> tensor<16x32xf32> {
  // CHECK: ge.relu {{.*}}ge.output_offsets = array<i64: 0>
  %a = ge.relu %x : tensor<16x16xf32>
  // CHECK: ge.sigmoid {{.*}}ge.output_offsets = array<i64: 1024>
  %b = ge.sigmoid %x : tensor<16x16xf32>
  // CHECK: ge.concat {{.*}}ge.no_task, ge.output_offsets = array<i64: 0>
  %c = ge.concat %a, %b {axis = 0 : i64} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  %s = ge.constant dense<[16, 32]> : tensor<2xi64>
  // CHECK: ge.reshape {{.*}}ge.no_task, ge.output_offsets = array<i64: 0>
  %r = ge.reshape %c, %s : (tensor<32x16xf32>, tensor<2xi64>) -> tensor<16x32xf32>
  // CHECK: ge.tanh {{.*}}ge.output_offsets
  %t = ge.tanh %r : tensor<16x32xf32>
  return %t : tensor<16x32xf32>
}

// A Split along the outermost axis: each consumer reads its part of the
// input in place, at the part's offset.
// CHECK-LABEL: func.func @split_in_place
// CHECK-SAME: ge.input_offsets = array<i64: 0>
func.func @split_in_place(%x: tensor<32x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>) {
  // CHECK: ge.split {{.*}}ge.no_task, ge.output_offsets = array<i64: 0, 1024>
  %p:2 = ge.split %x {axis = 0 : i64} : (tensor<32x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
  %a = ge.relu %p#0 : tensor<16x16xf32>
  %b = ge.relu %p#1 : tensor<16x16xf32>
  return %a, %b : tensor<16x16xf32>, tensor<16x16xf32>
}

// Copies stay copies: a Concat along an inner axis (strided parts), one whose
// input has another use, and a Reshape of a constant.
// CHECK-LABEL: func.func @copies
func.func @copies(%x: tensor<16x16xf32>) -> (tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>) {
  %a = ge.relu %x : tensor<16x16xf32>
  %b = ge.sigmoid %x : tensor<16x16xf32>
  // CHECK: ge.concat
  // CHECK-NOT: ge.no_task
  // CHECK-SAME: -> tensor<16x32xf32>
  %inner = ge.concat %a, %b {axis = 1 : i64} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x32xf32>
  // CHECK: ge.concat
  // CHECK-NOT: ge.no_task
  // CHECK-SAME: -> tensor<32x16xf32>
  %shared = ge.concat %a, %b {axis = 0 : i64} : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<32x16xf32>
  return %inner, %shared, %a : tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>
}
