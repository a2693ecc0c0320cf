//===- DataDependentSelect.cpp - non_zero and compress --------------------===//
//
// The two selections: non_zero lists the coordinates of the non-zero
// elements ([rank, n], one row per dim, numpy.nonzero's order), compress
// keeps the slices along an axis (or the elements of the flattened input)
// whose condition entry is true. Both first find the selected positions, then
// write the output compactly in its real shape.
//
//===----------------------------------------------------------------------===//

#include "executor/kernels/data_dependent/DataDependentOps.h"
#include "executor/kernels/support/KernelSupport.h"
#include "executor/kernels/support/VectorSupport.h"

using namespace geflow;
using namespace geflow::kernels;
using namespace geflow::kernels::dd;
using namespace geflow::kernels::vec;

namespace {

/// Flat positions of the non-zero elements; -0.0 is zero and NaN is not.
template <class T>
std::vector<int64_t> nonZeroPositions(const void *data, int64_t n) {
  const T *x = static_cast<const T *>(data);
  std::vector<int64_t> pos;
  for (int64_t i = 0; i < n; ++i)
    if (x[i] != T(0))
      pos.push_back(i);
  return pos;
}

/// numpy treats a scalar as one element of a 1-D tensor here.
Shape atLeast1d(Shape shape) {
  if (shape.empty())
    shape.push_back(1);
  return shape;
}

/// Compress's input, its layout around the optional axis and the
/// condition's length.
rt::Status compressLayout(const om::OpDef &op, Shape *input, SliceLayout *out,
                          int64_t *conditionLength) {
  Shape cond;
  if (op.input_desc_size() != 2)
    return opError(op, "takes 2 inputs (input, condition)");
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, 0, input));
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(op, 1, &cond));
  if (dtypeSize(op.input_desc(0).dtype()) == 0)
    return unsupportedDtype(op, op.input_desc(0).dtype());
  if (op.input_desc(1).dtype() != om::DT_BOOL || cond.size() != 1)
    return opError(op, "condition must be a 1-D bool tensor, got " +
                           std::string(dtypeName(op.input_desc(1).dtype())) +
                           shapeText(cond));
  *conditionLength = cond[0];
  return sliceLayout(op, *input, out);
}

} // namespace

// --- non_zero ----------------------------------------------------------------

rt::Status dd::nonZeroBounds(om::OpDef *op) {
  Shape x;
  GEFLOW_RT_RETURN_IF_ERROR(inputShape(*op, 0, &x));
  if (op->input_desc_size() != 1)
    return opError(*op, "takes 1 input");
  om::DataType dt = op->input_desc(0).dtype();
  if (!dispatch(AllTypes{}, dt, [](auto) {}))
    return unsupportedDtype(*op, dt);
  int64_t rank = static_cast<int64_t>(atLeast1d(x).size());
  op->clear_output_desc();
  return setOutput(op, 0, om::DT_INT64, {rank, elementsOf(x)});
}

rt::Status dd::runNonZero(const om::OpDef &op, const TensorView *inputs,
                          const TensorView *outputs, Shapes *realShapes) {
  Shape x = atLeast1d(shapeOf(op.input_desc(0)));
  int64_t n = elementsOf(x);
  std::vector<int64_t> pos;
  dispatch(AllTypes{}, op.input_desc(0).dtype(), [&](auto tag) {
    pos = nonZeroPositions<typename decltype(tag)::type>(inputs[0].data, n);
  });
  int64_t rank = static_cast<int64_t>(x.size()),
          count = static_cast<int64_t>(pos.size());
  Shape real = {rank, count};
  GEFLOW_RT_RETURN_IF_ERROR(checkFits(op, outputs, 0, real));
  auto *out = static_cast<int64_t *>(outputs[0].data);
  std::vector<int64_t> strides = stridesOf(x);
  for (int64_t d = 0; d < rank; ++d)
    for (int64_t j = 0; j < count; ++j)
      out[d * count + j] = pos[j] / strides[d] % x[d];
  realShapes->push_back(real);
  return rt::Status::ok();
}

// --- compress ----------------------------------------------------------------

rt::Status dd::compressBounds(om::OpDef *op) {
  Shape input;
  SliceLayout c;
  int64_t length = 0;
  GEFLOW_RT_RETURN_IF_ERROR(compressLayout(*op, &input, &c, &length));
  op->clear_output_desc();
  return setOutput(op, 0, op->input_desc(0).dtype(),
                   c.keep(input, std::min(c.l.n, length)));
}

rt::Status dd::runCompress(const om::OpDef &op, const TensorView *inputs,
                           const TensorView *outputs, Shapes *realShapes) {
  Shape input;
  SliceLayout c;
  int64_t length = 0;
  GEFLOW_RT_RETURN_IF_ERROR(compressLayout(op, &input, &c, &length));
  // numpy.compress: a condition longer than the extent is fine while it
  // selects nothing past it; slices past a shorter condition are dropped.
  const auto *cond = static_cast<const uint8_t *>(inputs[1].data);
  std::vector<int64_t> kept;
  for (int64_t i = 0; i < length; ++i) {
    if (!cond[i])
      continue;
    if (i >= c.l.n)
      return opError(op, "condition selects index " + std::to_string(i) +
                             ", past the extent " + std::to_string(c.l.n));
    kept.push_back(i);
  }
  Shape real = c.keep(input, static_cast<int64_t>(kept.size()));
  GEFLOW_RT_RETURN_IF_ERROR(checkFits(op, outputs, 0, real));
  copySlices(c.l, dtypeSize(op.input_desc(0).dtype()), kept, inputs[0].data,
             outputs[0].data);
  realShapes->push_back(real);
  return rt::Status::ok();
}
