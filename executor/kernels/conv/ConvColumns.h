//===- ConvColumns.h - im2col and col2im for conv kernels -------*- C++ -*-===//
//
// The column matrix of a conv over NnSupport's normalised 3-D window: row
// (channel, kd, kh, kw), one column per output position, zeros where a tap
// falls in the padding. col2im is its transpose (conv_transpose's scatter).
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVCOLUMNS_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVCOLUMNS_H

#include "executor/kernels/support/NnSupport.h"

#include <cstdint>

namespace geflow::kernels::nn {

/// The im2col rows of `channels` channels of `x` (one image, group offset
/// applied), columns [p0, p1) of the output positions, into `col` (row
/// length p1 - p0). T is float, or int16_t for the integer convs (their
/// operands less the zero point, so the padding's 0 is the zero point).
template <class T>
void im2col(const Window &w, const T *x, int64_t channels, int64_t p0,
            int64_t p1, T *col);

/// Adds each column of `col` (rows (channel, kd, kh, kw), w.outSize()
/// columns) into `y`, the window's input.
void col2im(const Window &w, const float *col, int64_t channels, float *y);

} // namespace geflow::kernels::nn

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVCOLUMNS_H
