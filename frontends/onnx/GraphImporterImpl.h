//===- GraphImporterImpl.h - the state of one ONNX graph walk ----*- C++
//-*-===//
//
// Private to frontends/onnx: the walk that GraphImporter.cpp (the graph: its
// inputs, initializers, outputs, verification and folding) and
// NodeImporter.cpp (one node into one ge op) share.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTERIMPL_H
#define GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTERIMPL_H

#include "frontends/onnx/ConvertedInitializers.h"
#include "frontends/onnx/Diagnostics.h"
#include "frontends/onnx/GraphImporter.h"
#include "frontends/onnx/MappedTensors.h"
#include "frontends/onnx/OpTable.h"
#include "frontends/onnx/Opsets.h"
#include "frontends/onnx/StreamPlanApplier.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace geflow::onnxfe::detail {

using mlir::Location;
using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::NamedAttribute;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::OperationState;
using mlir::OwningOpRef;
using mlir::Value;
using mlir::func::FuncOp;

class GraphImporter {
public:
  GraphImporter(MLIRContext &context, onnx::ModelProto &model,
                llvm::StringRef sourceName, const OnnxImportOptions &options,
                bool probe = false, const MappedTensors *mapped = nullptr,
                const ConvertedInitializers *converted = nullptr)
      : context(context), model(model), graph(*model.mutable_graph()),
        sourceName(sourceName), options(options), builder(&context),
        opset(getDefaultOpset(model)), probe(probe), mapped(mapped),
        converted(converted) {
    if (options.streamPlan && !probe)
      planApplier.emplace(*options.streamPlan);
  }

  /// Builds, verifies, folds, verifies again and checks that all is static.
  llvm::Expected<OwningOpRef<ModuleOp>> run();
  /// Probe mode only: builds the static part, folds it, reads back constants.
  llvm::Expected<ProbeResult> runProbe();

private:
  /// Initializers above this many elements stay function arguments in a probe.
  static constexpr int64_t kProbeConstantLimit = 4096;

  Location nameLoc(llvm::StringRef name) {
    return mlir::NameLoc::get(
        builder.getStringAttr(name),
        mlir::FileLineColLoc::get(&context, sourceName, 0, 0));
  }
  llvm::Expected<OwningOpRef<ModuleOp>> build();
  llvm::Error importInputs(FuncOp func);
  /// The raw_data of a large initializer outside the proto: its bytes in the
  /// file's mapping, or its raw_data string moved out of the proto; none for
  /// small ones, whose values the context copies.
  std::optional<ExternalBytes> takeLargeRawData(onnx::TensorProto &tensor);
  llvm::Error importInitializers(FuncOp func);
  llvm::Error importNode(const onnx::NodeProto &node, size_t index);
  // importNode's phases, in the order it runs them; `where` names the node in
  // errors.
  llvm::Error addNodeOperands(const onnx::NodeProto &node, const OpSpec &spec,
                              const std::string &where, OperationState &state);
  llvm::Expected<int> countNodeResults(const onnx::NodeProto &node,
                                       const OpSpec &spec,
                                       const std::string &where);
  llvm::Error addNodeResultTypes(const onnx::NodeProto &node,
                                 const OpSpec &spec, int numResults,
                                 const std::string &where,
                                 OperationState &state);
  llvm::Error checkAttributesKept(Operation *op,
                                  llvm::ArrayRef<NamedAttribute> attrs,
                                  const onnx::NodeProto &node,
                                  const std::string &where);
  void bindNodeResults(const onnx::NodeProto &node, Operation *op,
                       int numResults);
  llvm::Error importOutputs(FuncOp func);
  llvm::Error importGraph(FuncOp func);
  bool shouldSkip(const onnx::NodeProto &node);
  llvm::Expected<Value> lookup(const std::string &name,
                               const std::string &where);
  llvm::Error verifyModule(ModuleOp module, llvm::StringRef stage);
  llvm::Error checkStatic(FuncOp func);
  std::string describeOp(Operation *op);

  MLIRContext &context;
  onnx::ModelProto &model;
  onnx::GraphProto &graph;
  llvm::StringRef sourceName;
  const OnnxImportOptions &options;
  OpBuilder builder;
  int64_t opset;
  /// Probe mode: skip nodes without static output types, keep weights out.
  bool probe;
  /// Large initializers' raw_data, left in the file (null: all in the proto).
  const MappedTensors *mapped;
  /// Initializers converted while shapes were inferred (null: none).
  const ConvertedInitializers *converted;
  /// Probe mode: the nodes left out, and the names of the returned values.
  std::vector<const onnx::NodeProto *> skipped;
  std::vector<std::string> probeNames;
  llvm::StringSet<> constantNodeOutputs;
  llvm::StringSet<> initializerNames;
  /// Applies options.streamPlan (not in probe mode).
  std::optional<StreamPlanApplier> planApplier;

  llvm::StringMap<Value> values;
  llvm::StringMap<const onnx::TypeProto *> valueTypes;
  llvm::StringSet<> usedNames;
  /// Node display name -> ONNX op type, for messages about ops.
  llvm::StringMap<std::string> nodeTypes;
  /// Result -> ONNX tensor name, for the static-shape check.
  llvm::DenseMap<Value, std::string> tensorNames;
};

} // namespace geflow::onnxfe::detail

#endif // GEFLOW_FRONTENDS_ONNX_GRAPHIMPORTERIMPL_H
