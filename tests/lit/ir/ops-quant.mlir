// RUN: geflow-opt %s | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --mlir-print-op-generic | geflow-opt | FileCheck %s
// RUN: geflow-opt %s --emit-bytecode | geflow-opt | FileCheck %s

// CHECK-LABEL: func @linear
func.func @linear(%x: tensor<1x3x4x4xf32>, %s: tensor<f32>, %z: tensor<ui8>,
                  %sc: tensor<3xf32>, %zc: tensor<3xi8>, %xi: tensor<8xi32>) {
  // CHECK: ge.quantize_linear {{.*}} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xui8>
  %0 = ge.quantize_linear %x, %s, %z : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xui8>
  // Without a zero point: uint8.
  // CHECK: ge.quantize_linear {{.*}} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xui8>
  %1 = ge.quantize_linear %x, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xui8>
  // Per axis (axis 1 by default).
  // CHECK: ge.quantize_linear {{.*}} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<1x3x4x4xi8>
  %2 = ge.quantize_linear %x, %sc, %zc : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<1x3x4x4xi8>
  // CHECK: ge.dequantize_linear {{.*}} : (tensor<1x3x4x4xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<1x3x4x4xf32>
  %3 = ge.dequantize_linear %2, %sc, %zc : (tensor<1x3x4x4xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<1x3x4x4xf32>
  // A quantized bias: int32 without a zero point.
  // CHECK: ge.dequantize_linear {{.*}} : (tensor<8xi32>, tensor<f32>) -> tensor<8xf32>
  %4 = ge.dequantize_linear %xi, %s : (tensor<8xi32>, tensor<f32>) -> tensor<8xf32>
  // CHECK: ge.dynamic_quantize_linear {{.*}} : (tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>)
  %5:3 = ge.dynamic_quantize_linear %x : (tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>)
  return
}

// CHECK-LABEL: func @products
func.func @products(%a: tensor<2x4x3xui8>, %b: tensor<3x5xi8>, %az: tensor<ui8>,
                    %bz: tensor<5xi8>, %s: tensor<f32>, %bs: tensor<5xf32>,
                    %yz: tensor<i8>) {
  // CHECK: ge.matmul_integer {{.*}} : (tensor<2x4x3xui8>, tensor<3x5xi8>) -> tensor<2x4x5xi32>
  %0 = ge.matmul_integer %a, %b : (tensor<2x4x3xui8>, tensor<3x5xi8>) -> tensor<2x4x5xi32>
  // Only b's zero point: the optional operands are named.
  // CHECK: ge.matmul_integer {{.*}} b_zero_point {{.*}} : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<5xi8>) -> tensor<2x4x5xi32>
  %1 = ge.matmul_integer %a, %b b_zero_point %bz : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<5xi8>) -> tensor<2x4x5xi32>
  // CHECK: ge.matmul_integer {{.*}} a_zero_point {{.*}} b_zero_point
  %2 = ge.matmul_integer %a, %b a_zero_point %az b_zero_point %bz : (tensor<2x4x3xui8>, tensor<3x5xi8>, tensor<ui8>, tensor<5xi8>) -> tensor<2x4x5xi32>
  // CHECK: ge.qlinear_matmul {{.*}} -> tensor<2x4x5xi8>
  %3 = ge.qlinear_matmul %a, %s, %az, %b, %bs, %bz, %s, %yz : (tensor<2x4x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x5xi8>, tensor<5xf32>, tensor<5xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4x5xi8>
  return
}

// CHECK-LABEL: func @convs
func.func @convs(%x: tensor<1x4x8x8xui8>, %w: tensor<6x2x3x3xi8>, %xz: tensor<ui8>,
                 %wz: tensor<6xi8>, %s: tensor<f32>, %ws: tensor<6xf32>,
                 %yz: tensor<ui8>, %b: tensor<6xi32>) {
  // CHECK: ge.conv_integer {{.*}} {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xui8>, tensor<6x2x3x3xi8>) -> tensor<1x6x8x8xi32>
  %0 = ge.conv_integer %x, %w {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xui8>, tensor<6x2x3x3xi8>) -> tensor<1x6x8x8xi32>
  // CHECK: ge.conv_integer {{.*}} x_zero_point {{.*}} w_zero_point {{.*}} strides = array<i64: 2, 2>
  %1 = ge.conv_integer %x, %w x_zero_point %xz w_zero_point %wz {group = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xui8>, tensor<6x2x3x3xi8>, tensor<ui8>, tensor<6xi8>) -> tensor<1x6x3x3xi32>
  // CHECK: ge.qlinear_conv {{.*}} {auto_pad = "SAME_UPPER", group = 2 : i64} {{.*}} -> tensor<1x6x8x8xui8>
  %2 = ge.qlinear_conv %x, %s, %xz, %w, %ws, %wz, %s, %yz, %b {auto_pad = "SAME_UPPER", group = 2 : i64} : (tensor<1x4x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<6x2x3x3xi8>, tensor<6xf32>, tensor<6xi8>, tensor<f32>, tensor<ui8>, tensor<6xi32>) -> tensor<1x6x8x8xui8>
  return
}
