//===- ConvBlocked.h - convs in NC1HWC0 -------------------------*- C++ -*-===//
//
// A conv whose X, Y and Z are NC1HWC0 (ConvShape::blocked): ge-block-channels
// keeps a run of convs, activations and pools in that layout so that the
// blocks a depthwise conv sweeps need no transposes in and out.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_CONV_CONVBLOCKED_H
#define GEFLOW_EXECUTOR_KERNELS_CONV_CONVBLOCKED_H

#include "executor/kernels/Kernel.h"
#include "executor/kernels/conv/ConvPlan.h"

#include <memory>

namespace geflow::kernels {

/// The kernel of plan `c` (c.s.blocked); `weights` is W when it is a
/// constant, else null.
std::unique_ptr<Kernel> makeBlockedConv(const ConvPlan &c,
                                        const float *weights);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_CONV_CONVBLOCKED_H
