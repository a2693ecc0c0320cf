//===- ChannelBlocks.cpp - trans_data and blocked global pooling ----------===//
//
// Vector work (AIV). trans_data: work items are (image, block of 16
// channels, run of kPositionsPerItem positions), each a transpose of up to
// 16 planes' run into interleaved positions or back (TransposeTiles.h); into
// NC1HWC0 the lanes past C are written 0. global_average_pool in NC1HWC0:
// one item per (image, block), 16 lanes summed a position at a time. Cost:
// no FLOPs for trans_data, one per input element for the pool; bytes: X
// and Y.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/layout/ChannelBlocks.h"

#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/conv/ConvTaps.h"
#include "executor/kernels/layout/TransposeTiles.h"
#include "executor/kernels/support/KernelSupport.h"
#include "executor/kernels/support/NnSupport.h"

#include <algorithm>

using namespace geflow;
using namespace geflow::kernels;

namespace {

constexpr int64_t kLanes = nn::kChannelBlock;
constexpr int64_t kPositionsPerItem = 1024;

/// [N, C, H, W] and the direction of a trans_data op.
struct TransDataPlan {
  int64_t batch = 0, channels = 0, positions = 0;
  bool toBlocked = true;

  int64_t blocks() const { return ceilDiv(channels, kLanes); }
  int64_t runs() const {
    return std::max<int64_t>(1, ceilDiv(positions, kPositionsPerItem));
  }
  int64_t items() const { return batch * blocks() * runs(); }
};

rt::Status analyzeTransData(const om::OpDef &op, TransDataPlan *p) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() != 1 || op.output_desc_size() != 1)
    return opError(op, "needs one input and one output");
  const std::string from = attrString(op, "src_format", ""),
                    to = attrString(op, "dst_format", "");
  p->toBlocked = from == "NCHW" && to == "NC1HWC0";
  if (!p->toBlocked && !(from == "NC1HWC0" && to == "NCHW"))
    return opError(op, "converts NCHW to NC1HWC0 or back, not '" + from +
                           "' to '" + to + "'");
  const std::vector<int64_t> plain =
      shapeOf(p->toBlocked ? op.input_desc(0) : op.output_desc(0));
  const std::vector<int64_t> blocked =
      shapeOf(p->toBlocked ? op.output_desc(0) : op.input_desc(0));
  if (plain.size() != 4 || blocked.size() != 5 || blocked[4] != kLanes ||
      blocked[0] != plain[0] || blocked[1] != ceilDiv(plain[1], kLanes) ||
      blocked[2] != plain[2] || blocked[3] != plain[3])
    return opError(op, "shapes are not NCHW and its NC1HWC0");
  p->batch = plain[0];
  p->channels = plain[1];
  p->positions = plain[2] * plain[3];
  return rt::Status::ok();
}

rt::Status planTransData(const om::OpDef &op, KernelPlan *out) {
  TransDataPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeTransData(op, &p));
  out->engine = rt::Engine::kAiv;
  out->cost.bytes =
      4.0 * (numElements(op.input_desc(0)) + numElements(op.output_desc(0)));
  out->maxBlocks = nn::blocksForVectorWork(
      p.items(), 0.0, out->cost.bytes / std::max<int64_t>(p.items(), 1));
  return rt::Status::ok();
}

class TransDataKernel final : public Kernel {
public:
  explicit TransDataKernel(const TransDataPlan &p) : p_(p) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    float *y = static_cast<float *>(outputs[0].data);
    const BlockRange items = blockRange(p_.items(), blockIdx, blockDim);
    const int64_t hw = p_.positions;
    for (int64_t i = items.begin; i < items.end; ++i) {
      const int64_t nb = i / p_.runs(), n = nb / p_.blocks();
      const int64_t c0 = nb % p_.blocks() * kLanes;
      const int64_t count = std::min(kLanes, p_.channels - c0);
      const int64_t q0 = i % p_.runs() * kPositionsPerItem;
      const int64_t q1 = std::min(hw, q0 + kPositionsPerItem);
      if (p_.toBlocked) {
        const float *plane = x + (n * p_.channels + c0) * hw + q0;
        float *block = y + (nb * hw + q0) * kLanes;
        if (count < kLanes)
          for (int64_t q = 0; q < q1 - q0; ++q)
            std::fill(block + q * kLanes + count, block + (q + 1) * kLanes,
                      0.0f);
        nn::transposeMatrix(plane, hw, count, q1 - q0, block, kLanes);
      } else {
        nn::transposeMatrix(x + (nb * hw + q0) * kLanes, kLanes, q1 - q0, count,
                            y + (n * p_.channels + c0) * hw + q0, hw);
      }
    }
    return rt::Status::ok();
  }

private:
  const TransDataPlan p_;
};

rt::Status createTransData(const KernelSpec &spec,
                           std::unique_ptr<Kernel> *out) {
  TransDataPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeTransData(*spec.op, &p));
  *out = std::make_unique<TransDataKernel>(p);
  return rt::Status::ok();
}

/// Blocks (image x C1) and positions of a blocked global_average_pool.
struct BlockedPoolPlan {
  int64_t blocks = 0, positions = 0;
};

rt::Status analyzeBlockedPool(const om::OpDef &op, BlockedPoolPlan *p) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() != 1 || op.output_desc_size() != 1)
    return opError(op, "needs one input and one output");
  const std::vector<int64_t> x = shapeOf(op.input_desc(0)),
                             y = shapeOf(op.output_desc(0));
  if (x.size() != 5 || x[4] != kLanes ||
      y != std::vector<int64_t>{x[0], x[1], 1, 1, kLanes})
    return opError(op,
                   "NC1HWC0 needs X [N, C1, H, W, 16], Y [N, C1, 1, 1, 16]");
  p->blocks = x[0] * x[1];
  p->positions = x[2] * x[3];
  return rt::Status::ok();
}

class BlockedGlobalAverageKernel final : public Kernel {
public:
  explicit BlockedGlobalAverageKernel(const BlockedPoolPlan &p) : p_(p) {}

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    float *y = static_cast<float *>(outputs[0].data);
    const BlockRange items = blockRange(p_.blocks, blockIdx, blockDim);
    const float scale = 1.0f / static_cast<float>(p_.positions);
    for (int64_t b = items.begin; b < items.end; ++b) {
      const float *block = x + b * p_.positions * kLanes;
      float sum[kLanes] = {};
      for (int64_t q = 0; q < p_.positions; ++q)
        for (int64_t l = 0; l < kLanes; ++l)
          sum[l] += block[q * kLanes + l];
      for (int64_t l = 0; l < kLanes; ++l)
        y[b * kLanes + l] = sum[l] * scale;
    }
    return rt::Status::ok();
  }

private:
  const BlockedPoolPlan p_;
};

} // namespace

bool kernels::isChannelBlocked(const om::OpDef &op) {
  return attrString(op, "data_format", "NCHW") == "NC1HWC0";
}

rt::Status kernels::planBlockedGlobalAverage(const om::OpDef &op,
                                             KernelPlan *out) {
  BlockedPoolPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeBlockedPool(op, &p));
  out->engine = rt::Engine::kAiv;
  const double perBlock = static_cast<double>(p.positions) * kLanes;
  out->cost.flops = perBlock * p.blocks;
  out->cost.bytes = 4.0 * (perBlock + kLanes) * p.blocks;
  out->maxBlocks = nn::blocksForVectorWork(p.blocks, perBlock, 4.0 * perBlock);
  return rt::Status::ok();
}

rt::Status kernels::createBlockedGlobalAverage(const KernelSpec &spec,
                                               std::unique_ptr<Kernel> *out) {
  BlockedPoolPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeBlockedPool(*spec.op, &p));
  *out = std::make_unique<BlockedGlobalAverageKernel>(p);
  return rt::Status::ok();
}

void kernels::registerChannelBlockKernels(KernelRegistry &registry) {
  registry.add("trans_data", {planTransData, createTransData});
}
