//===- ChannelBlocks.h - kernels of the NC1HWC0 layout ----------*- C++ -*-===//
//
// trans_data (NCHW <-> NC1HWC0) and global_average_pool in NC1HWC0; the
// blocked convs are ConvBlocked.h's.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_KERNELS_LAYOUT_CHANNELBLOCKS_H
#define GEFLOW_EXECUTOR_KERNELS_LAYOUT_CHANNELBLOCKS_H

#include "executor/kernels/KernelRegistry.h"

namespace geflow::kernels {

/// True when `op`'s data_format attribute is NC1HWC0.
bool isChannelBlocked(const om::OpDef &op);

/// global_average_pool of X [N, C1, H, W, 16] into [N, C1, 1, 1, 16].
rt::Status planBlockedGlobalAverage(const om::OpDef &op, KernelPlan *out);
rt::Status createBlockedGlobalAverage(const KernelSpec &spec,
                                      std::unique_ptr<Kernel> *out);

void registerChannelBlockKernels(KernelRegistry &registry);

} // namespace geflow::kernels

#endif // GEFLOW_EXECUTOR_KERNELS_LAYOUT_CHANNELBLOCKS_H
