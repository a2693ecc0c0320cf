// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @unary_type_mismatch(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.relu' op requires the same type for all operands and results}}
  %0 = "ge.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @float_only(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.exp' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.exp %x : tensor<4xi32>
  return
}

// -----

func.func @not_bool(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.not' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.not %x : tensor<4xf32>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{'ge.relu' op operand #0 must be ranked tensor}}
  %0 = "ge.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @clip_bound_not_scalar(%x: tensor<4xf32>, %lo: tensor<2xf32>) {
  // expected-error @+1 {{'ge.clip' op operand 'min' has shape [2] but must hold exactly one element}}
  %0 = ge.clip %x min %lo : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @clip_bound_dtype(%x: tensor<4xf32>, %lo: tensor<f16>) {
  // expected-error @+1 {{'ge.clip' op operand 'min' has element type 'f16' but the input has 'f32'}}
  %0 = ge.clip %x min %lo : (tensor<4xf32>, tensor<f16>) -> tensor<4xf32>
  return
}

// -----

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'ge.add' op operands do not broadcast: shapes [2, 3] and [4] do not broadcast (3 vs 4)}}
  %0 = ge.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @add_wrong_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ge.add' op result has shape [3, 3] but expected [2, 3]}}
  %0 = ge.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @add_wrong_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'ge.sub' op result has shape [6] but expected [2, 3]}}
  %0 = ge.sub %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @add_dtype(%a: tensor<3xf32>, %b: tensor<3xi32>) {
  // expected-error @+1 {{'ge.mul' op requires the same element type for all operands and results}}
  %0 = ge.mul %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  return
}

// -----

func.func @add_bool(%a: tensor<3xi1>) {
  // expected-error @+1 {{'ge.div' op operand #0 must be ranked tensor of}}
  %0 = ge.div %a, %a : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @compare_result_not_bool(%a: tensor<3xf32>) {
  // expected-error @+1 {{'ge.greater' op result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.greater %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @compare_shape(%a: tensor<3xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{'ge.equal' op result has shape [3] but expected [2, 3]}}
  %0 = ge.equal %a, %b : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<3xi1>
  return
}

// -----

func.func @pow_shape(%a: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'ge.pow' op operands do not broadcast}}
  %0 = ge.pow %a, %b : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @prelu_slope(%x: tensor<2x3xf32>, %s: tensor<2x1x3xf32>) {
  // expected-error @+1 {{'ge.prelu' op slope of shape [2, 1, 3] does not broadcast to the input shape [2, 3]}}
  %0 = ge.prelu %x, %s : (tensor<2x3xf32>, tensor<2x1x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @variadic_empty() {
  // expected-error @+1 {{'ge.max' op expected 1 or more operands, but found 0}}
  %0 = ge.max : () -> tensor<3xf32>
  return
}

// -----

func.func @variadic_shape(%a: tensor<3xf32>, %b: tensor<2x1xf32>) {
  // expected-error @+1 {{'ge.sum' op result has shape [2, 1] but expected [2, 3]}}
  %0 = ge.sum %a, %b : (tensor<3xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @where_condition(%c: tensor<3xf32>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'ge.where' op operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = ge.where %c, %x, %x : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @where_shape(%c: tensor<2x1xi1>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'ge.where' op result has shape [3] but expected [2, 3]}}
  %0 = ge.where %c, %x, %x : (tensor<2x1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @ceil_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.ceil' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.ceil %x : tensor<4xi32>
  return
}

// -----

func.func @cos_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.cos' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.cos %x : tensor<4xi32>
  return
}

// -----

func.func @elu_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.elu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.elu %x : tensor<4xi32>
  return
}

// -----

func.func @erf_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.erf' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.erf %x : tensor<4xi32>
  return
}

// -----

func.func @floor_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.floor' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.floor %x : tensor<4xi32>
  return
}

// -----

func.func @hard_sigmoid_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.hard_sigmoid' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.hard_sigmoid %x : tensor<4xi32>
  return
}

// -----

func.func @hard_swish_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.hard_swish' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.hard_swish %x : tensor<4xi32>
  return
}

// -----

func.func @leaky_relu_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.leaky_relu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.leaky_relu %x : tensor<4xi32>
  return
}

// -----

func.func @log_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.log' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.log %x : tensor<4xi32>
  return
}

// -----

func.func @reciprocal_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.reciprocal' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.reciprocal %x : tensor<4xi32>
  return
}

// -----

func.func @selu_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.selu' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.selu %x : tensor<4xi32>
  return
}

// -----

func.func @sigmoid_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.sigmoid' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.sigmoid %x : tensor<4xi32>
  return
}

// -----

func.func @sin_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.sin' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.sin %x : tensor<4xi32>
  return
}

// -----

func.func @softplus_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.softplus' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.softplus %x : tensor<4xi32>
  return
}

// -----

func.func @softsign_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.softsign' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.softsign %x : tensor<4xi32>
  return
}

// -----

func.func @sqrt_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.sqrt' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.sqrt %x : tensor<4xi32>
  return
}

// -----

func.func @tanh_dtype(%x: tensor<4xi32>) {
  // expected-error @+1 {{'ge.tanh' op operand #0 must be ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.tanh %x : tensor<4xi32>
  return
}

// -----

func.func @abs_dtype(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ge.abs' op operand #0 must be ranked tensor of}}
  %0 = ge.abs %x : tensor<4xi1>
  return
}

// -----

func.func @sign_dtype(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ge.sign' op operand #0 must be ranked tensor of}}
  %0 = ge.sign %x : tensor<4xi1>
  return
}

// -----

func.func @neg_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'ge.neg' op operand #0 must be ranked tensor of}}
  %0 = ge.neg %x : tensor<4xui8>
  return
}

// -----

func.func @relu_unsigned(%x: tensor<4xui8>) {
  // expected-error @+1 {{'ge.relu' op operand #0 must be ranked tensor of}}
  %0 = ge.relu %x : tensor<4xui8>
  return
}

// -----

func.func @identity_shape(%x: tensor<4xi1>) {
  // expected-error @+1 {{'ge.identity' op requires the same type for all operands and results}}
  %0 = "ge.identity"(%x) : (tensor<4xi1>) -> tensor<4xi8>
  return
}

// -----

func.func @less_shape(%a: tensor<3xi64>, %b: tensor<2x1xi64>) {
  // expected-error @+1 {{'ge.less' op result has shape [2, 2] but expected [2, 3]}}
  %0 = ge.less %a, %b : (tensor<3xi64>, tensor<2x1xi64>) -> tensor<2x2xi1>
  return
}

// -----

func.func @min_broadcast(%a: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'ge.min' op operands do not broadcast: shapes [3] and [2] do not broadcast (3 vs 2)}}
  %0 = ge.min %a, %b : (tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @mean_dtype(%a: tensor<3xi32>) {
  // expected-error @+1 {{'ge.mean' op operand #0 must be variadic of ranked tensor of 16-bit float or bfloat16 type or 32-bit float or 64-bit float values}}
  %0 = ge.mean %a : (tensor<3xi32>) -> tensor<3xi32>
  return
}
