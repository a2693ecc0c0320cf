// RUN: geflow-opt --ge-assign-engines %s | FileCheck %s

// Cube work (conv, gemm, matmul) on AIC, the rest on AIV; weights get no engine.
// CHECK-LABEL: func.func @cube_and_vector
func.func @cube_and_vector(%x: tensor<1x3x8x8xf32>, %a: tensor<4x8xf32>, %m: tensor<2x4x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<4x16xf32>, tensor<2x4x5xf32>) {
  // CHECK: ge.constant
  // CHECK-NOT: ge.engine
  // CHECK-SAME: tensor<4x3x3x3xf32>
  %w = ge.constant dense<1.0> : tensor<4x3x3x3xf32>
  %b = ge.constant dense<1.0> : tensor<16x8xf32>
  %n = ge.constant dense<1.0> : tensor<8x5xf32>
  // CHECK: ge.conv {{.*}}ge.engine = #ge.engine<AIC>
  %0 = ge.conv %x, %w {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: ge.relu {{.*}}ge.engine = #ge.engine<AIV>
  %1 = ge.relu %0 : tensor<1x4x8x8xf32>
  // CHECK: ge.gemm {{.*}}ge.engine = #ge.engine<AIC>
  %2 = ge.gemm %a, %b {transB = 1 : i64} : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
  // CHECK: ge.matmul {{.*}}ge.engine = #ge.engine<AIC>
  %3 = ge.matmul %m, %n : (tensor<2x4x8xf32>, tensor<8x5xf32>) -> tensor<2x4x5xf32>
  // CHECK: ge.softmax {{.*}}ge.engine = #ge.engine<AIV>
  %4 = ge.softmax %3 : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %1, %2, %4 : tensor<1x4x8x8xf32>, tensor<4x16xf32>, tensor<2x4x5xf32>
}

// An engine already set (by a user or an earlier pass) is kept.
// CHECK-LABEL: func.func @keeps_existing
func.func @keeps_existing(%x: tensor<16xf32>) -> tensor<16xf32> {
  // CHECK: ge.relu {{.*}}ge.engine = #ge.engine<AICPU>
  %0 = ge.relu %x {ge.engine = #ge.engine<AICPU>} : tensor<16xf32>
  return %0 : tensor<16xf32>
}
