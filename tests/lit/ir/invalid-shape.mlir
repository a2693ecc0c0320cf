// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @constant_type() {
  // expected-error @+1 {{'ge.constant' op failed to verify that all of {value, output} have same type}}
  %0 = "ge.constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<3xi64>
  return
}

// -----

func.func @cast_shape(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.cast' op requires the same shape for all operands and results}}
  %0 = ge.cast %x : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @concat_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.concat' op attribute 'axis' is 2 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.concat %x, %x {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_mismatch(%x: tensor<2x3xf32>, %y: tensor<3x3xf32>) {
  // expected-error @+1 {{'ge.concat' op input #1 has shape [3, 3] which differs from [2, 3] outside axis 1}}
  %0 = ge.concat %x, %y {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_rank(%x: tensor<2x3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{'ge.concat' op input #1 has rank 1 but input #0 has rank 2}}
  %0 = ge.concat %x, %y {axis = 0 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @concat_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.concat' op result has shape [4, 4] but expected [4, 3]}}
  %0 = ge.concat %x, %x {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @concat_dtype(%x: tensor<2x3xf32>, %y: tensor<2x3xf16>) {
  // expected-error @+1 {{'ge.concat' op requires the same element type for all operands and results}}
  %0 = ge.concat %x, %y {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf16>) -> tensor<4x3xf32>
  return
}

// -----

func.func @constant_of_shape_value(%s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.constant_of_shape' op attribute 'value' must hold exactly one element, it has 2}}
  %0 = ge.constant_of_shape %s {value = dense<[1, 2]> : tensor<2xi32>} : (tensor<2xi64>) -> tensor<?x?xi32>
  return
}

// -----

func.func @constant_of_shape_dtype(%s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.constant_of_shape' op attribute 'value' has element type 'i32' but the result has 'f32'}}
  %0 = ge.constant_of_shape %s {value = dense<1> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @constant_of_shape_default(%s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.constant_of_shape' op result element type 'i64' needs a 'value' (the default value is 0.0 : f32)}}
  %0 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<?x?xi64>
  return
}

// -----

func.func @constant_of_shape_shape() {
  %s = ge.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ge.constant_of_shape' op result has shape [3, 2] but expected [2, 3]}}
  %0 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @constant_of_shape_rank(%s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.constant_of_shape' op result has rank 1 but the shape operand has 2 dims}}
  %0 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @constant_of_shape_negative() {
  %s = ge.constant dense<[2, -3]> : tensor<2xi64>
  // expected-error @+1 {{'ge.constant_of_shape' op shape [2, -3] has a negative dim}}
  %0 = ge.constant_of_shape %s : (tensor<2xi64>) -> tensor<2x3xf32>
  return
}

// -----

func.func @constant_of_shape_not_1d(%s: tensor<1x2xi64>) {
  // expected-error @+1 {{'ge.constant_of_shape' op operand 'input' has rank 2 but must be 1-D}}
  %0 = ge.constant_of_shape %s : (tensor<1x2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @expand_shape(%x: tensor<3x1xf32>) {
  %s = ge.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{'ge.expand' op input does not expand to the shape operand: shapes [3, 1] and [2, 4] do not broadcast (3 vs 2)}}
  %0 = ge.expand %x, %s : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @expand_result(%x: tensor<3x1xf32>) {
  %s = ge.constant dense<[2, 1, 4]> : tensor<3xi64>
  // expected-error @+1 {{'ge.expand' op result has shape [2, 3, 1] but expected [2, 3, 4]}}
  %0 = ge.expand %x, %s : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @expand_rank(%x: tensor<3x1xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'ge.expand' op result has rank 2 but expected 3}}
  %0 = ge.expand %x, %s : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @expand_shape_dtype(%x: tensor<3x1xf32>, %s: tensor<2xi32>) {
  // expected-error @+1 {{'ge.expand' op operand #1 must be ranked tensor of 64-bit signless integer values}}
  %0 = ge.expand %x, %s : (tensor<3x1xf32>, tensor<2xi32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @flatten_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.flatten' op attribute 'axis' is 3 but the input has rank 2 (allowed range [-2, 2])}}
  %0 = ge.flatten %x {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<6x1xf32>
  return
}

// -----

func.func @flatten_result(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'ge.flatten' op result has shape [2, 12] but expected [6, 4]}}
  %0 = ge.flatten %x {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return
}

// -----

func.func @gather_axis(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'ge.gather' op attribute 'axis' is -3 but the input has rank 2}}
  %0 = ge.gather %x, %i {axis = -3 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_result(%x: tensor<2x3xf32>, %i: tensor<4xi64>) {
  // expected-error @+1 {{'ge.gather' op result has shape [4, 3] but expected [2, 4]}}
  %0 = ge.gather %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @gather_index_range(%x: tensor<2x3xf32>) {
  %i = ge.constant dense<[0, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ge.gather' op index 3 is out of range for axis 1 of size 3}}
  %0 = ge.gather %x, %i {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_index_dtype(%x: tensor<2x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{'ge.gather' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = ge.gather %x, %i : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_scalar_data(%x: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+1 {{'ge.gather' op input 'data' must have rank >= 1}}
  %0 = ge.gather %x, %i : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

func.func @pad_mode(%x: tensor<4xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'ge.pad' op attribute 'mode' is "mirror" but must be one of constant, reflect, edge, wrap}}
  %0 = ge.pad %x, %p {mode = "mirror"} : (tensor<4xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @pad_length(%x: tensor<4x4xf32>, %p: tensor<2xi64>) {
  // expected-error @+1 {{'ge.pad' op operand 'pads' has 2 values but expected 4 (begin and end for each of 2 axes)}}
  %0 = ge.pad %x, %p : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @pad_result(%x: tensor<4x4xf32>) {
  %p = ge.constant dense<[1, 0, 1, 0]> : tensor<4xi64>
  // expected-error @+1 {{'ge.pad' op result has shape [6, 5] but expected [6, 4]}}
  %0 = ge.pad %x, %p : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<6x5xf32>
  return
}

// -----

func.func @pad_crop(%x: tensor<4xf32>) {
  %p = ge.constant dense<[-3, -2]> : tensor<2xi64>
  // expected-error @+1 {{'ge.pad' op pads [-3, -2] crop dim 0 below zero}}
  %0 = ge.pad %x, %p : (tensor<4xf32>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @pad_value(%x: tensor<4xf32>, %p: tensor<2xi64>, %v: tensor<i32>) {
  // expected-error @+1 {{'ge.pad' op operand 'constant_value' has element type 'i32' but the data has 'f32'}}
  %0 = ge.pad %x, %p value %v : (tensor<4xf32>, tensor<2xi64>, tensor<i32>) -> tensor<?xf32>
  return
}

// -----

func.func @pad_axes(%x: tensor<4xf32>, %p: tensor<2xi64>) {
  %a = ge.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ge.pad' op operand 'axes': axis 1 is out of range [-1, 1)}}
  %0 = ge.pad %x, %p axes %a : (tensor<4xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @range_scalar(%s: tensor<1xi64>, %l: tensor<i64>) {
  // expected-error @+1 {{'ge.range' op operand 'start' has rank 1 but must be a scalar (rank 0)}}
  %0 = ge.range %s, %l, %l : (tensor<1xi64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @range_result() {
  %s = ge.constant dense<0.0> : tensor<f32>
  %l = ge.constant dense<1.0> : tensor<f32>
  %d = ge.constant dense<0.25> : tensor<f32>
  // expected-error @+1 {{'ge.range' op result has shape [5] but expected [4]}}
  %0 = ge.range %s, %l, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return
}

// -----

func.func @range_zero_delta(%s: tensor<i64>) {
  %d = ge.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ge.range' op operand 'delta' must not be 0}}
  %0 = ge.range %s, %s, %d : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @range_rank(%s: tensor<i64>) {
  // expected-error @+1 {{'ge.range' op result must be 1-D}}
  %0 = ge.range %s, %s, %s : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?x?xi64>
  return
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) {
  %s = ge.constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{'ge.reshape' op cannot reshape [2, 3] (6 elements) into [4, 2] (8 elements)}}
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  return
}

// -----

func.func @reshape_two_infer(%x: tensor<2x3xf32>) {
  %s = ge.constant dense<[-1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ge.reshape' op shape [-1, -1] has more than one -1}}
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<6x1xf32>
  return
}

// -----

func.func @reshape_result(%x: tensor<2x3xf32>) {
  %s = ge.constant dense<[0, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ge.reshape' op result has shape [3, 2] but expected [2, 3]}}
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @reshape_rank(%x: tensor<2x3xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'ge.reshape' op result has rank 2 but the shape operand has 3 dims}}
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_allowzero(%x: tensor<2x3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.reshape' op attribute 'allowzero' is 2 but must be 0 or 1}}
  %0 = ge.reshape %x, %s {allowzero = 2 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_dtype(%x: tensor<2x3xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'ge.reshape' op failed to verify that all of {data, reshaped} have same element type}}
  %0 = ge.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf16>
  return
}

// -----

func.func @shape_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.shape' op result has shape [3] but expected [2]}}
  %0 = ge.shape %x : (tensor<2x3xf32>) -> tensor<3xi64>
  return
}

// -----

func.func @shape_dtype(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.shape' op result #0 must be ranked tensor of 64-bit signless integer values}}
  %0 = ge.shape %x : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @slice_lengths(%x: tensor<4xf32>, %s: tensor<1xi64>, %e: tensor<2xi64>) {
  // expected-error @+1 {{'ge.slice' op operand 'ends' has 2 values but 'starts' has 1}}
  %0 = ge.slice %x, %s, %e : (tensor<4xf32>, tensor<1xi64>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @slice_step_zero(%x: tensor<4xf32>) {
  %s = ge.constant dense<0> : tensor<1xi64>
  %z = ge.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'ge.slice' op steps must not be 0}}
  %0 = ge.slice %x, %s, %s steps %z : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @slice_result(%x: tensor<4x5xf32>) {
  %s = ge.constant dense<1> : tensor<1xi64>
  %e = ge.constant dense<3> : tensor<1xi64>
  %a = ge.constant dense<1> : tensor<1xi64>
  // expected-error @+1 {{'ge.slice' op result has shape [2, 5] but expected [4, 2]}}
  %0 = ge.slice %x, %s, %e axes %a : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x5xf32>
  return
}

// -----

func.func @slice_axis(%x: tensor<4x5xf32>) {
  %s = ge.constant dense<1> : tensor<1xi64>
  %a = ge.constant dense<2> : tensor<1xi64>
  // expected-error @+1 {{'ge.slice' op axis 2 is out of range [-2, 2)}}
  %0 = ge.slice %x, %s, %s axes %a : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x5xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'ge.slice' op result has shape [?] but expected [?, ?]}}
  %0 = ge.slice %x, %s, %s : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @split_sum(%x: tensor<6xf32>) {
  %s = ge.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ge.split' op split [2, 3] sums to 5 but dim 0 has size 6}}
  %0:2 = ge.split %x, %s : (tensor<6xf32>, tensor<2xi64>) -> (tensor<2xf32>, tensor<3xf32>)
  return
}

// -----

func.func @split_count(%x: tensor<6xf32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{'ge.split' op operand 'split' has 3 values but the op has 2 results}}
  %0:2 = ge.split %x, %s : (tensor<6xf32>, tensor<3xi64>) -> (tensor<?xf32>, tensor<?xf32>)
  return
}

// -----

func.func @split_uneven(%x: tensor<7xf32>) {
  // expected-error @+1 {{'ge.split' op dim 0 of size 7 does not split evenly into 2 results}}
  %0:2 = ge.split %x : (tensor<7xf32>) -> (tensor<3xf32>, tensor<4xf32>)
  return
}

// -----

func.func @split_result(%x: tensor<6x2xf32>) {
  // expected-error @+1 {{'ge.split' op result #1 has shape [3, 3] but expected [3, 2]}}
  %0:2 = ge.split %x : (tensor<6x2xf32>) -> (tensor<3x2xf32>, tensor<3x3xf32>)
  return
}

// -----

func.func @split_dtype(%x: tensor<6xf32>) {
  // expected-error @+1 {{'ge.split' op results must have the input's element type 'f32'}}
  %0:2 = ge.split %x : (tensor<6xf32>) -> (tensor<3xf32>, tensor<3xf16>)
  return
}

// -----

func.func @squeeze_not_one(%x: tensor<1x3xf32>) {
  %a = ge.constant dense<1> : tensor<1xi64>
  // expected-error @+1 {{'ge.squeeze' op cannot squeeze dim 1 of size 3}}
  %0 = ge.squeeze %x, %a : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<1xf32>
  return
}

// -----

func.func @squeeze_result(%x: tensor<1x3x1xf32>) {
  // expected-error @+1 {{'ge.squeeze' op result has shape [3, 1] but expected [3]}}
  %0 = ge.squeeze %x : (tensor<1x3x1xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @unsqueeze_repeat(%x: tensor<3xf32>) {
  %a = ge.constant dense<[0, -3]> : tensor<2xi64>
  // expected-error @+1 {{'ge.unsqueeze' op axis -3 is repeated}}
  %0 = ge.unsqueeze %x, %a : (tensor<3xf32>, tensor<2xi64>) -> tensor<1x1x3xf32>
  return
}

// -----

func.func @unsqueeze_result(%x: tensor<3xf32>) {
  %a = ge.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ge.unsqueeze' op result has shape [1, 3] but expected [3, 1]}}
  %0 = ge.unsqueeze %x, %a : (tensor<3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
  return
}

// -----

func.func @unsqueeze_rank(%x: tensor<3xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'ge.unsqueeze' op result has rank 2 but expected 3}}
  %0 = ge.unsqueeze %x, %a : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @tile_length(%x: tensor<2x3xf32>, %r: tensor<3xi64>) {
  // expected-error @+1 {{'ge.tile' op operand 'repeats' has 3 values but the input has rank 2}}
  %0 = ge.tile %x, %r : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @tile_result(%x: tensor<2x3xf32>) {
  %r = ge.constant dense<[2, 2]> : tensor<2xi64>
  // expected-error @+1 {{'ge.tile' op result has shape [4, 3] but expected [4, 6]}}
  %0 = ge.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @tile_overflow(%x: tensor<2x3xf32>) {
  %r = ge.constant dense<[1, 4611686018427387904]> : tensor<2xi64>
  // expected-error @+1 {{'ge.tile' op repeats [1, 4611686018427387904] overflow int64 dims on input [2, 3]}}
  %0 = ge.tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @transpose_perm(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.transpose' op attribute 'perm': perm [0, 0] is not a permutation of [0, 2)}}
  %0 = ge.transpose %x {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.transpose' op result has shape [2, 3] but expected [3, 2]}}
  %0 = ge.transpose %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.resize' op attribute 'mode' is "bicubic" but must be nearest, linear or cubic}}
  %0 = ge.resize %x scales %s {mode = "bicubic"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_ctm(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.resize' op attribute 'coordinate_transformation_mode' is "bogus"}}
  %0 = ge.resize %x scales %s {coordinate_transformation_mode = "bogus"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_nearest_mode(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.resize' op attribute 'nearest_mode' is "round"}}
  %0 = ge.resize %x scales %s {nearest_mode = "round"} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_both(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>, %z: tensor<4xi64>) {
  // expected-error @+1 {{'ge.resize' op takes 'scales' or 'sizes', not both}}
  %0 = ge.resize %x scales %s sizes %z : (tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_neither(%x: tensor<1x1x2x2xf32>) {
  // expected-error @+1 {{'ge.resize' op needs one of 'scales' and 'sizes'}}
  %0 = ge.resize %x : (tensor<1x1x2x2xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_length(%x: tensor<1x1x2x2xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'ge.resize' op operand 'scales' has 2 values but the input 'X' has rank 4}}
  %0 = ge.resize %x scales %s : (tensor<1x1x2x2xf32>, tensor<2xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @resize_rank(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'ge.resize' op result has rank 3 but the input 'X' has rank 4}}
  %0 = ge.resize %x scales %s : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?xf32>
  return
}

// -----

func.func @resize_result(%x: tensor<1x1x2x2xf32>) {
  %s = ge.constant dense<[1.0, 1.0, 1.5, 3.0]> : tensor<4xf32>
  // expected-error @+1 {{'ge.resize' op result has shape [1, 1, 4, 6] but expected [1, 1, 3, 6]}}
  %0 = ge.resize %x scales %s : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<1x1x4x6xf32>
  return
}

// -----

func.func @resize_scale_positive(%x: tensor<1x1x2x2xf32>) {
  %s = ge.constant dense<[1.0, 1.0, 0.0, 3.0]> : tensor<4xf32>
  // expected-error @+1 {{'ge.resize' op scales must be positive, got 0}}
  %0 = ge.resize %x scales %s : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @dropout_training(%x: tensor<4xf32>) {
  %t = ge.constant dense<true> : tensor<i1>
  // expected-error @+1 {{'ge.dropout' op training_mode is true and the ratio is not a constant 0, but only inference dropout is supported}}
  %0:2 = ge.dropout %x training_mode %t : (tensor<4xf32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @dropout_training_ratio(%x: tensor<4xf32>) {
  %t = ge.constant dense<true> : tensor<i1>
  %r = ge.constant dense<0.1> : tensor<f32>
  // expected-error @+1 {{'ge.dropout' op training_mode is true and the ratio is not a constant 0}}
  %0:2 = ge.dropout %x ratio %r training_mode %t : (tensor<4xf32>, tensor<f32>, tensor<i1>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @dropout_mask(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.dropout' op result #1 has shape [5] but expected [4]}}
  %0:2 = ge.dropout %x : (tensor<4xf32>) -> (tensor<4xf32>, tensor<5xi1>)
  return
}

// -----

func.func @dropout_ratio(%x: tensor<4xf32>, %r: tensor<2xf32>) {
  // expected-error @+1 {{'ge.dropout' op operand 'ratio' has shape [2] but must hold exactly one element}}
  %0:2 = ge.dropout %x ratio %r : (tensor<4xf32>, tensor<2xf32>) -> (tensor<4xf32>, tensor<4xi1>)
  return
}

// -----

func.func @range_huge() {
  %s = ge.constant dense<0.0> : tensor<f32>
  %l = ge.constant dense<0x7F800000> : tensor<f32>
  %d = ge.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'ge.range' op has a non-finite or huge length}}
  %0 = ge.range %s, %l, %d : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return
}
