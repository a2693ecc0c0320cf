// RUN: geflow-opt --ge-fuse-residual --split-input-file %s | FileCheck %s

// ResNet's block ending: relu(conv(x) + z) -> one fused_conv with residual z.
// CHECK-LABEL: func.func @residual_relu
func.func @residual_relu(%x: tensor<1x2x6x6xf32>, %z: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = ge.constant dense<1.0> : tensor<2x2x3x3xf32>
  %b = ge.constant dense<1.0> : tensor<2xf32>
  // CHECK: %[[Y:.*]] = ge.fused_conv %arg0, %{{.*}}, %{{.*}} residual %arg1 {activation = "relu", pads = array<i64: 1, 1, 1, 1>}
  // CHECK-NEXT: return %[[Y]]
  %0 = ge.conv %x, %w, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.add %z, %0 : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %2 = ge.relu %1 : tensor<1x2x6x6xf32>
  return %2 : tensor<1x2x6x6xf32>
}

// -----

// Without an activation; when both addends are convs the later one absorbs
// the sum and the earlier one is the residual.
// CHECK-LABEL: func.func @two_convs
func.func @two_convs(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  %w = ge.constant dense<1.0> : tensor<2x2x1x1xf32>
  // CHECK: %[[A:.*]] = ge.conv %arg0
  // CHECK-NEXT: %[[Y:.*]] = ge.fused_conv %arg0, %{{[^ ]*}} residual %[[A]] :
  // CHECK-NEXT: return %[[Y]]
  %0 = ge.conv %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.conv %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %2 = ge.add %0, %1 : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %2 : tensor<1x2x6x6xf32>
}

// -----

// A conv that already has its activation, a conv output with a second user,
// and an addend that broadcasts (shape mismatch) all stay as they are; the
// activation is left out when the sum has another user.
// CHECK-LABEL: func.func @negative
func.func @negative(%x: tensor<1x2x6x6xf32>, %z: tensor<1x2x6x6xf32>, %c: tensor<1x2x1x1xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = ge.constant dense<1.0> : tensor<2x2x1x1xf32>
  // CHECK: %[[F:.*]] = ge.fused_conv %arg0, %{{[^ ]*}} {activation = "relu"}
  // CHECK-NEXT: ge.add %[[F]], %arg1
  %0 = ge.fused_conv %x, %w {activation = "relu"} : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %1 = ge.add %0, %z : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: %[[C:.*]] = ge.conv %arg0
  // CHECK-NEXT: ge.add %[[C]], %arg1
  %2 = ge.conv %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %3 = ge.add %2, %z : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: %[[D:.*]] = ge.conv %arg0
  // CHECK-NEXT: ge.add %[[D]], %arg2
  %4 = ge.conv %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %5 = ge.add %4, %c : (tensor<1x2x6x6xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: %[[S:.*]] = ge.fused_conv %arg0, %{{[^ ]*}} residual %arg1 :
  // CHECK-NEXT: ge.relu %[[S]]
  %6 = ge.conv %x, %w : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %7 = ge.add %6, %z : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %8 = ge.relu %7 : tensor<1x2x6x6xf32>
  return %1, %2, %3, %5, %7, %8 : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
