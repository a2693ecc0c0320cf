// RUN: geflow-opt --ge-emit-tasks %s | FileCheck %s
// RUN: geflow-opt --ge-emit-tasks=soc=ascend310p-sim %s | FileCheck %s
// RUN: not geflow-opt --ge-emit-tasks=soc=no-such-chip %s 2>&1 | FileCheck %s --check-prefix=BADSOC

// Every compute op gets its task's block_dim and cost (FLOPs, HBM bytes) and,
// when it has none, its engine. Constants are weights, not tasks.
// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x16x32x32xf32>) -> (tensor<1x16x32x32xf32>, tensor<4xf32>) {
  // CHECK: ge.constant
  // CHECK-NOT: ge.block_dim
  // CHECK-SAME: tensor<16x16x3x3xf32>
  %w = ge.constant dense<0.5> : tensor<16x16x3x3xf32>
  // Conv reads x (64 KiB) and w (9 KiB) and writes 64 KiB.
  // CHECK: ge.conv {{.*}}ge.block_dim = {{[1-9][0-9]*}} : i64, ge.bytes = 1.402880e+05 : f64, ge.engine = #ge.engine<AIC>, ge.flops = {{.*}} : f64
  %0 = ge.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x32x32xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x32x32xf32>
  // CHECK: ge.relu {{.*}}ge.block_dim = {{[1-9][0-9]*}} : i64, ge.bytes = 1.310720e+05 : f64, ge.engine = #ge.engine<AIV>
  %1 = ge.relu %0 : tensor<1x16x32x32xf32>
  // An op-level core limit caps the split.
  // CHECK: ge.relu {{.*}}ge.block_dim = {{[12]}} : i64, {{.*}}ge.vectorcore_num = 2 : i64
  %2 = ge.relu %1 {ge.vectorcore_num = 2 : i64} : tensor<1x16x32x32xf32>
  // Four elements are one block's work.
  %s = ge.constant dense<1.0> : tensor<4xf32>
  // CHECK: ge.relu {{.*}}ge.block_dim = 1 : i64, ge.bytes = 3.200000e+01 : f64
  %3 = ge.relu %s : tensor<4xf32>
  return %2, %3 : tensor<1x16x32x32xf32>, tensor<4xf32>
}

// BADSOC: error: SoC 'no-such-chip': {{.*}}neither a preset
