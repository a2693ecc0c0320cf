//===- ContainedLibOnnx.h - libonnx calls a crash cannot escape -*- C++ -*-===//
//
// libonnx's version converter and shape inference trust the model: their
// per-op functions index ranks, axes and outputs unchecked, so a malformed
// downloaded model (a LayerNormalization on a rank-0 input, a 1-D Gemm B)
// crashes them with SIGSEGV. Checking every op's inputs the way its inference
// function reads them would mean re-deriving hundreds of functions; instead
// they run in a forked child process, and a child that dies becomes an error
// naming the node, never a crash of geflow. One child serves all calls: a fork
// per call cost ~2.7 ms of page faults, 14 times over for a model that shape
// refinement re-infers per channel split.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_CONTAINEDLIBONNX_H
#define GEFLOW_FRONTENDS_ONNX_CONTAINEDLIBONNX_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <chrono>

namespace geflow::onnxfe {

/// A libonnx call on a model, with one integer argument (the target opset of
/// a conversion). A plain function, not a closure: the contained process is a
/// fork of this one, so the function's address means the same there.
using LibOnnxWork = llvm::Error (*)(onnx::ModelProto &model, int64_t argument);

/// What a LibOnnxWork changes, and so what comes back from the child.
enum class ContainedChanges {
  kModel,  // anything (the version converter)
  kShapes, // only the graph's value_info and outputs (shape inference)
};

/// Runs `work` on `model` in the contained process: a child forked at the
/// first call, which then serves every call of this process in turn. What
/// `work` leaves comes back: its model replaces `model` (the GraphProto object
/// stays the same), or its error is returned as is. Weights keep their data
/// here and travel as stand-ins (DetachedWeights.h).
/// When the child dies instead, the node list is bisected by prefix (on the
/// error path only) and the error names the first node whose prefix kills it:
/// "node 'ln' (LayerNormalization, opset 17): libonnx crashed (SIGSEGV) in
/// shape inference; ...". The next call starts a new child. Where fork fails,
/// or GEFLOW_ONNX_IN_PROCESS is set (for a debugger), `work` runs here.
/// With kShapes, `whileWaiting` (if given) runs in this process while the
/// child works, on the model with its weights back in place; it must not
/// change the model. (In-process, it does not run.)
llvm::Error runContained(onnx::ModelProto &model, llvm::StringRef stage,
                         LibOnnxWork work, int64_t argument = 0,
                         ContainedChanges changes = ContainedChanges::kModel,
                         llvm::function_ref<void()> whileWaiting = nullptr);

/// Forks the contained process now, if none runs. A fork shares the parent's
/// pages copy-on-write, and the child lives until the process ends, so each
/// page the parent writes afterwards is copied under a fault with a TLB
/// shootdown across cores: forked after a 100k-node model was parsed and
/// imported, that cost the parent about a fifth of its compile time. A
/// caller about to read a large model starts the child first, while the
/// process is small; without this call the first runContained forks.
void startContainedProcess();

/// How long one call may run before the child is killed and the call fails
/// ("libonnx did not finish shape inference within 120 s"); 120 s unless set.
void setContainedTimeLimit(std::chrono::milliseconds limit);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_CONTAINEDLIBONNX_H
