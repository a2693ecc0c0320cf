//===- DataDependentOps.h - the four data-dependent ops -----*- C++ -*-===//
//
// DataDependent.cpp dispatches on the op type to these; each op's file
// (DataDependentSelect.cpp: non_zero and compress, DataDependentNms.cpp,
// DataDependentUnique.cpp) defines its pair, and the helpers below are shared
// so that every op checks its operands and its output buffers alike.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENTOPS_H
#define GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENTOPS_H

#include "executor/kernels/Kernel.h"
#include "executor/kernels/support/VectorSupport.h"

#include <cstdint>
#include <vector>

namespace geflow::kernels::dd {

/// Every dtype non_zero and unique take; compress copies bytes of any.
using AllTypes = vec::TypeList<float, double, Eigen::half, Eigen::bfloat16,
                               int8_t, int16_t, int32_t, int64_t, uint8_t,
                               uint16_t, uint32_t, uint64_t, bool>;

using Shape = std::vector<int64_t>;
using Shapes = std::vector<Shape>;

/// An op's two halves: its output bounds from its input descriptors and
/// attributes, and its run, which fills `realShapes` with one shape per
/// output descriptor.
using BoundsFn = rt::Status (*)(om::OpDef *op);
using RunFn = rt::Status (*)(const om::OpDef &op, const TensorView *inputs,
                             const TensorView *outputs, Shapes *realShapes);

rt::Status nonZeroBounds(om::OpDef *op);
rt::Status runNonZero(const om::OpDef &op, const TensorView *inputs,
                      const TensorView *outputs, Shapes *realShapes);
rt::Status compressBounds(om::OpDef *op);
rt::Status runCompress(const om::OpDef &op, const TensorView *inputs,
                       const TensorView *outputs, Shapes *realShapes);
rt::Status nmsBounds(om::OpDef *op);
rt::Status runNms(const om::OpDef &op, const TensorView *inputs,
                  const TensorView *outputs, Shapes *realShapes);
rt::Status uniqueBounds(om::OpDef *op);
rt::Status runUnique(const om::OpDef &op, const TensorView *inputs,
                     const TensorView *outputs, Shapes *realShapes);

/// The input's shape with every dim checked: present (input `i` exists and
/// is not an absent optional input unless `optional`), of known size
/// (>= 0) and with an element count that fits int64 with room for bytes.
/// An absent optional input gives an empty shape and `*present` false.
rt::Status inputShape(const om::OpDef &op, int i, Shape *shape,
                      bool optional = false, bool *present = nullptr);

/// Elements of `shape` (1 for a scalar).
int64_t elementsOf(const Shape &shape);

/// Makes output `k` exist and sets it to `dtype` and `shape` with its bytes;
/// a bound whose bytes overflow int64 is an error naming the op.
rt::Status setOutput(om::OpDef *op, int k, om::DataType dtype,
                     const Shape &shape);

/// An error naming the op unless output `k` exists and its buffer (the
/// view's descriptor, else the op's) holds `shape` of its dtype: a data-
/// dependent size over the declared upper bound.
rt::Status checkFits(const om::OpDef &op, const TensorView *outputs, int k,
                     const Shape &shape);

/// The input viewed around the optional attribute `axis`: with it, the
/// AxisLayout of input 0 (negative counts from the back); without it, one row
/// of every element (n = the element count).
struct SliceLayout {
  bool hasAxis = false;
  int64_t axis = 0;
  vec::AxisLayout l;
  /// `x` with the axis' extent (without axis: the element count) set to
  /// `kept`.
  Shape keep(Shape x, int64_t kept) const;
};
rt::Status sliceLayout(const om::OpDef &op, const Shape &x, SliceLayout *out);

/// Copies slices `picks` (indices along the layout's axis) of `in` to `out`
/// in that order, elements of `elemSize` bytes.
void copySlices(const vec::AxisLayout &l, size_t elemSize,
                const std::vector<int64_t> &picks, const void *in, void *out);

/// "[2,3]" for messages.
std::string shapeText(const Shape &shape);

} // namespace geflow::kernels::dd

#endif // GEFLOW_EXECUTOR_KERNELS_DATA_DEPENDENT_DATADEPENDENTOPS_H
