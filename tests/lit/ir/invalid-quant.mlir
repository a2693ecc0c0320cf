// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @quantize_scale_shape(%x: tensor<1x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.quantize_linear' op input 'y_scale' has shape [4] but must be a scalar or 1-D with 3 entries}}
  %0 = ge.quantize_linear %x, %s : (tensor<1x3x4xf32>, tensor<4xf32>) -> tensor<1x3x4xui8>
  return
}

// -----

func.func @quantize_axis(%x: tensor<1x3x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'ge.quantize_linear' op attribute 'axis' is 3 but the input has rank 3}}
  %0 = ge.quantize_linear %x, %s {axis = 3 : i64} : (tensor<1x3x4xf32>, tensor<3xf32>) -> tensor<1x3x4xui8>
  return
}

// -----

func.func @quantize_no_zero_point_int8(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'ge.quantize_linear' op result has element type 'i8' but is uint8 without 'y_zero_point'}}
  %0 = ge.quantize_linear %x, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

func.func @quantize_zero_point_type(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) {
  // expected-error @+1 {{'ge.quantize_linear' op input 'y_zero_point' has element type 'i8' but the quantized tensor has 'ui8'}}
  %0 = ge.quantize_linear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xui8>
  return
}

// -----

func.func @quantize_result_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'ge.quantize_linear' op result #0 must be ranked tensor of 8-bit signless integer or 8-bit unsigned integer values}}
  %0 = ge.quantize_linear %x, %s : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @dequantize_shape(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{'ge.dequantize_linear' op result has shape [5] but expected [4]}}
  %0 = ge.dequantize_linear %x, %s : (tensor<4xi8>, tensor<f32>) -> tensor<5xf32>
  return
}

// -----

func.func @dynamic_scale_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.dynamic_quantize_linear' op result #1 has shape [1] but expected []}}
  %0:3 = ge.dynamic_quantize_linear %x : (tensor<4xf32>) -> (tensor<4xui8>, tensor<1xf32>, tensor<ui8>)
  return
}

// -----

func.func @matmul_integer_inner(%a: tensor<4x3xui8>, %b: tensor<2x5xui8>) {
  // expected-error @+1 {{'ge.matmul_integer' op}}
  %0 = ge.matmul_integer %a, %b : (tensor<4x3xui8>, tensor<2x5xui8>) -> tensor<4x5xi32>
  return
}

// -----

func.func @matmul_integer_zero_point(%a: tensor<4x3xui8>, %b: tensor<3x5xui8>, %bz: tensor<4xui8>) {
  // expected-error @+1 {{'ge.matmul_integer' op input 'b_zero_point' has shape [4] but must be a scalar or 1-D with 5 entries}}
  %0 = ge.matmul_integer %a, %b b_zero_point %bz : (tensor<4x3xui8>, tensor<3x5xui8>, tensor<4xui8>) -> tensor<4x5xi32>
  return
}

// -----

func.func @qlinear_matmul_a_scale(%a: tensor<4x3xui8>, %b: tensor<3x5xui8>, %s: tensor<f32>, %s2: tensor<2xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'ge.qlinear_matmul' op input 'a_scale' has shape [2] but must hold exactly one element}}
  %0 = ge.qlinear_matmul %a, %s2, %z, %b, %s, %z, %s, %z : (tensor<4x3xui8>, tensor<2xf32>, tensor<ui8>, tensor<3x5xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<4x5xui8>
  return
}

// -----

func.func @conv_integer_channels(%x: tensor<1x3x8x8xui8>, %w: tensor<4x2x3x3xui8>) {
  // expected-error @+1 {{'ge.conv_integer' op input 'X' has 3 channels but W[1] * group = 2}}
  %0 = ge.conv_integer %x, %w : (tensor<1x3x8x8xui8>, tensor<4x2x3x3xui8>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @conv_integer_result(%x: tensor<1x2x8x8xui8>, %w: tensor<4x2x3x3xui8>) {
  // expected-error @+1 {{'ge.conv_integer' op result has shape [1, 4, 8, 8] but expected [1, 4, 6, 6]}}
  %0 = ge.conv_integer %x, %w : (tensor<1x2x8x8xui8>, tensor<4x2x3x3xui8>) -> tensor<1x4x8x8xi32>
  return
}

// -----

func.func @qlinear_conv_bias(%x: tensor<1x2x8x8xui8>, %w: tensor<4x2x3x3xui8>, %s: tensor<f32>, %z: tensor<ui8>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'ge.qlinear_conv' op input 'B' has shape [3] but must be 1-D with the output channel count W[0] = 4}}
  %0 = ge.qlinear_conv %x, %s, %z, %w, %s, %z, %s, %z, %b : (tensor<1x2x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x2x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x4x6x6xui8>
  return
}

// -----

func.func @qlinear_conv_w_scale(%x: tensor<1x2x8x8xui8>, %w: tensor<4x2x3x3xui8>, %s: tensor<f32>, %ws: tensor<3xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{'ge.qlinear_conv' op input 'w_scale' has shape [3] but must be a scalar or 1-D with 4 entries}}
  %0 = ge.qlinear_conv %x, %s, %z, %w, %ws, %z, %s, %z : (tensor<1x2x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x2x3x3xui8>, tensor<3xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return
}
