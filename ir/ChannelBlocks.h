//===- ChannelBlocks.h - the NC1HWC0 layout's shapes ------------*- C++ -*-===//
//
// GE's NC1HWC0: an [N, C, H, W] tensor held as [N, ceil(C / C0), H, W, C0],
// C0 channels interleaved per position, so that a vector of C0 lanes holds
// one position of C0 channels. The verifiers of the ops that take it and
// ge-block-channels read the shapes from here.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_IR_CHANNELBLOCKS_H
#define GEFLOW_IR_CHANNELBLOCKS_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::ge {

/// Channels per block: one AVX-512 vector of floats.
inline constexpr int64_t kChannelBlock = 16;
inline constexpr llvm::StringLiteral kPlainFormat = "NCHW";
inline constexpr llvm::StringLiteral kBlockedFormat = "NC1HWC0";

/// [N, C, H, W] -> [N, ceil(C / 16), H, W, 16].
inline llvm::SmallVector<int64_t> blockedShape(llvm::ArrayRef<int64_t> nchw) {
  return {nchw[0], (nchw[1] + kChannelBlock - 1) / kChannelBlock, nchw[2],
          nchw[3], kChannelBlock};
}

/// `nchw`'s type in NC1HWC0 (same element type).
inline RankedTensorType blockedType(RankedTensorType nchw) {
  return RankedTensorType::get(blockedShape(nchw.getShape()),
                               nchw.getElementType());
}

} // namespace mlir::ge

#endif // GEFLOW_IR_CHANNELBLOCKS_H
