// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @float_mod_needs_fmod(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.mod' op on 'f32' needs attribute 'fmod' = 1 (ONNX)}}
  %0 = ge.mod %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @mod_fmod_not_a_flag(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.mod' op attribute 'fmod'}}
  %0 = ge.mod %x, %x {fmod = 2} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @mod_shapes(%x: tensor<4xi32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{'ge.mod' op}}
  %0 = ge.mod %x, %y : (tensor<4xi32>, tensor<3xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @bit_shift_direction(%x: tensor<4xui8>) {
  // expected-error @+1 {{'ge.bit_shift' op attribute 'direction' is "UP" but must be "LEFT" or "RIGHT"}}
  %0 = ge.bit_shift %x, %x {direction = "UP"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @bit_shift_signed(%x: tensor<4xi8>) {
  // expected-error @+1 {{'ge.bit_shift' op operand #0 must be ranked tensor of 8-bit unsigned integer or 16-bit unsigned integer or 32-bit unsigned integer or 64-bit unsigned integer values}}
  %0 = ge.bit_shift %x, %x {direction = "LEFT"} : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @bit_shift_needs_direction(%x: tensor<4xui8>) {
  // expected-error @+1 {{'ge.bit_shift' op requires attribute 'direction'}}
  %0 = "ge.bit_shift"(%x, %x) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return
}

// -----

func.func @and_not_bool(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.and' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.and %x, %x : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @xor_result_shape(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ge.xor' op}}
  %0 = ge.xor %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<5xi1>
  return
}

// -----

func.func @greater_or_equal_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.greater_or_equal' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.greater_or_equal %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @is_inf_flag(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.is_inf' op attribute 'detect_positive'}}
  %0 = ge.is_inf %x {detect_positive = 3} : (tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

func.func @is_nan_result_not_bool(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.is_nan' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.is_nan %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @is_nan_shape(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.is_nan' op requires the same shape for all operands and results}}
  %0 = ge.is_nan %x : (tensor<4xf32>) -> tensor<5xi1>
  return
}

// -----

func.func @celu_alpha_zero(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.celu' op attribute 'alpha' must not be 0}}
  %0 = ge.celu %x {alpha = 0.0 : f32} : tensor<4xf32>
  return
}

// -----

func.func @tan_integer(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.tan' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.tan %x : tensor<4xi32>
  return
}

// -----

func.func @shrink_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ge.shrink' op operand #0 must be ranked tensor of}}
  %0 = ge.shrink %x : tensor<4xi1>
  return
}

// -----

func.func @size_not_scalar(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.size' op result has shape [1] but Size gives a scalar}}
  %0 = ge.size %x : (tensor<4xf32>) -> tensor<1xi64>
  return
}

// -----

func.func @size_not_i64(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.size' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = ge.size %x : (tensor<4xf32>) -> tensor<i32>
  return
}

// -----

func.func @cast_like_wrong_type(%x: tensor<4xf32>, %t: tensor<1xi32>) {
  // expected-error @+1 {{'ge.cast_like' op result element type 'f32' is not target_type's 'i32'}}
  %0 = ge.cast_like %x, %t : (tensor<4xf32>, tensor<1xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @cast_like_shape(%x: tensor<4xf32>, %t: tensor<1xi32>) {
  // expected-error @+1 {{'ge.cast_like' op result has shape [5] but expected [4]}}
  %0 = ge.cast_like %x, %t : (tensor<4xf32>, tensor<1xi32>) -> tensor<5xi32>
  return
}
