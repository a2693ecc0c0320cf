//===- ConvShape.h - the shapes conv and conv_transpose share ---*- C++ -*-===//
//
// Both kernels read X, W, an optional bias B and Y the same way; they differ
// in which side the window slides over, so one analysis serves both.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHAPE_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHAPE_H

#include "executor/kernels/Kernel.h"
#include "executor/kernels/support/NnSupport.h"

#include <cstdint>

namespace geflow::kernels {

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

/// Shapes shared by conv and conv_transpose. For conv, `w` slides over X
/// (in = X's spatial dims, out = Y's); for conv_transpose over Y (in = Y's
/// spatial dims, out = X's), which makes col2im the transpose of im2col.
struct ConvShape {
  int64_t batch = 0, inChannels = 0, outChannels = 0, group = 1;
  nn::Window w;
  bool hasBias = false;
  bool hasResidual = false; // fused_conv's Z, Y's shape
  // data_format NC1HWC0: X [N, C1, H, W, 16], Y and Z [N, M1, OH, OW, 16]
  // (nn::kChannelBlock lanes); the channel counts are W's.
  bool blocked = false;
  int64_t xElems = 0, wElems = 0, yElems = 0;

  int64_t inPerGroup() const { return inChannels / group; }
  int64_t outPerGroup() const { return outChannels / group; }
  /// float bytes read (X, W, B, Z) and written (Y).
  double ioBytes() const {
    return 4.0 * (xElems + wElems + yElems + (hasBias ? outChannels : 0) +
                  (hasResidual ? yElems : 0));
  }
};

/// One run's buffers of a conv: X, W, B and Z (null when absent), Y.
struct ConvBuffers {
  const float *x, *w, *bias, *residual;
  float *y;

  static ConvBuffers of(const ConvShape &s, const TensorView *inputs,
                        const TensorView *outputs) {
    auto in = [&](int i) { return static_cast<const float *>(inputs[i].data); };
    return {in(0), in(1), s.hasBias ? in(2) : nullptr,
            s.hasResidual ? in(3) : nullptr,
            static_cast<float *>(outputs[0].data)};
  }
};

/// Checks op's X, W, B (and fused_conv's Z) against each other and resolves
/// the window; conv_transpose's pads follow ONNX's output_shape / auto_pad.
rt::Status analyzeConvShape(const om::OpDef &op, bool transpose, ConvShape *s);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVSHAPE_H
