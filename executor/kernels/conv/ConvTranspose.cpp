//===- ConvTranspose.cpp - conv_transpose as a GEMM and col2im ------------===//
//
// Per image and group, col[(M/g * prod(kernel)) x Pin] = W_g^T * X_g, then
// col2im adds each column into Y. Block split: (image x group x output-channel
// tile), so the scatter of a block stays in channels it owns.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/conv/ConvColumns.h"
#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/support/NnSupport.h"

#include <Eigen/Core>

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;

namespace {

using ArrayMap = Eigen::Map<Eigen::ArrayXf>;

/// Output channels per work item of conv_transpose.
constexpr int64_t kTransposeChannelTile = 4;

struct ConvTransposePlan {
  ConvShape s;
  int64_t pin = 0;  // input positions per image (GEMM columns)
  int64_t taps = 0; // prod(kernel)
  int64_t channelTiles = 1;

  int64_t items() const { return s.batch * s.group * channelTiles; }
};

rt::Status analyzeConvTranspose(const om::OpDef &op, ConvTransposePlan *c) {
  GEFLOW_RT_RETURN_IF_ERROR(analyzeConvShape(op, true, &c->s));
  c->pin = c->s.w.outSize();
  c->taps = c->s.w.kernelSize();
  c->channelTiles = ceilDiv(c->s.outPerGroup(), kTransposeChannelTile);
  return rt::Status::ok();
}

rt::Status planConvTranspose(const om::OpDef &op, KernelPlan *out) {
  ConvTransposePlan c;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeConvTranspose(op, &c));
  out->engine = rt::Engine::kAic;
  double flopsPerItem =
      2.0 * kTransposeChannelTile * c.taps * c.s.inPerGroup() * c.pin;
  out->maxBlocks = nn::blocksForFlops(c.items(), flopsPerItem);
  out->cost.flops =
      2.0 * c.s.batch * c.s.inChannels * c.s.outPerGroup() * c.taps * c.pin +
      static_cast<double>(c.s.yElems);
  out->cost.bytes = c.s.ioBytes();
  return rt::Status::ok();
}

class ConvTransposeKernel final : public Kernel {
public:
  explicit ConvTransposeKernel(const ConvTransposePlan &c) : c_(c) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const ConvShape &s = c_.s;
    const float *x = static_cast<const float *>(inputs[0].data);
    const float *wt = static_cast<const float *>(inputs[1].data);
    const float *bias =
        s.hasBias ? static_cast<const float *>(inputs[2].data) : nullptr;
    float *y = static_cast<float *>(outputs[0].data);
    const int64_t mg = s.outPerGroup(), cg = s.inPerGroup();
    const int64_t ysz = s.w.inSize(); // Y's spatial size (the window's input)
    BlockRange items = blockRange(c_.items(), blockIdx, blockDim);
    float *col = nn::scratch(kTransposeChannelTile * c_.taps * c_.pin);
    for (int64_t i = items.begin; i < items.end; ++i) {
      int64_t tile = i % c_.channelTiles, ng = i / c_.channelTiles;
      int64_t g = ng % s.group, n = ng / s.group;
      int64_t m0 = tile * kTransposeChannelTile;
      int64_t m1 = std::min(mg, m0 + kTransposeChannelTile);
      int64_t rows = (m1 - m0) * c_.taps;
      // W_g is [C/g, M/g * taps]; its columns m0*taps .. m1*taps, transposed.
      const float *wg = wt + g * cg * mg * c_.taps + m0 * c_.taps;
      const float *xg = x + (n * s.inChannels + g * cg) * c_.pin;
      nn::gemm(true, false, rows, c_.pin, cg, 1.0f, wg, mg * c_.taps, xg,
               c_.pin, 0.0f, col, c_.pin);
      float *yc = y + (n * s.outChannels + g * mg + m0) * ysz;
      for (int64_t m = m0; m < m1; ++m)
        ArrayMap(yc + (m - m0) * ysz, ysz)
            .setConstant(bias ? bias[g * mg + m] : 0.0f);
      nn::col2im(s.w, col, m1 - m0, yc);
    }
    return rt::Status::ok();
  }

private:
  const ConvTransposePlan c_;
};

constexpr CreateFn createConvTranspose =
    &nn::createFromPlan<ConvTransposeKernel, ConvTransposePlan,
                        analyzeConvTranspose>;

} // namespace

void geflow::kernels::registerConvTransposeKernels(KernelRegistry &registry) {
  registry.add("conv_transpose", {planConvTranspose, createConvTranspose});
}
