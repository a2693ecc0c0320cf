// RUN: geflow-opt %s -split-input-file -verify-diagnostics

func.func @gather_elements_rank(%x: tensor<3x4xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{'ge.gather_elements' op operand 'indices' has rank 1 but must have rank 2}}
  %0 = ge.gather_elements %x, %i : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_elements_axis(%x: tensor<3x4xf32>, %i: tensor<2x4xi64>) {
  // expected-error @+1 {{'ge.gather_elements' op attribute 'axis' is 2 but the input has rank 2 (allowed range [-2, 2))}}
  %0 = ge.gather_elements %x, %i {axis = 2 : i64} : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @gather_elements_result(%x: tensor<3x4xf32>, %i: tensor<2x4xi64>) {
  // expected-error @+1 {{'ge.gather_elements' op result has shape [3, 4] but expected [2, 4]}}
  %0 = ge.gather_elements %x, %i : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gather_elements_index_type(%x: tensor<3x4xf32>, %i: tensor<2x4xf32>) {
  // expected-error @+1 {{'ge.gather_elements' op operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values}}
  %0 = ge.gather_elements %x, %i : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @scatter_elements_reduction(%x: tensor<3xf32>, %i: tensor<1xi64>, %u: tensor<1xf32>) {
  // expected-error @+1 {{'ge.scatter_elements' op attribute 'reduction' is "sum" but must be one of none, add, mul, max, min}}
  %0 = ge.scatter_elements %x, %i, %u {reduction = "sum"} : (tensor<3xf32>, tensor<1xi64>, tensor<1xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @scatter_elements_updates(%x: tensor<3xf32>, %i: tensor<1xi64>, %u: tensor<2xf32>) {
  // expected-error @+1 {{'ge.scatter_elements' op operand 'updates' has shape [2] but 'indices' has [1]}}
  %0 = ge.scatter_elements %x, %i, %u : (tensor<3xf32>, tensor<1xi64>, tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_depth(%x: tensor<3x4xf32>, %i: tensor<2x3xi64>) {
  // expected-error @+1 {{'ge.gather_nd' op the last dim of 'indices' is 3 but must be in [1, 2] (rank of 'data' minus batch_dims)}}
  %0 = ge.gather_nd %x, %i : (tensor<3x4xf32>, tensor<2x3xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_batch_dims(%x: tensor<3x4xf32>, %i: tensor<3x1xi64>) {
  // expected-error @+1 {{'ge.gather_nd' op attribute 'batch_dims' is 2 but must be in [0, min(rank of 'data', rank of 'indices'))}}
  %0 = ge.gather_nd %x, %i {batch_dims = 2 : i64} : (tensor<3x4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  return
}

// -----

func.func @gather_nd_batch_mismatch(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>) {
  // expected-error @+1 {{'ge.gather_nd' op batch dim 0 is 3 in 'data' but 2 in 'indices'}}
  %0 = ge.gather_nd %x, %i {batch_dims = 1 : i64} : (tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<3x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{'ge.scatter_nd' op operand 'updates' has shape [2, 3] but expected [2, 4] (indices.shape[:-1] + data.shape[m:])}}
  %0 = ge.scatter_nd %x, %i, %u : (tensor<3x4xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @one_hot_values(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'ge.one_hot' op operand 'values' has 3 elements but must hold [off_value, on_value]}}
  %0 = ge.one_hot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<3xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @one_hot_depth(%i: tensor<3xi64>, %v: tensor<2xf32>) {
  %d = ge.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ge.one_hot' op depth is 0 but must be >= 1}}
  %0 = ge.one_hot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x1xf32>
  return
}

// -----

func.func @one_hot_axis(%i: tensor<3xi64>, %d: tensor<i64>, %v: tensor<2xf32>) {
  // expected-error @+1 {{'ge.one_hot' op attribute 'axis' is 2 but the output has rank 2 (allowed range [-2, 2))}}
  %0 = ge.one_hot %i, %d, %v {axis = 2 : i64} : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @max_unpool_kernel(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) {
  // expected-error @+1 {{'ge.max_unpool' op needs 2 kernel_shape and strides values and 4 pads for input 'X' of rank 4}}
  %0 = ge.max_unpool %x, %i {kernel_shape = array<i64: 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @max_unpool_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) {
  // expected-error @+1 {{'ge.max_unpool' op result has shape [1, 1, 4, 4] but expected [1, 1, 3, 3]}}
  %0 = ge.max_unpool %x, %i {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @grid_sample_mode(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) {
  // expected-error @+1 {{'ge.grid_sample' op attribute 'mode' is "linear" but must be one of bilinear, nearest, bicubic}}
  %0 = ge.grid_sample %x, %g {mode = "linear"} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @grid_sample_grid(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x3xf32>) {
  // expected-error @+1 {{'ge.grid_sample' op operand 'grid' has shape [1, 2, 2, 3] but expected [N, H_out, W_out, 2] with N = 1}}
  %0 = ge.grid_sample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x2x2x3xf32>) -> tensor<1x1x2x2xf32>
  return
}

// -----

func.func @grid_sample_5d(%x: tensor<1x1x2x4x4xf32>, %g: tensor<1x2x2x2x3xf32>) {
  // expected-error @+1 {{'ge.grid_sample' op operand 'X' has rank 5 but must have rank 4}}
  %0 = ge.grid_sample %x, %g : (tensor<1x1x2x4x4xf32>, tensor<1x2x2x2x3xf32>) -> tensor<1x1x2x2x2xf32>
  return
}

// -----

func.func @roi_align_mode(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ge.roi_align' op attribute 'mode' is "sum" but must be one of avg, max}}
  %0 = ge.roi_align %x, %r, %b {mode = "sum"} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return
}

// -----

func.func @roi_align_rois(%x: tensor<1x1x4x4xf32>, %r: tensor<2x5xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ge.roi_align' op operand 'rois' has shape [2, 5] but expected [num_rois, 4]}}
  %0 = ge.roi_align %x, %r, %b : (tensor<1x1x4x4xf32>, tensor<2x5xf32>, tensor<2xi64>) -> tensor<2x1x1x1xf32>
  return
}

// -----

func.func @roi_align_batch_indices(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<3xi64>) {
  // expected-error @+1 {{'ge.roi_align' op operand 'batch_indices' has 3 entries but there are 2 rois}}
  %0 = ge.roi_align %x, %r, %b : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<3xi64>) -> tensor<2x1x1x1xf32>
  return
}

// -----

func.func @roi_align_output_size(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ge.roi_align' op attribute 'output_height' is 0 but must be >= 1}}
  %0 = ge.roi_align %x, %r, %b {output_height = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<2x1x0x1xf32>
  return
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{'ge.depth_to_space' op input has 6 channels, not a multiple of blocksize^2 = 4}}
  %0 = ge.depth_to_space %x {blocksize = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @depth_to_space_mode(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'ge.depth_to_space' op attribute 'mode' is "RCD" but must be one of DCR, CRD}}
  %0 = ge.depth_to_space %x {blocksize = 2 : i64, mode = "RCD"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @depth_to_space_blocksize(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'ge.depth_to_space' op attribute 'blocksize' is 0 but must be >= 1}}
  %0 = ge.depth_to_space %x {blocksize = 0 : i64} : (tensor<1x8x2x2xf32>) -> tensor<1x8x2x2xf32>
  return
}

// -----

func.func @depth_to_space_missing_blocksize(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{'ge.depth_to_space' op requires attribute 'blocksize'}}
  %0 = ge.depth_to_space %x : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @space_to_depth_spatial(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+1 {{'ge.space_to_depth' op input dim 2 is 3, not a multiple of blocksize 2}}
  %0 = ge.space_to_depth %x {blocksize = 2 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x8x1x2xf32>
  return
}

// -----

func.func @trilu_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{'ge.trilu' op operand 'input' has rank 1 but must have rank >= 2}}
  %0 = ge.trilu %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @trilu_k(%x: tensor<3x4xf32>, %k: tensor<2xi64>) {
  // expected-error @+1 {{'ge.trilu' op operand 'k' has shape [2] but must hold exactly one element}}
  %0 = ge.trilu %x, %k : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @trilu_upper(%x: tensor<3x4xf32>) {
  // expected-error @+1 {{'ge.trilu' op attribute 'upper' is 2 but must be 0 or 1}}
  %0 = ge.trilu %x {upper = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @eye_like_rank(%x: tensor<3x4x5xf32>) {
  // expected-error @+1 {{'ge.eye_like' op operand 'input' has rank 3 but must have rank 2}}
  %0 = ge.eye_like %x : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return
}

// -----

func.func @reverse_sequence_axes(%x: tensor<3x4xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{'ge.reverse_sequence' op attributes 'batch_axis' = 1 and 'time_axis' = 1 must be 0 and 1 in some order}}
  %0 = ge.reverse_sequence %x, %l {time_axis = 1 : i64} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @reverse_sequence_lens(%x: tensor<3x4xf32>, %l: tensor<3xi64>) {
  // expected-error @+1 {{'ge.reverse_sequence' op operand 'sequence_lens' has 3 entries but the batch axis has 4}}
  %0 = ge.reverse_sequence %x, %l : (tensor<3x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @space_to_depth_huge_block(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{'ge.space_to_depth' op attribute 'blocksize' is 1099511627776, too large for the input}}
  %0 = ge.space_to_depth %x {blocksize = 1099511627776 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x8x2x2xf32>
  return
}
