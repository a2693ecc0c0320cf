//===- GraphRewrites.h - value-level edits of an ONNX graph -----*- C++ -*-===//
//
// What rewriting a GraphProto before import is made of: fresh value names,
// a value renamed where it is made and read (in subgraphs too, which read
// outer values by name), nodes and constants added, the nodes the outputs no
// longer need removed. The model edits of ATC's options (AtcModelEdits.h,
// AippPrologue.h) are built from these.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_GRAPHREWRITES_H
#define GEFLOW_FRONTENDS_ONNX_GRAPHREWRITES_H

#include "onnx/onnx_pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>

namespace geflow::onnxfe {

/// Every name a value has anywhere in `graph` and its subgraphs, so that a
/// new one can be told apart.
class ValueNames {
public:
  explicit ValueNames(const onnx::GraphProto &graph);
  /// `base`, or `base_1`, `base_2`, ... whichever is free; it is taken.
  std::string fresh(llvm::StringRef base);

private:
  void add(const onnx::GraphProto &graph);
  llvm::StringSet<> names_;
};

/// Every node input `from` becomes `to`, in `graph` and in the subgraphs
/// that do not define a value `from` of their own.
void renameUses(onnx::GraphProto &graph, llvm::StringRef from,
                llvm::StringRef to);

/// The node output `from` and every use of it become `to`, value_info too.
void renameNodeOutput(onnx::GraphProto &graph, llvm::StringRef from,
                      llvm::StringRef to);

/// The element type `graph` declares for `value` (graph input or output,
/// value_info, initializer, Constant or Cast node); UNDEFINED when none does.
int32_t declaredElementType(const onnx::GraphProto &graph,
                            llvm::StringRef value);

/// Appends a node of one output to `graph`.
onnx::NodeProto &appendNode(onnx::GraphProto &graph, llvm::StringRef type,
                            llvm::StringRef name,
                            llvm::ArrayRef<std::string> inputs,
                            llvm::StringRef output);

/// Appends a node whose name and output are a fresh name after `base`,
/// which it returns.
std::string appendStep(onnx::GraphProto &graph, ValueNames &names,
                       llvm::StringRef type, const llvm::Twine &base,
                       llvm::ArrayRef<std::string> inputs);

/// Adds an INT or INTS attribute to `node`.
void setAttribute(onnx::NodeProto &node, llvm::StringRef name, int64_t value);
void setAttribute(onnx::NodeProto &node, llvm::StringRef name,
                  llvm::ArrayRef<int64_t> values);

/// Adds an initializer of a fresh name after `base` holding `values` in
/// `dims` (a scalar when `dims` is empty); returns its name. T is float or
/// int64_t.
template <class T>
std::string addConstant(onnx::GraphProto &graph, ValueNames &names,
                        const llvm::Twine &base, llvm::ArrayRef<int64_t> dims,
                        llvm::ArrayRef<T> values);

/// Moves the last `count` nodes, in their order, before all others: a
/// prologue appended node by node, kept topologically sorted.
void moveLastNodesToFront(onnx::GraphProto &graph, int count);

/// Removes the nodes and initializers no graph output needs (graph inputs
/// stay: they are the model's interface).
void removeUnneededNodes(onnx::GraphProto &graph);

} // namespace geflow::onnxfe

#endif // GEFLOW_FRONTENDS_ONNX_GRAPHREWRITES_H
