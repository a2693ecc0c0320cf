// RUN: geflow-opt --ge-fuse-attention %s | FileCheck %s

// torch's nn.MultiheadAttention: q / sqrt(d), k transposed, no mask.
// CHECK-LABEL: func.func @torch_mha
func.func @torch_mha(%q: tensor<4x16x16xf32>, %k: tensor<4x16x16xf32>, %v: tensor<4x16x16xf32>) -> tensor<4x16x16xf32> {
  %c = ge.constant dense<4.0> : tensor<f32>
  // CHECK: %[[Y:.*]] = ge.fused_attention %arg0, %arg1, %arg2 {scale = 2.500000e-01 : f32} : (tensor<4x16x16xf32>, tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  // CHECK-NOT: ge.softmax
  // CHECK-NOT: ge.transpose
  // CHECK: return %[[Y]]
  %qs = ge.div %q, %c : (tensor<4x16x16xf32>, tensor<f32>) -> tensor<4x16x16xf32>
  %kt = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %s = ge.matmul %qs, %kt : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %p = ge.softmax %s {axis = -1 : i64} : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %y = ge.matmul %p, %v : (tensor<4x16x16xf32>, tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  return %y : tensor<4x16x16xf32>
}

// Scores scaled after the product, an additive mask, K^T as it comes, a
// 4-D layout, and the product's factor on both sides.
// CHECK-LABEL: func.func @masked_scaled
func.func @masked_scaled(%q: tensor<1x2x8x4xf32>, %kt: tensor<1x2x4x6xf32>, %v: tensor<1x2x6x3xf32>, %mask: tensor<1x1x8x6xf32>) -> tensor<1x2x8x3xf32> {
  %half = ge.constant dense<0.5> : tensor<f32>
  %c = ge.constant dense<0.25> : tensor<1xf32>
  // CHECK: ge.fused_attention %arg0, %arg1, %arg2, %arg3 {k_transposed = 1 : i64, scale = 1.250000e-01 : f32} : (tensor<1x2x8x4xf32>, tensor<1x2x4x6xf32>, tensor<1x2x6x3xf32>, tensor<1x1x8x6xf32>) -> tensor<1x2x8x3xf32>
  %s = ge.matmul %q, %kt : (tensor<1x2x8x4xf32>, tensor<1x2x4x6xf32>) -> tensor<1x2x8x6xf32>
  %s1 = ge.mul %half, %s : (tensor<f32>, tensor<1x2x8x6xf32>) -> tensor<1x2x8x6xf32>
  %s2 = ge.mul %s1, %c : (tensor<1x2x8x6xf32>, tensor<1xf32>) -> tensor<1x2x8x6xf32>
  %m = ge.add %mask, %s2 : (tensor<1x1x8x6xf32>, tensor<1x2x8x6xf32>) -> tensor<1x2x8x6xf32>
  %p = ge.softmax %m {axis = 3 : i64} : (tensor<1x2x8x6xf32>) -> tensor<1x2x8x6xf32>
  %y = ge.matmul %p, %v : (tensor<1x2x8x6xf32>, tensor<1x2x6x3xf32>) -> tensor<1x2x8x3xf32>
  return %y : tensor<1x2x8x3xf32>
}

// A scaled Q that something else reads stays for it; the fused op reads Q.
// CHECK-LABEL: func.func @shared_q_scale
func.func @shared_q_scale(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  %c = ge.constant dense<2.0> : tensor<f32>
  // CHECK: %[[QS:.*]] = ge.mul %arg0
  // CHECK: ge.fused_attention %arg0, %arg1, %arg2 {scale = 2.000000e+00 : f32}
  // CHECK: return %{{.*}}, %[[QS]]
  %qs = ge.mul %q, %c : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %kt = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = ge.matmul %qs, %kt : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = ge.softmax %s : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = ge.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %y, %qs : tensor<2x4x4xf32>, tensor<2x4x4xf32>
}

// The scores have a second user (attention weights returned): not fused.
// CHECK-LABEL: func.func @scores_have_another_user
func.func @scores_have_another_user(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> (tensor<2x4x4xf32>, tensor<2x4x4xf32>) {
  // CHECK-NOT: ge.fused_attention
  %kt = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = ge.matmul %q, %kt : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = ge.softmax %s : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = ge.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %y, %p : tensor<2x4x4xf32>, tensor<2x4x4xf32>
}

// Softmax over another axis is no attention.
// CHECK-LABEL: func.func @wrong_axis
func.func @wrong_axis(%q: tensor<2x4x4xf32>, %k: tensor<2x4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  // CHECK-NOT: ge.fused_attention
  %s = ge.matmul %q, %k : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = ge.softmax %s {axis = 1 : i64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = ge.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// K broadcasts over the batch (matmul broadcasting): shapes do not allow it.
// CHECK-LABEL: func.func @broadcast_batch
func.func @broadcast_batch(%q: tensor<2x4x4xf32>, %kt: tensor<4x4xf32>, %v: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  // CHECK-NOT: ge.fused_attention
  %s = ge.matmul %q, %kt : (tensor<2x4x4xf32>, tensor<4x4xf32>) -> tensor<2x4x4xf32>
  %p = ge.softmax %s : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %y = ge.matmul %p, %v : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// The head merge after the second matmul becomes y_perm; a transpose that
// moves the last dim stays.
// CHECK-LABEL: func.func @head_merge
func.func @head_merge(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> (tensor<16x4x8xf32>, tensor<8x16x4xf32>) {
  // CHECK: %[[A:.*]] = ge.fused_attention %arg0, %arg1, %arg2 {y_perm = array<i64: 1, 0, 2>} : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<16x4x8xf32>
  // CHECK: %[[B:.*]] = ge.fused_attention %arg0, %arg1, %arg2 : {{.*}} -> tensor<4x16x8xf32>
  // CHECK: ge.transpose %[[B]] {perm = array<i64: 2, 1, 0>}
  %kt = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = ge.matmul %q, %kt : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  %p = ge.softmax %s : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %y = ge.matmul %p, %v : (tensor<4x16x16xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %m = ge.transpose %y {perm = array<i64: 1, 0, 2>} : (tensor<4x16x8xf32>) -> tensor<16x4x8xf32>
  %kt2 = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s2 = ge.matmul %q, %kt2 : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  %p2 = ge.softmax %s2 : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %y2 = ge.matmul %p2, %v : (tensor<4x16x16xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %m2 = ge.transpose %y2 {perm = array<i64: 2, 1, 0>} : (tensor<4x16x8xf32>) -> tensor<8x16x4xf32>
  return %m, %m2 : tensor<16x4x8xf32>, tensor<8x16x4xf32>
}

// The reshape that merges the heads after that transpose is absorbed too: the
// result is the same bytes as [S, H * Dv].
// CHECK-LABEL: func.func @head_merge_reshape
func.func @head_merge_reshape(%q: tensor<4x16x8xf32>, %k: tensor<4x16x8xf32>, %v: tensor<4x16x8xf32>) -> tensor<16x32xf32> {
  %shape = ge.constant dense<[16, 32]> : tensor<2xi64>
  // CHECK: %[[Y:.*]] = ge.fused_attention %arg0, %arg1, %arg2 {y_perm = array<i64: 1, 0, 2>} : (tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<16x32xf32>
  // CHECK-NEXT: return %[[Y]]
  %kt = ge.transpose %k {perm = array<i64: 0, 2, 1>} : (tensor<4x16x8xf32>) -> tensor<4x8x16xf32>
  %s = ge.matmul %q, %kt : (tensor<4x16x8xf32>, tensor<4x8x16xf32>) -> tensor<4x16x16xf32>
  %p = ge.softmax %s : (tensor<4x16x16xf32>) -> tensor<4x16x16xf32>
  %y = ge.matmul %p, %v : (tensor<4x16x16xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %m = ge.transpose %y {perm = array<i64: 1, 0, 2>} : (tensor<4x16x8xf32>) -> tensor<16x4x8xf32>
  %r = ge.reshape %m, %shape : (tensor<16x4x8xf32>, tensor<2xi64>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
