//===- Pool.cpp - average/max pooling and their global forms -------------===//
//
// Vector work (AIV). Block split: N*C planes; a block owns a contiguous run of
// planes (2-D float average and max pools: of 16-plane blocks, which run
// interleaved, PoolRows.h's PoolBlock). Cost: one FLOP per window element
// per output; bytes: input plus outputs (max_pool's int64 Indices included).
//
// Windows follow NnSupport's normalised 3-D geometry; the output size is the
// output descriptor's (ceil_mode is already in it), and a window that runs past
// the input is clipped. average_pool divides by the valid elements, or with
// count_include_pad by the window positions inside the padded input; lp_pool
// sums |x|^p over the taps inside the input (padding adds 0). max_pool's
// Indices are flat over the whole input (n, c and spatial), row-major for
// storage_order 0 and column-major within a plane for storage_order 1.
// max_pool also takes the other element types ONNX allows it (float64, int8,
// uint8); the rest is float32. In NC1HWC0 (data_format) 2-D float average
// and max pools take each (image, block of 16 channels) as a PoolBlock
// where it lies; global_average_pool there is ChannelBlocks.cpp's.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/isa/IsaDispatch.h"
#include "executor/kernels/layout/ChannelBlocks.h"
#include "executor/kernels/layout/TransposeTiles.h"
#include "executor/kernels/pool/PoolRows.h"
#include "executor/kernels/support/NnSupport.h"
#include "executor/kernels/support/VectorMath.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using nn::Window;

namespace {

enum class PoolKind { kAverage, kMax, kGlobalAverage, kGlobalMax, kLp };

struct PoolPlan {
  PoolKind kind = PoolKind::kAverage;
  int64_t planes = 0;
  Window w;
  bool countIncludePad = false;
  int64_t lpP = 2; // lp_pool's p
  bool columnMajorIndices = false;
  bool hasIndices = false;
  // data_format NC1HWC0: `planes` counts blocks of pool::kBlockLanes.
  bool blocked = false;
  int64_t inElems = 0, outElems = 0;
  om::DataType dtype = om::DT_FLOAT;
  // Per dim and output index: the taps inside the input [begin, end) and
  // inside the padded input (for count_include_pad), computed once.
  std::vector<std::array<int64_t, 4>> taps[3];
};

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t floorDiv(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/// The taps k of one window dim whose input index o*s - pb + k*d is inside
/// [lo, hi): returns [kBegin, kEnd).
inline void tapRange(int64_t o, int64_t s, int64_t pb, int64_t d, int64_t k,
                     int64_t lo, int64_t hi, int64_t *kBegin, int64_t *kEnd) {
  int64_t start = o * s - pb;
  *kBegin = std::max<int64_t>(0, ceilDiv(std::max<int64_t>(0, lo - start), d));
  *kEnd = std::min<int64_t>(k, floorDiv(hi - 1 - start, d) + 1);
  if (*kEnd < *kBegin)
    *kEnd = *kBegin;
}

rt::Status analyzePool(const om::OpDef &op, PoolKind kind, PoolPlan *p) {
  p->kind = kind;
  p->hasIndices = kind == PoolKind::kMax && op.output_desc_size() > 1;
  if (op.input_desc_size() > 0 && op.output_desc_size() > 0)
    p->dtype = op.input_desc(0).dtype();
  bool otherType = kind == PoolKind::kMax &&
                   (p->dtype == om::DT_DOUBLE || p->dtype == om::DT_INT8 ||
                    p->dtype == om::DT_UINT8);
  if (otherType) {
    if (op.output_desc(0).dtype() != p->dtype)
      return opError(op, "Y must have X's element type");
  } else {
    GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op, p->hasIndices ? 1 : -1));
  }
  if (p->hasIndices && op.output_desc(1).dtype() != om::DT_INT64)
    return opError(op, "Indices must be int64");
  if (op.input_desc_size() != 1)
    return opError(op, "needs exactly one input");
  std::vector<int64_t> x = shapeOf(op.input_desc(0));
  std::vector<int64_t> y = shapeOf(op.output_desc(0));
  if (x.size() < 3 || x.size() > 5)
    return opError(op,
                   "X must have rank 3 to 5, got " + std::to_string(x.size()));
  if (y.size() != x.size() || y[0] != x[0] || y[1] != x[1])
    return opError(op, "Y must be [N, C, ...] like X");
  p->planes = x[0] * x[1];
  if ((kind == PoolKind::kAverage || kind == PoolKind::kMax) &&
      isChannelBlocked(op)) {
    // NC1HWC0: each (image, block) is pool::PoolBlock's interleaved planes.
    if (x.size() != 5 || x[4] != pool::kBlockLanes || y[4] != x[4] ||
        p->hasIndices || p->dtype != om::DT_FLOAT)
      return opError(op, "NC1HWC0 takes float X [N, C1, H, W, 16] and no "
                         "Indices");
    p->blocked = true;
    x.pop_back();
    y.pop_back();
  }
  p->inElems = numElements(op.input_desc(0));
  p->outElems = numElements(op.output_desc(0));
  std::vector<int64_t> xs(x.begin() + 2, x.end()), ys(y.begin() + 2, y.end());
  if (kind == PoolKind::kGlobalAverage || kind == PoolKind::kGlobalMax) {
    for (int64_t d : ys)
      if (d != 1)
        return opError(op, "global pooling output must have unit spatial dims");
    p->w.rank = static_cast<int>(xs.size());
    for (size_t i = 0; i < xs.size(); ++i)
      p->w.in[3 - xs.size() + i] = p->w.kernel[3 - xs.size() + i] = xs[i];
    return rt::Status::ok();
  }
  std::vector<int64_t> kernel = attrInts(op, "kernel_shape");
  if (kernel.size() != xs.size())
    return opError(op, "kernel_shape must have " + std::to_string(xs.size()) +
                           " values");
  p->countIncludePad = attrInt(op, "count_include_pad", 0) != 0;
  p->lpP = attrInt(op, "p", 2);
  if (kind == PoolKind::kLp && p->lpP < 1)
    return opError(op, "p must be >= 1");
  p->columnMajorIndices = attrInt(op, "storage_order", 0) != 0;
  GEFLOW_RT_RETURN_IF_ERROR(
      nn::resolveWindow(op, xs, ys, kernel, /*useDilations=*/true, &p->w));
  const Window &w = p->w;
  for (int d = 0; d < 3; ++d) {
    p->taps[d].resize(w.out[d]);
    for (int64_t o = 0; o < w.out[d]; ++o) {
      std::array<int64_t, 4> &t = p->taps[d][o];
      tapRange(o, w.stride[d], w.padBegin[d], w.dilation[d], w.kernel[d], 0,
               w.in[d], &t[0], &t[1]);
      tapRange(o, w.stride[d], w.padBegin[d], w.dilation[d], w.kernel[d],
               -w.padBegin[d], w.in[d] + w.padEnd[d], &t[2], &t[3]);
    }
  }
  return rt::Status::ok();
}

template <PoolKind Kind>
rt::Status planPool(const om::OpDef &op, KernelPlan *out) {
  if (Kind == PoolKind::kGlobalAverage && isChannelBlocked(op))
    return planBlockedGlobalAverage(op, out);
  PoolPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzePool(op, Kind, &p));
  out->engine = rt::Engine::kAiv;
  double perPlane = static_cast<double>(p.w.outSize()) * p.w.kernelSize() *
                    (p.blocked ? pool::kBlockLanes : 1);
  out->cost.flops = perPlane * p.planes;
  out->cost.bytes =
      static_cast<double>(dtypeSize(p.dtype)) * (p.inElems + p.outElems) +
      (p.hasIndices ? 8.0 * p.outElems : 0.0);
  out->maxBlocks = nn::blocksForVectorWork(
      p.planes, perPlane, out->cost.bytes / std::max<int64_t>(p.planes, 1));
  return rt::Status::ok();
}

} // namespace

namespace geflow::kernels::pool::baseline {
constexpr int kVectorLanes = 4;
#include "executor/kernels/isa/PoolRowsBody.inc"
} // namespace geflow::kernels::pool::baseline

namespace {

class PoolKernel final : public Kernel {
public:
  explicit PoolKernel(const PoolPlan &p) : p_(p) {
    for (int64_t k2 = 0; k2 < p_.w.kernel[2]; ++k2)
      cols_.push_back(nn::tapColumns(p_.w, k2));
    for (const std::array<int64_t, 4> &t : p_.taps[2])
      rowTaps_.push_back(static_cast<float>(countedTaps(t)));
    byPlanes_ = samePlanes();
    byBlocks_ = p_.blocked || inBlocks();
    if ((byBlocks_ || byPlanes_) && p_.kind == PoolKind::kAverage)
      for (int64_t o1 = 0; o1 < p_.w.out[1]; ++o1)
        for (float inner : rowTaps_) {
          const float count =
              static_cast<float>(countedTaps(p_.taps[1][o1])) * inner;
          planeScales_.push_back(count > 0.0f ? 1.0f / count : 0.0f);
        }
  }

  rt::Status run(const TensorView *inputs, const TensorView *outputs,
                 uint32_t blockIdx, uint32_t blockDim) const override {
    const float *x = static_cast<const float *>(inputs[0].data);
    float *y = static_cast<float *>(outputs[0].data);
    int64_t *indices =
        p_.hasIndices ? static_cast<int64_t *>(outputs[1].data) : nullptr;
    BlockRange planes = blockRange(p_.planes, blockIdx, blockDim);
    const int64_t inSize = p_.w.inSize(), outSize = p_.w.outSize();
    if (p_.dtype != om::DT_FLOAT) {
      switch (p_.dtype) {
      case om::DT_DOUBLE:
        maxPlanes<double>(inputs[0].data, outputs[0].data, indices, planes);
        break;
      case om::DT_INT8:
        maxPlanes<int8_t>(inputs[0].data, outputs[0].data, indices, planes);
        break;
      default:
        maxPlanes<uint8_t>(inputs[0].data, outputs[0].data, indices, planes);
        break;
      }
      return rt::Status::ok();
    }
    if (byBlocks_)
      return runBlocks(x, y, blockIdx, blockDim);
    for (int64_t c = planes.begin; c < planes.end; ++c) {
      const float *in = x + c * inSize;
      float *out = y + c * outSize;
      Eigen::Map<const Eigen::ArrayXf> plane(in, inSize);
      switch (p_.kind) {
      case PoolKind::kGlobalAverage:
        *out =
            inSize ? vmath::sum(in, inSize) / static_cast<float>(inSize) : 0.0f;
        break;
      case PoolKind::kGlobalMax:
        *out =
            inSize ? plane.maxCoeff() : -std::numeric_limits<float>::infinity();
        break;
      case PoolKind::kAverage:
        if (byPlanes_)
          sweepPlanes(in, out, GEFLOW_PICK_BODY(pool, sumPlane));
        else
          averagePlaneByRows(in, out);
        break;
      case PoolKind::kLp:
        lpPlane(in, out);
        break;
      case PoolKind::kMax:
        if (byPlanes_ && !indices)
          sweepPlanes(in, out, GEFLOW_PICK_BODY(pool, maxPlane));
        else
          maxPlaneByRows(in, out, indices ? indices + c * outSize : nullptr,
                         c * inSize);
        break;
      }
    }
    return rt::Status::ok();
  }

private:
  /// Of a dim's taps `t` at one output, those average_pool counts: inside
  /// the input, or inside the padded input with count_include_pad.
  int64_t countedTaps(const std::array<int64_t, 4> &t) const {
    return p_.countIncludePad ? t[3] - t[2] : t[1] - t[0];
  }

  /// Whether PoolPlane's sweep applies: windows along the two inner dims
  /// with unit strides and dilations, each output row and column at its
  /// input's, every window with a tap inside (pads under the kernel), and
  /// the outer dim untouched.
  bool samePlanes() const {
    const Window &w = p_.w;
    bool same = w.kernel[0] == 1 && w.stride[0] == 1 && w.padBegin[0] == 0 &&
                w.in[0] == w.out[0];
    for (int d = 1; d < 3; ++d)
      same = same && w.stride[d] == 1 && w.dilation[d] == 1 &&
             w.in[d] == w.out[d] && w.padBegin[d] < w.kernel[d] &&
             w.padEnd[d] < w.kernel[d];
    return same;
  }

  /// Whether the float pools run as PoolBlocks: 2-D average and max pools
  /// (no Indices) whose block of interleaved planes, in and out, stays in
  /// L2 (Inception's 147x147 maps, at 1.4 MB, keep the planes).
  bool inBlocks() const {
    const Window &w = p_.w;
    constexpr int64_t kMaxBlockBytes = 512 << 10;
    const bool kind = p_.kind == PoolKind::kAverage ||
                      (p_.kind == PoolKind::kMax && !p_.hasIndices);
    return kind && p_.dtype == om::DT_FLOAT && w.in[0] == 1 &&
           w.kernel[0] == 1 && w.out[0] == 1 &&
           (w.inSize() + w.outSize()) * pool::kBlockLanes * 4 <= kMaxBlockBytes;
  }

  /// The planes in blocks of kBlockLanes (the blocks split whole ones),
  /// each interleaved, pooled and written back (TransposeTiles.h); in
  /// NC1HWC0, pooled where they lie.
  rt::Status runBlocks(const float *x, float *y, uint32_t blockIdx,
                       uint32_t blockDim) const {
    const Window &w = p_.w;
    const int64_t lanes = pool::kBlockLanes;
    const int64_t inSize = w.inSize(), outSize = w.outSize();
    const BlockRange groups =
        blockRange(p_.blocked ? p_.planes : (p_.planes + lanes - 1) / lanes,
                   blockIdx, blockDim);
    const pool::PoolBlock block{w.in[2],
                                w.out[1],
                                w.out[2],
                                w.kernel[2],
                                w.stride[1],
                                w.stride[2],
                                w.padBegin[1],
                                w.padBegin[2],
                                w.dilation[1],
                                w.dilation[2],
                                p_.taps[1].data(),
                                p_.taps[2].data(),
                                planeScales_.empty() ? nullptr
                                                     : planeScales_.data()};
    const pool::BlockFn sweep = p_.kind == PoolKind::kMax
                                    ? GEFLOW_PICK_BODY(pool, maxBlock)
                                    : GEFLOW_PICK_BODY(pool, sumBlock);
    if (p_.blocked) {
      for (int64_t g = groups.begin; g < groups.end; ++g)
        sweep(block, x + g * inSize * lanes, y + g * outSize * lanes);
      return rt::Status::ok();
    }
    float *in = nn::scratch((inSize + outSize) * lanes);
    float *out = in + inSize * lanes;
    for (int64_t g = groups.begin; g < groups.end; ++g) {
      const int64_t c0 = g * lanes, count = std::min(lanes, p_.planes - c0);
      nn::transposeMatrix(x + c0 * inSize, inSize, count, inSize, in, lanes);
      sweep(block, in, out);
      nn::transposeMatrix(out, lanes, outSize, count, y + c0 * outSize,
                          outSize);
    }
    return rt::Status::ok();
  }

  /// The planes of the outer dim's slices, one PoolPlane sweep each.
  void sweepPlanes(const float *in, float *out, pool::PlaneFn sweep) const {
    const Window &w = p_.w;
    const int64_t area = w.in[1] * w.in[2];
    pool::PoolPlane plane{w.in[1],
                          w.in[2],
                          w.kernel[1],
                          w.kernel[2],
                          w.padBegin[1],
                          w.padBegin[2],
                          planeScales_.empty() ? nullptr : planeScales_.data(),
                          nn::scratch(area, 0)};
    for (int64_t slice = 0; slice < w.in[0]; ++slice)
      sweep(plane, in + slice * area, out + slice * area);
  }

  /// average_pool by rows, as maxPlaneByRows: the taps of each output row
  /// summed a whole input row at a time, then one division per output by its
  /// window's count. Visiting windows one output at a time was 15 % of
  /// Inception v3 (its 3x3 stride-1 average pools).
  void averagePlaneByRows(const float *in, float *out) const {
    sweepRows(in, out, GEFLOW_PICK_BODY(pool, sumRow),
              [&](int64_t o0, int64_t o1, float *__restrict row) {
                const float outer = static_cast<float>(
                    countedTaps(p_.taps[0][o0]) * countedTaps(p_.taps[1][o1]));
                const float *__restrict inner = rowTaps_.data();
                for (int64_t j = 0; j < p_.w.out[2]; ++j) {
                  const float n = outer * inner[j];
                  row[j] = n > 0.0f ? row[j] / n : 0.0f;
                }
              });
  }

  /// For each output row (o0, o1): the taps of its windows combined by
  /// `combineRow` (the window's input rows, each at every tap column), then
  /// finish(o0, o1, row).
  template <class Finish>
  void sweepRows(const float *in, float *out, pool::RowFn combineRow,
                 Finish finish) const {
    const Window &w = p_.w;
    const int64_t ow = w.out[2];
    // A window's input rows, per host thread and kept across calls.
    thread_local std::vector<const float *> rows;
    rows.resize(w.kernel[0] * w.kernel[1]);
    pool::PoolRow r{
        rows.data(), 0,  cols_.data(), static_cast<int64_t>(cols_.size()),
        w.stride[2], ow, w.in[2],      nn::scratch(w.in[2], 0)};
    for (int64_t o0 = 0; o0 < w.out[0]; ++o0) {
      const std::array<int64_t, 4> &t0 = p_.taps[0][o0];
      for (int64_t o1 = 0; o1 < w.out[1]; ++o1, out += ow) {
        const std::array<int64_t, 4> &t1 = p_.taps[1][o1];
        r.numRows = 0;
        for (int64_t k0 = t0[0]; k0 < t0[1]; ++k0) {
          int64_t i0 = o0 * w.stride[0] - w.padBegin[0] + k0 * w.dilation[0];
          for (int64_t k1 = t1[0]; k1 < t1[1]; ++k1) {
            int64_t i1 = o1 * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
            rows[r.numRows++] = in + (i0 * w.in[1] + i1) * w.in[2];
          }
        }
        combineRow(r, out);
        finish(o0, o1, out);
      }
    }
  }

  /// (sum |x|^p)^(1/p) over the taps inside the input: padding adds 0.
  void lpPlane(const float *in, float *out) const {
    const float p = static_cast<float>(p_.lpP);
    forEachWindow([&](const int64_t(&o)[3], const int64_t(&r)[3][2],
                      const int64_t(&)[3][2]) {
      float sum = 0.0f;
      forEachTap(in, o, r,
                 [&](const float *at) { sum += std::pow(std::abs(*at), p); });
      *out++ = std::pow(sum, 1.0f / p);
    });
  }

  template <typename T>
  void maxPlanes(const void *x, void *y, int64_t *indices,
                 BlockRange planes) const {
    const int64_t inSize = p_.w.inSize(), outSize = p_.w.outSize();
    for (int64_t c = planes.begin; c < planes.end; ++c)
      maxPlane<T>(static_cast<const T *>(x) + c * inSize,
                  static_cast<T *>(y) + c * outSize,
                  indices ? indices + c * outSize : nullptr, c * inSize);
  }

  template <typename T>
  void maxPlane(const T *in, T *out, int64_t *idx, int64_t base) const {
    forEachWindow([&](const int64_t(&o)[3], const int64_t(&r)[3][2],
                      const int64_t(&)[3][2]) {
      // The first strict maximum in window order; its offset in the plane is
      // its row-major index.
      const T *bestAt = nullptr;
      T best = std::numeric_limits<T>::has_infinity
                   ? -std::numeric_limits<T>::infinity()
                   : std::numeric_limits<T>::lowest();
      forEachTap(in, o, r, [&](const T *at) {
        if (!bestAt || *at > best) {
          best = *at;
          bestAt = at;
        }
      });
      *out++ = best;
      if (idx)
        *idx++ = bestAt ? base + indexInPlane(bestAt - in) : -1;
    });
  }

  /// float max_pool by rows: each tap updates a whole output row at once (a
  /// vectorised max over a strided input row) instead of visiting windows
  /// one output at a time. Indices (`idx`, may be null) come after, per
  /// output: the first tap in window order holding the maximum, which is the
  /// element maxPlane's first strict maximum names.
  void maxPlaneByRows(const float *in, float *out, int64_t *idx,
                      int64_t base) const {
    sweepRows(in, out, GEFLOW_PICK_BODY(pool, maxRow),
              [&](int64_t o0, int64_t o1, float *row) {
                if (!idx)
                  return;
                int64_t o[3] = {o0, o1, 0};
                for (o[2] = 0; o[2] < p_.w.out[2]; ++o[2], ++idx) {
                  int64_t at = firstAt(in, o, row[o[2]]);
                  *idx = at < 0 ? -1 : base + indexInPlane(at);
                }
              });
  }

  /// The row-major offset of the first valid tap of window `o` (window
  /// order) whose value is `best`, or -1 for a window with no valid tap.
  int64_t firstAt(const float *in, const int64_t (&o)[3], float best) const {
    const Window &w = p_.w;
    int64_t r[3][2], pad[3][2];
    for (int d = 0; d < 3; ++d)
      windowDim(d, o[d], r[d], pad[d]);
    int64_t first = -1;
    for (int64_t k0 = r[0][0]; k0 < r[0][1]; ++k0) {
      int64_t i0 = o[0] * w.stride[0] - w.padBegin[0] + k0 * w.dilation[0];
      for (int64_t k1 = r[1][0]; k1 < r[1][1]; ++k1) {
        int64_t i1 = o[1] * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
        int64_t rowStart =
            (i0 * w.in[1] + i1) * w.in[2] + o[2] * w.stride[2] - w.padBegin[2];
        for (int64_t k2 = r[2][0]; k2 < r[2][1]; ++k2) {
          int64_t at = rowStart + k2 * w.dilation[2];
          if (first < 0)
            first = at; // a window of NaNs or -infs still names its first
          if (in[at] == best)
            return at;
        }
      }
    }
    return first;
  }

  /// Calls f(o, r, pad) for every output position o of a plane in row-major
  /// order, with its valid taps r and its taps inside the padded input pad.
  template <class F> void forEachWindow(F &&f) const {
    const Window &w = p_.w;
    int64_t o[3], r[3][2], pad[3][2];
    for (o[0] = 0; o[0] < w.out[0]; ++o[0]) {
      windowDim(0, o[0], r[0], pad[0]);
      for (o[1] = 0; o[1] < w.out[1]; ++o[1]) {
        windowDim(1, o[1], r[1], pad[1]);
        for (o[2] = 0; o[2] < w.out[2]; ++o[2]) {
          windowDim(2, o[2], r[2], pad[2]);
          f(o, r, pad);
        }
      }
    }
  }

  /// Calls tap(at) for every valid input element of the window at output o,
  /// in window (row-major) order.
  template <class T, class Tap>
  void forEachTap(const T *in, const int64_t (&o)[3], const int64_t (&r)[3][2],
                  Tap &&tap) const {
    const Window &w = p_.w;
    for (int64_t k0 = r[0][0]; k0 < r[0][1]; ++k0) {
      int64_t i0 = o[0] * w.stride[0] - w.padBegin[0] + k0 * w.dilation[0];
      for (int64_t k1 = r[1][0]; k1 < r[1][1]; ++k1) {
        int64_t i1 = o[1] * w.stride[1] - w.padBegin[1] + k1 * w.dilation[1];
        const T *row = in + (i0 * w.in[1] + i1) * w.in[2] + o[2] * w.stride[2] -
                       w.padBegin[2];
        for (int64_t k2 = r[2][0]; k2 < r[2][1]; ++k2)
          tap(row + k2 * w.dilation[2]);
      }
    }
  }

  /// storage_order: row-major offsets stay; column-major ones reverse the
  /// order of the spatial dims.
  int64_t indexInPlane(int64_t offset) const {
    if (!p_.columnMajorIndices)
      return offset;
    const Window &w = p_.w;
    int64_t i2 = offset % w.in[2], i1 = (offset / w.in[2]) % w.in[1],
            i0 = offset / (w.in[1] * w.in[2]);
    return i0 + i1 * w.in[0] + i2 * w.in[0] * w.in[1];
  }

  /// Valid taps r = [begin, end) of dim d at output o, and in `pad` the taps
  /// inside the padded input (for count_include_pad).
  void windowDim(int d, int64_t o, int64_t *r, int64_t *pad) const {
    const std::array<int64_t, 4> &t = p_.taps[d][o];
    r[0] = t[0];
    r[1] = t[1];
    pad[0] = t[2];
    pad[1] = t[3];
  }

  const PoolPlan p_;
  std::vector<nn::TapColumns> cols_; // per tap along the row
  // Per output along the row: the taps average_pool counts there.
  std::vector<float> rowTaps_;
  // Whether the float pools run as PoolBlocks or, failing that, PoolPlane's
  // sweep; and average_pool's 1 / counted taps per output of a plane for
  // both (0 where none).
  bool byBlocks_ = false;
  bool byPlanes_ = false;
  std::vector<float> planeScales_;
};

template <PoolKind Kind>
rt::Status createPool(const KernelSpec &spec, std::unique_ptr<Kernel> *out) {
  if (Kind == PoolKind::kGlobalAverage && isChannelBlocked(*spec.op))
    return createBlockedGlobalAverage(spec, out);
  PoolPlan p;
  GEFLOW_RT_RETURN_IF_ERROR(analyzePool(*spec.op, Kind, &p));
  *out = std::make_unique<PoolKernel>(p);
  return rt::Status::ok();
}

} // namespace

void geflow::kernels::registerPoolKernels(KernelRegistry &registry) {
  registry.add("lp_pool", {planPool<PoolKind::kLp>, createPool<PoolKind::kLp>});
  registry.add("average_pool",
               {planPool<PoolKind::kAverage>, createPool<PoolKind::kAverage>});
  registry.add("max_pool",
               {planPool<PoolKind::kMax>, createPool<PoolKind::kMax>});
  registry.add("global_average_pool", {planPool<PoolKind::kGlobalAverage>,
                                       createPool<PoolKind::kGlobalAverage>});
  registry.add("global_max_pool", {planPool<PoolKind::kGlobalMax>,
                                   createPool<PoolKind::kGlobalMax>});
}
