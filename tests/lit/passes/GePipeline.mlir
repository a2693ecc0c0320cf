// RUN: geflow-opt --ge-pipeline %s | FileCheck %s
// RUN: geflow-opt --ge-pipeline='reuse=false' %s | FileCheck %s --check-prefix=NOREUSE

// The pipeline of passes/Pipeline.cpp: fold, fuse, assign engines, plan
// memory, annotate tasks. The dead relu is folded away before planning and
// the live one fuses into the conv, so two buffers of 64 KiB remain besides
// the input.
// CHECK-LABEL: func.func @main
// CHECK-SAME: ge.input_offsets = array<i64: 0>
// CHECK-SAME: ge.workspace_size = 131072 : i64, ge.workspace_size_no_reuse = 196608 : i64
// NOREUSE: ge.workspace_size = 196608 : i64, ge.workspace_size_no_reuse = 196608 : i64
func.func @main(%x: tensor<1x16x32x32xf32>) -> tensor<1x16x32x32xf32> {
  %w = ge.constant dense<0.5> : tensor<16x16x3x3xf32>
  // CHECK: ge.fused_conv {{.*}}activation = "relu", {{.*}}ge.block_dim = {{[0-9]+}} : i64, {{.*}}ge.engine = #ge.engine<AIC>, {{.*}}ge.output_offsets = array<i64: 65536>
  // CHECK-NOT: ge.relu
  %0 = ge.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x32x32xf32>
  %1 = ge.relu %0 : tensor<1x16x32x32xf32>
  // CHECK: ge.sigmoid {{.*}}ge.engine = #ge.engine<AIV>, {{.*}}ge.output_offsets = array<i64: 0>
  %2 = ge.sigmoid %1 : tensor<1x16x32x32xf32>
  // CHECK-NOT: ge.relu
  %dead = ge.relu %2 : tensor<1x16x32x32xf32>
  // CHECK: return
  return %2 : tensor<1x16x32x32xf32>
}
