// RUN: geflow-opt --ge-fold-qdq --split-input-file %s | FileCheck %s

// A conv in QDQ form: per-channel weights, a float bias quantized at
// x_scale * w_scale[m] = [0.5, 0.25], absent zero points made constant.
// CHECK-LABEL: func.func @conv
func.func @conv(%xq: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xi8> {
  %xs = ge.constant dense<0.5> : tensor<f32>
  %xz = ge.constant dense<128> : tensor<ui8>
  %wq = ge.constant dense<1> : tensor<2x2x1x1xi8>
  %ws = ge.constant dense<[1.0, 0.5]> : tensor<2xf32>
  %b = ge.constant dense<[1.0, 1.1]> : tensor<2xf32>
  %ys = ge.constant dense<0.25> : tensor<f32>
  // The zero point made for w and the model's y zero point are one constant.
  // CHECK-DAG: %[[Z:.*]] = ge.constant dense<0> : tensor<i8>
  // CHECK-DAG: %[[B:.*]] = ge.constant dense<[2, 4]> : tensor<2xi32>
  // CHECK: %[[Y:.*]] = ge.qlinear_conv %arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[Z]], %{{.*}}, %[[Z]], %[[B]] {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x2x1x1xi8>, tensor<2xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<2xi32>) -> tensor<1x2x4x4xi8>
  // CHECK-NOT: ge.conv
  // CHECK-NOT: ge.quantize_linear
  // CHECK: return %[[Y]]
  %x = ge.dequantize_linear %xq, %xs, %xz : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %w = ge.dequantize_linear %wq, %ws {axis = 0 : i64} : (tensor<2x2x1x1xi8>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  %c = ge.conv %x, %w, %b {pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %yz = ge.constant dense<0> : tensor<i8>
  %y = ge.quantize_linear %c, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8>
  return %y : tensor<1x2x4x4xi8>
}

// -----

// A matmul in QDQ form; its dequantized b is read elsewhere too, which
// does not matter (only the float product must have no other user).
// CHECK-LABEL: func.func @matmul
func.func @matmul(%aq: tensor<3x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %bq: tensor<4x5xui8>) -> (tensor<3x5xui8>, tensor<4x5xf32>) {
  // CHECK: %[[B:.*]] = ge.dequantize_linear %arg3
  // CHECK: %[[Y:.*]] = ge.qlinear_matmul %arg0, %arg1, %arg2, %arg3, %arg1, %arg2, %arg1, %arg2 : {{.*}} -> tensor<3x5xui8>
  // CHECK: return %[[Y]], %[[B]]
  %a = ge.dequantize_linear %aq, %s, %z : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x4xf32>
  %b = ge.dequantize_linear %bq, %s, %z : (tensor<4x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x5xf32>
  %m = ge.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %y = ge.quantize_linear %m, %s, %z : (tensor<3x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x5xui8>
  return %y, %b : tensor<3x5xui8>, tensor<4x5xf32>
}

// -----

// Left alone: the float product has another user; a conv's bias that is not
// constant; weights per axis other than the output channels.
// CHECK-LABEL: func.func @unchanged
func.func @unchanged(%aq: tensor<3x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %bq: tensor<4x5xui8>,
                     %xq: tensor<1x2x4x4xui8>, %wq: tensor<2x2x1x1xui8>, %b: tensor<2xf32>, %ws2: tensor<2xf32>)
    -> (tensor<3x5xui8>, tensor<3x5xf32>, tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>) {
  // CHECK-NOT: ge.qlinear
  // CHECK: return
  %a = ge.dequantize_linear %aq, %s, %z : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x4xf32>
  %bm = ge.dequantize_linear %bq, %s, %z : (tensor<4x5xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x5xf32>
  %m = ge.matmul %a, %bm : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %y = ge.quantize_linear %m, %s, %z : (tensor<3x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x5xui8>
  %x = ge.dequantize_linear %xq, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %w = ge.dequantize_linear %wq, %s, %z : (tensor<2x2x1x1xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x2x1x1xf32>
  %c = ge.conv %x, %w, %b : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %yc = ge.quantize_linear %c, %s, %z : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  %w1 = ge.dequantize_linear %wq, %ws2 {axis = 1 : i64} : (tensor<2x2x1x1xui8>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  %c1 = ge.conv %x, %w1 : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %yc1 = ge.quantize_linear %c1, %s, %z : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y, %m, %yc, %yc1 : tensor<3x5xui8>, tensor<3x5xf32>, tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>
}

// -----

// conv + relu at output zero point 0: uint8 saturates at 0 (the relu goes),
// int8 keeps a relu of the quantized result. At another zero point the relu
// does not commute with quantization: nothing folds.
// CHECK-LABEL: func.func @conv_relu
func.func @conv_relu(%xq: tensor<1x2x4x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %wq: tensor<2x2x1x1xi8>)
    -> (tensor<1x2x4x4xui8>, tensor<1x2x4x4xi8>, tensor<1x2x4x4xui8>) {
  // CHECK: %[[U:.*]] = ge.qlinear_conv {{.*}} -> tensor<1x2x4x4xui8>
  // CHECK-NEXT: %[[I:.*]] = ge.qlinear_conv {{.*}} -> tensor<1x2x4x4xi8>
  // CHECK-NEXT: %[[R:.*]] = ge.relu %[[I]] : tensor<1x2x4x4xi8>
  // CHECK: ge.conv
  // CHECK-NEXT: ge.relu {{.*}} : tensor<1x2x4x4xf32>
  // CHECK-NEXT: %[[N:.*]] = ge.quantize_linear
  // CHECK: return %[[U]], %[[R]], %[[N]]
  %x = ge.dequantize_linear %xq, %s, %z : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %w = ge.dequantize_linear %wq, %s : (tensor<2x2x1x1xi8>, tensor<f32>) -> tensor<2x2x1x1xf32>
  %c0 = ge.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r0 = ge.relu %c0 : tensor<1x2x4x4xf32>
  %y0 = ge.quantize_linear %r0, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xui8>
  %zi = ge.constant dense<0> : tensor<i8>
  %c1 = ge.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r1 = ge.relu %c1 : tensor<1x2x4x4xf32>
  %y1 = ge.quantize_linear %r1, %s, %zi : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8>
  %c2 = ge.conv %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r2 = ge.relu %c2 : tensor<1x2x4x4xf32>
  %y2 = ge.quantize_linear %r2, %s, %z : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y0, %y1, %y2 : tensor<1x2x4x4xui8>, tensor<1x2x4x4xi8>, tensor<1x2x4x4xui8>
}

// -----

// Data movement between a dequantize and a quantize of the same parameters
// (equal constants count) runs on the uint8 tensor; with another scale it
// stays in float.
// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%xq: tensor<1x2x3x4xui8>, %z: tensor<ui8>) -> (tensor<1x24xui8>, tensor<1x24xui8>) {
  // CHECK: %[[F:.*]] = ge.flatten %arg0 : (tensor<1x2x3x4xui8>) -> tensor<1x24xui8>
  // CHECK: ge.flatten {{.*}} : (tensor<1x2x3x4xf32>) -> tensor<1x24xf32>
  // CHECK: %[[Q:.*]] = ge.quantize_linear
  // CHECK: return %[[F]], %[[Q]]
  %s = ge.constant dense<0.5> : tensor<f32>
  %s2 = ge.constant dense<0.5> : tensor<f32>
  %s3 = ge.constant dense<0.25> : tensor<f32>
  %x = ge.dequantize_linear %xq, %s, %z : (tensor<1x2x3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x4xf32>
  %f = ge.flatten %x : (tensor<1x2x3x4xf32>) -> tensor<1x24xf32>
  %y = ge.quantize_linear %f, %s2, %z : (tensor<1x24xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x24xui8>
  %f3 = ge.flatten %x : (tensor<1x2x3x4xf32>) -> tensor<1x24xf32>
  %y3 = ge.quantize_linear %f3, %s3, %z : (tensor<1x24xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x24xui8>
  return %y, %y3 : tensor<1x24xui8>, tensor<1x24xui8>
}
