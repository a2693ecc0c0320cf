//===- AippPrologue.h - ATC's static AIPP as ONNX nodes ---------*- C++ -*-===//
//
// ATC's --insert_op_conf puts AIPP (AI pre-processing) before a model input:
// the input becomes a uint8 image and the hardware converts it into what the
// model was trained on. geflow makes the same conversion from ONNX nodes
// placed before the input's readers, in this order (ATC's):
//   image     RGB888_U8 [N, src_h, src_w, 3], or YUV420SP_U8 (NV12: the Y
//             plane, then interleaved U and V at half resolution)
//             [N, src_h * 3 / 2, src_w, 1]; src_image_size_h/w 0 is the
//             model's H and W
//   swap      rbuv_swap_switch: R and B, or U and V, exchange places
//   crop      crop: load_start_pos_h/w, crop_size_h/w (0: the model's H, W)
//   CSC       csc_switch: YUV to RGB, out = (M (in - input_bias)) >> 8, or
//             RGB to YUV, out = (M in) >> 8 + output_bias, each clamped to
//             0..255 (matrix_r<i>c<j> is M; ATC's defaults when absent)
//   DTC       out = (in - mean_chn_i - min_chn_i) * var_reci_chn_i
//   layout    NHWC to the model's NCHW, in the input's float type
// The image keeps the input's name. Dynamic AIPP, resize, padding, other
// input formats and the fields of a fourth channel are one-line errors.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_AIPPPROLOGUE_H
#define GEFLOW_FRONTENDS_ONNX_AIPPPROLOGUE_H

#include "frontends/onnx/GraphRewrites.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace geflow::onnxfe {

/// Reads the insert_op.cfg at `configPath` (protobuf text of
/// AippConfig.proto) and puts an AIPP prologue before each model input one
/// of its aipp_op entries names; `names` gives the new values theirs.
/// Returns the names of those inputs. Errors are one line naming the file,
/// the aipp_op and the field.
llvm::Expected<std::vector<std::string>>
insertAippPrologues(onnx::ModelProto &model, llvm::StringRef configPath,
                    ValueNames &names);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_AIPPPROLOGUE_H
