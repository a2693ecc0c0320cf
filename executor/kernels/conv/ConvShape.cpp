//===- ConvShape.cpp - the shapes conv and conv_transpose share -----------===//

#include "executor/kernels/conv/ConvShape.h"
#include "executor/kernels/conv/ConvTaps.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace geflow;
using namespace geflow::kernels;

namespace {

/// W's window against kernel_shape (into `kernel`), B against the output
/// channels, the element counts, and (with `residual`) Z against Y.
rt::Status analyzeOperands(const om::OpDef &op, const std::vector<int64_t> &w,
                           const std::vector<int64_t> &y, bool residual,
                           ConvShape *s, std::vector<int64_t> *kernel) {
  kernel->assign(w.begin() + 2, w.end());
  std::vector<int64_t> ks = attrInts(op, "kernel_shape");
  if (!ks.empty() && ks != *kernel)
    return opError(op, "kernel_shape does not match W's spatial dims");
  s->hasBias = nn::hasInput(op, 2);
  if (s->hasBias && numElements(op.input_desc(2)) != s->outChannels)
    return opError(op, "B must have M elements");
  s->xElems = numElements(op.input_desc(0));
  s->wElems = numElements(op.input_desc(1));
  s->yElems = numElements(op.output_desc(0));
  s->hasResidual = residual && nn::hasInput(op, 3);
  if (s->hasResidual && shapeOf(op.input_desc(3)) != y)
    return opError(op, "residual Z must have Y's shape");
  return rt::Status::ok();
}

/// The 2-D conv of X [N, C1, H, W, 16] and W [M, C / group, kh, kw] into
/// Y [N, M1, OH, OW, 16].
rt::Status analyzeBlockedShape(const om::OpDef &op,
                               const std::vector<int64_t> &x,
                               const std::vector<int64_t> &w,
                               const std::vector<int64_t> &y, ConvShape *s) {
  constexpr int64_t lanes = nn::kChannelBlock;
  if (x.size() != 5 || y.size() != 5 || w.size() != 4 || x[4] != lanes ||
      y[4] != lanes)
    return opError(op, "NC1HWC0 needs X and Y [N, C1, H, W, 16] and a 2-D W");
  s->blocked = true;
  s->group = attrInt(op, "group", 1);
  s->batch = x[0];
  s->outChannels = w[0];
  s->inChannels = w[1] * s->group;
  if (y[0] != x[0] || x[1] != ceilDiv(s->inChannels, lanes) ||
      y[1] != ceilDiv(s->outChannels, lanes))
    return opError(op, "NC1HWC0 X and Y do not hold W's channels");
  if (s->group != 1 && (w[1] != 1 || s->outChannels != s->inChannels))
    return opError(op, "NC1HWC0 takes one group or one channel per group");
  std::vector<int64_t> kernel;
  GEFLOW_RT_RETURN_IF_ERROR(analyzeOperands(op, w, y, true, s, &kernel));
  return nn::resolveWindow(op, {x[2], x[3]}, {y[2], y[3]}, kernel,
                           /*useDilations=*/true, &s->w);
}

} // namespace

rt::Status kernels::analyzeConvShape(const om::OpDef &op, bool transpose,
                                     ConvShape *s) {
  GEFLOW_RT_RETURN_IF_ERROR(nn::requireFloat(op));
  if (op.input_desc_size() < 2)
    return opError(op, "needs inputs X and W");
  std::vector<int64_t> x = shapeOf(op.input_desc(0));
  std::vector<int64_t> w = shapeOf(op.input_desc(1));
  std::vector<int64_t> y = shapeOf(op.output_desc(0));
  const std::string format = attrString(op, "data_format", "NCHW");
  if (format == "NC1HWC0" && !transpose)
    return analyzeBlockedShape(op, x, w, y, s);
  if (format != "NCHW")
    return opError(op, "data_format \"" + format + "\" is not NCHW" +
                           (transpose ? "" : " or NC1HWC0"));
  if (x.size() < 3 || x.size() > 5)
    return opError(op,
                   "X must have rank 3 to 5, got " + std::to_string(x.size()));
  if (w.size() != x.size() || y.size() != x.size())
    return opError(op, "W and Y must have X's rank");
  s->group = attrInt(op, "group", 1);
  if (s->group < 1)
    return opError(op, "group must be >= 1");
  s->batch = x[0];
  s->inChannels = x[1];
  s->outChannels = y[1];
  if (y[0] != x[0])
    return opError(op, "Y's batch differs from X's");
  if (s->inChannels % s->group || s->outChannels % s->group)
    return opError(op, "channels are not divisible by group " +
                           std::to_string(s->group));
  if (!transpose && (w[0] != s->outChannels || w[1] != s->inPerGroup()))
    return opError(op, "W shape does not match [M, C/group, k...]");
  if (transpose && (w[0] != s->inChannels || w[1] != s->outPerGroup()))
    return opError(op, "W shape does not match [C, M/group, k...]");
  std::vector<int64_t> kernel;
  GEFLOW_RT_RETURN_IF_ERROR(
      analyzeOperands(op, w, y, /*residual=*/!transpose, s, &kernel));
  std::vector<int64_t> xs(x.begin() + 2, x.end()), ys(y.begin() + 2, y.end());
  if (!transpose)
    return nn::resolveWindow(op, xs, ys, kernel, /*useDilations=*/true, &s->w);

  // conv_transpose: pads come from output_shape / auto_pad as ONNX defines
  // them; then the window is the one of the conv whose gradient this is.
  int r = static_cast<int>(xs.size());
  std::vector<int64_t> strides = attrInts(op, "strides");
  std::vector<int64_t> dilations = attrInts(op, "dilations");
  std::vector<int64_t> pads = attrInts(op, "pads");
  std::vector<int64_t> outPad = attrInts(op, "output_padding");
  std::string autoPad = attrString(op, "auto_pad", "NOTSET");
  // ONNX: with output_shape (or SAME_*), pads are derived and given ones
  // ignored; SAME_UPPER puts the smaller half first, everything else the
  // larger. The descriptor's output shape is output_shape.
  bool derivePads = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER" ||
                    hasAttr(op, "output_shape");
  if (derivePads || autoPad == "VALID") {
    std::vector<int64_t> derived(2 * r, 0);
    for (int i = 0; i < r && derivePads; ++i) {
      int64_t st = strides.empty() ? 1 : strides[i];
      int64_t dl = dilations.empty() ? 1 : dilations[i];
      int64_t op_ = outPad.empty() ? 0 : outPad[i];
      int64_t total = st * (xs[i] - 1) + op_ + (kernel[i] - 1) * dl + 1 - ys[i];
      total = std::max<int64_t>(total, 0);
      bool upper = autoPad == "SAME_UPPER";
      derived[i] = upper ? total / 2 : total - total / 2;
      derived[i + r] = total - derived[i];
    }
    om::OpDef copy = op;
    (*copy.mutable_attr())["auto_pad"].set_s("NOTSET");
    om::ListValue *list = (*copy.mutable_attr())["pads"].mutable_list();
    list->clear_i();
    for (int64_t v : derived)
      list->add_i(v);
    return nn::resolveWindow(copy, ys, xs, kernel, true, &s->w);
  }
  return nn::resolveWindow(op, ys, xs, kernel, true, &s->w);
}
