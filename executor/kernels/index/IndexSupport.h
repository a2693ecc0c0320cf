//===- IndexSupport.h - what the indexing kernels share ---------*- C++ -*-===//
//
// The gather/scatter, one-hot, layout, grid-sample and RoI-align kernels read
// index operands of either integer width, move elements of any dtype by
// their size, combine scattered values under ONNX's `reduction`, and walk a
// sub-range of a tensor's positions keeping several strided offsets at once.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_INDEX_INDEXSUPPORT_H
#define GEFLOW_EXECUTOR_KERNELS_INDEX_INDEXSUPPORT_H

#include "executor/kernels/support/VectorSupport.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace geflow::kernels::idx {

/// Index operands are int32 or int64 (ONNX's Tind).
rt::Status checkIndexDtype(const om::OpDef &op, int input);

inline int64_t loadIndex(const void *data, om::DataType dt, int64_t i) {
  return dt == om::DT_INT32 ? static_cast<const int32_t *>(data)[i]
                            : static_cast<const int64_t *>(data)[i];
}

/// `i` in [-dim, dim) as a position in [0, dim), or -1 when outside.
inline int64_t wrapIndex(int64_t i, int64_t dim) {
  if (i < 0)
    i += dim;
  return i >= 0 && i < dim ? i : -1;
}

/// The op's name and type alone, kept for errors found at run time.
om::OpDef errorLabel(const om::OpDef &op);

/// "index 7 is out of range for a dim of size 3" as the op's error.
rt::Status indexOutOfRange(const om::OpDef &label, int64_t index, int64_t dim);

/// Calls f(TypeTag<U>{}) with an unsigned U of `elemSize` bytes (1, 2, 4 or
/// 8): data movement of any dtype as a typed loop. False for other sizes.
template <class F> bool dispatchBySize(size_t elemSize, F &&f) {
  switch (elemSize) {
  case 1:
    return f(vec::TypeTag<uint8_t>{}), true;
  case 2:
    return f(vec::TypeTag<uint16_t>{}), true;
  case 4:
    return f(vec::TypeTag<uint32_t>{}), true;
  case 8:
    return f(vec::TypeTag<uint64_t>{}), true;
  default:
    return false;
  }
}

/// The element size of input `i`, checked to be one dispatchBySize moves.
rt::Status movableElemSize(const om::OpDef &op, int input, size_t *out);

// --- reduction ---------------------------------------------------------------

/// ONNX ScatterElements / ScatterND `reduction`.
enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

rt::Status parseReduction(const om::OpDef &op, Reduction *out);

/// The dtypes a reducing scatter computes in (plain assignment moves bytes).
using ReduceTypes =
    vec::TypeList<float, double, Eigen::half, int8_t, int16_t, int32_t, int64_t,
                  uint8_t, uint16_t, uint32_t, uint64_t>;

/// Calls f(combine) with combine(T &dst, T src) for `r` (kNone: assign), so
/// the element loop is chosen once.
template <class T, class F> void withCombine(Reduction r, F &&f) {
  switch (r) {
  case Reduction::kNone:
    return f([](T &d, T s) { d = s; });
  case Reduction::kAdd:
    return f([](T &d, T s) { d = static_cast<T>(d + s); });
  case Reduction::kMul:
    return f([](T &d, T s) { d = static_cast<T>(d * s); });
  case Reduction::kMax:
    return f([](T &d, T s) { d = s > d ? s : d; });
  case Reduction::kMin:
    return f([](T &d, T s) { d = s < d ? s : d; });
  }
}

// --- positions ---------------------------------------------------------------

/// Walks positions of a row-major box `dims` from a start position, keeping
/// for each of up to kStreams tensors the offset sum_d coord[d] *
/// strides[s][d]: one add per step instead of a division per element.
class Odometer {
public:
  static constexpr int kStreams = 3;

  Odometer(std::vector<int64_t> dims,
           std::vector<std::array<int64_t, kStreams>> strides, int64_t start);

  const std::vector<int64_t> &coord() const { return coord_; }
  int64_t offset(int s) const { return offset_[s]; }
  void next();

private:
  std::vector<int64_t> dims_, coord_;
  std::vector<std::array<int64_t, kStreams>> strides_;
  std::array<int64_t, kStreams> offset_{};
};

} // namespace geflow::kernels::idx

namespace geflow::kernels {
/// The other files of the indexing family; registerIndexKernels calls them.
void registerGatherScatterNdKernels(KernelRegistry &registry);
void registerLayoutKernels(KernelRegistry &registry);
void registerTriangularKernels(KernelRegistry &registry);
void registerGridSampleKernels(KernelRegistry &registry);
void registerRoiAlignKernels(KernelRegistry &registry);
} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_INDEX_INDEXSUPPORT_H
