//===- IntGemm.h - integer GEMM and int8 requantization ----*- C++ -*-===//
//
// What the quantized kernels share (Quantize.cpp, IntGemm.cpp, QuantConv.cpp):
// an int16 x int16 -> int32 GEMM (operands are int8/uint8 values less their
// zero point, so they fit in int16 and the padding of a conv is 0), with a
// portable body and an AVX2 one picked at run time as nn::gemm's are; reading
// scales and zero points; and the rounding every requantization uses
// (halves to even, then saturation to the output type).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_QUANT_INTGEMM_H
#define GEFLOW_EXECUTOR_KERNELS_QUANT_INTGEMM_H

#include "executor/kernels/KernelRegistry.h"
#include "executor/kernels/support/KernelSupport.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace geflow::kernels::qnt {

/// C[MxN] = A[MxK] * B[KxN], row-major with leading dimensions lda/ldb/ldc;
/// C is overwritten. The body is the best cpu::activeIsa() allows.
void intGemm(int64_t m, int64_t n, int64_t k, const int16_t *a, int64_t lda,
             const int16_t *b, int64_t ldb, int32_t *c, int64_t ldc);

/// For tests: whether intGemm may use AVX-512 VNNI when the CPU has it
/// (true by default), so that both AVX-512 bodies run on a VNNI CPU.
void allowVnni(bool allow);

/// dst[i * n + j] = src[i * n + j] - rowZero[i] - colZero[j] for `rows` rows
/// of `n` int8/uint8 values (dtype `dt`), as int16: the GEMM's operands. A
/// null rowZero or colZero is 0.
void widen(const void *src, om::DataType dt, int64_t rows, int64_t n,
           const int32_t *rowZero, const int32_t *colZero, int16_t *dst);

/// Element `i` of a zero point of dtype int8, uint8 or int32 (0 when `data`
/// is null: an absent zero point).
int32_t zeroPointAt(const void *data, om::DataType dt, int64_t i);

/// The saturation bounds of int8 (`isSigned`) or uint8.
inline void quantBounds(bool isSigned, int32_t *lo, int32_t *hi) {
  *lo = isSigned ? -128 : 0;
  *hi = isSigned ? 127 : 255;
}

/// Rounds v to the nearest integer, halves to even, for |v| < 2^51: adding
/// and subtracting 1.5 * 2^52 leaves the integer part in the default
/// rounding mode. Unlike std::nearbyint it vectorises on the SSE2 baseline.
inline double roundHalfEven(double v) {
  constexpr double kMagic = 6755399441055744.0;
  return (v + kMagic) - kMagic;
}

/// out[j] = saturate(round(v[j]) + zp) for values already scaled; v is
/// clamped first so the rounding stays exact.
template <class T>
inline void saturateRow(const double *v, int64_t n, int32_t zp, T *out) {
  int32_t lo, hi;
  quantBounds(std::numeric_limits<T>::is_signed, &lo, &hi);
  const double vlo = lo - zp - 1.0, vhi = hi - zp + 1.0;
  for (int64_t j = 0; j < n; ++j) {
    double r = roundHalfEven(std::min(std::max(v[j], vlo), vhi)) + zp;
    out[j] = static_cast<T>(std::min<double>(std::max<double>(r, lo), hi));
  }
}

/// in_scale * w_scale[j] / out_scale for j < count (all float32 scalars but
/// w_scale, which has `count` entries), in float as ONNX's reference
/// computes it; requantizeRow multiplies the int32 accumulators by these in
/// double.
std::vector<double> requantScales(const void *inScale, const void *wScale,
                                  int64_t count, const void *outScale);

/// out[j] = saturate(round(acc[j] * scale[j]) + zp), scale[j] = scale[0]
/// when `perColumn` is false: the requantization of the QLinear ops.
template <class T>
void requantizeRow(const int32_t *acc, int64_t n, const double *scale,
                   bool perColumn, int32_t zp, T *out);

/// Kernels of the integer cube ops (IntGemm.cpp, QuantConv.cpp).
void registerIntMatMulKernels(KernelRegistry &registry);
void registerIntConvKernels(KernelRegistry &registry);

} // namespace geflow::kernels::qnt

#endif // GEFLOW_EXECUTOR_KERNELS_QUANT_INTGEMM_H
