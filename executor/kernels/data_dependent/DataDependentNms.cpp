//===- DataDependentNms.cpp - non_max_suppression -------------------------===//
//
// ONNX's NonMaxSuppression as onnxruntime and ONNX's reference compute it:
// per batch and class, the boxes whose score is above score_threshold (all,
// without one) are visited by score, highest first and the lower box index
// first among equal scores; a box is selected unless its IOU with a box
// already selected for that class exceeds iou_threshold, until
// max_output_boxes_per_class are selected. The output lists [batch, class,
// box] by batch, then class, then order of selection.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/data_dependent/DataDependentOps.h"
#include "executor/kernels/support/KernelSupport.h"
#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::dd;
using namespace geflow::kernels::vec;

namespace {

struct Corners {
  float yMin, xMin, yMax, xMax;
};

/// center_point_box 0: [y1, x1, y2, x2], any diagonal pair of corners;
/// 1: [x_center, y_center, width, height].
Corners corners(const float *box, bool centerPoint) {
  if (centerPoint) {
    float halfW = box[2] / 2, halfH = box[3] / 2;
    return {box[1] - halfH, box[0] - halfW, box[1] + halfH, box[0] + halfW};
  }
  return {std::min(box[0], box[2]), std::min(box[1], box[3]),
          std::max(box[0], box[2]), std::max(box[1], box[3])};
}

/// onnxruntime's SuppressByIOU: boxes without a positive intersection, area
/// or union never suppress each other.
bool overlapsTooMuch(const Corners &a, const Corners &b, float threshold) {
  float w = std::max(std::min(a.xMax, b.xMax) - std::max(a.xMin, b.xMin), 0.f);
  float h = std::max(std::min(a.yMax, b.yMax) - std::max(a.yMin, b.yMin), 0.f);
  float inter = w * h;
  if (inter <= 0)
    return false;
  float areaA = (a.xMax - a.xMin) * (a.yMax - a.yMin);
  float areaB = (b.xMax - b.xMin) * (b.yMax - b.yMin);
  float uni = areaA + areaB - inter;
  if (areaA <= 0 || areaB <= 0 || uni <= 0)
    return false;
  return inter / uni > threshold;
}

/// A one-element operand (a scalar or [1]) of `dtype`, or absent.
rt::Status checkScalar(const om::OpDef &op, int i, om::DataType dtype,
                       const char *what) {
  Shape shape;
  bool present = false;
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, i, &shape, true, &present));
  if (present && (op.input_desc(i).dtype() != dtype || shape.size() > 1 ||
                  elementsOf(shape) != 1))
    return opError(op, std::string(what) + " must hold one " +
                           dtypeName(dtype) + ", got " +
                           dtypeName(op.input_desc(i).dtype()) +
                           shapeText(shape));
  return rt::Status::ok();
}

/// boxes [B, N, 4] and scores [B, C, N], both float.
rt::Status nmsShapes(const om::OpDef &op, Shape *boxes, Shape *scores) {
  if (op.input_desc_size() < 2 || op.input_desc_size() > 5)
    return opError(op, "takes 2 to 5 inputs");
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, 0, boxes));
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, 1, scores));
  if (op.input_desc(0).dtype() != om::DT_FLOAT ||
      op.input_desc(1).dtype() != om::DT_FLOAT)
    return opError(op, "boxes and scores must be float32");
  const Shape &b = *boxes, &s = *scores;
  if (b.size() != 3 || b[2] != 4 || s.size() != 3 || b[0] != s[0] ||
      b[1] != s[2])
    return opError(op, "boxes " + shapeText(b) + " and scores " + shapeText(s) +
                           " are not [batches, boxes, 4] and "
                           "[batches, classes, boxes]");
  GEFLOW_RT_RETURN_IF_ERROR(
      checkScalar(op, 2, om::DT_INT64, "max_output_boxes_per_class"));
  GEFLOW_RT_RETURN_IF_ERROR(checkScalar(op, 3, om::DT_FLOAT, "iou_threshold"));
  GEFLOW_RT_RETURN_IF_ERROR(
      checkScalar(op, 4, om::DT_FLOAT, "score_threshold"));
  int64_t center = attrInt(op, "center_point_box", 0);
  if (center != 0 && center != 1)
    return opError(op, "center_point_box must be 0 or 1, got " +
                           std::to_string(center));
  return rt::Status::ok();
}

/// The selected boxes of one batch and class, in order of selection.
std::vector<int64_t> selectBoxes(const std::vector<Corners> &boxes,
                                 const float *scores, int64_t maxOut,
                                 float iouThreshold, const float *scoreThr) {
  std::vector<int64_t> order;
  for (int64_t i = 0; i < static_cast<int64_t>(boxes.size()); ++i)
    if (!scoreThr || scores[i] > *scoreThr)
      order.push_back(i);
  // NaN ranks as the lowest score so that the order stays a strict weak one.
  auto key = [&](int64_t i) {
    return std::isnan(scores[i]) ? -std::numeric_limits<float>::infinity()
                                 : scores[i];
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return key(a) > key(b); });
  std::vector<int64_t> selected;
  for (int64_t i : order) {
    if (static_cast<int64_t>(selected.size()) >= maxOut)
      break;
    bool suppressed =
        std::any_of(selected.begin(), selected.end(), [&](int64_t s) {
          return overlapsTooMuch(boxes[s], boxes[i], iouThreshold);
        });
    if (!suppressed)
      selected.push_back(i);
  }
  return selected;
}

} // namespace

rt::Status dd::nmsBounds(om::OpDef *op) {
  Shape boxes, scores;
  GEFLOW_RT_RETURN_IF_ERROR(nmsShapes(*op, &boxes, &scores));
  op->clear_output_desc();
  return setOutput(op, 0, om::DT_INT64, {elementsOf(scores), 3});
}

rt::Status dd::runNms(const om::OpDef &op, const TensorView *inputs,
                      const TensorView *outputs, Shapes *realShapes) {
  Shape boxShape, scoreShape;
  GEFLOW_RT_RETURN_IF_ERROR(nmsShapes(op, &boxShape, &scoreShape));
  int64_t batches = scoreShape[0], classes = scoreShape[1],
          count = scoreShape[2];
  // Absent: no boxes; a negative count selects none either (onnxruntime).
  int64_t maxOut = hasInput(op, 2)
                       ? std::max<int64_t>(
                             0, static_cast<const int64_t *>(inputs[2].data)[0])
                       : 0;
  float iou =
      hasInput(op, 3) ? static_cast<const float *>(inputs[3].data)[0] : 0.f;
  if (!(iou >= 0.f && iou <= 1.f))
    return opError(op, "iou_threshold " + std::to_string(iou) +
                           " is outside [0, 1]");
  const float *scoreThr =
      hasInput(op, 4) ? static_cast<const float *>(inputs[4].data) : nullptr;
  bool centerPoint = attrInt(op, "center_point_box", 0) == 1;
  const auto *boxData = static_cast<const float *>(inputs[0].data);
  const auto *scoreData = static_cast<const float *>(inputs[1].data);
  std::vector<int64_t> rows; // [batch, class, box] triples
  std::vector<Corners> boxes(count);
  for (int64_t b = 0; b < batches && maxOut > 0; ++b) {
    for (int64_t i = 0; i < count; ++i)
      boxes[i] = corners(boxData + (b * count + i) * 4, centerPoint);
    for (int64_t c = 0; c < classes; ++c)
      for (int64_t i : selectBoxes(boxes, scoreData + (b * classes + c) * count,
                                   maxOut, iou, scoreThr))
        rows.insert(rows.end(), {b, c, i});
  }
  Shape real = {static_cast<int64_t>(rows.size() / 3), 3};
  GEFLOW_RT_RETURN_IF_ERROR(checkFits(op, outputs, 0, real));
  if (!rows.empty())
    std::copy(rows.begin(), rows.end(),
              static_cast<int64_t *>(outputs[0].data));
  realShapes->push_back(real);
  return rt::Status::ok();
}
